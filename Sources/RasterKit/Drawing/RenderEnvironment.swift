import Foundation

/// What decides a render's pixels besides the component: the versions of the libraries that
/// draw, shape, rasterize and encode, and the font files text can use. Golden tests record it
/// beside the goldens, so a failure can say whether the machine changed.
package struct RenderEnvironment: Codable, Hashable, Sendable {
    /// The libraries in the order messages name them.
    package static let libraryNames = ["cairo", "pixman", "Pango", "HarfBuzz", "FreeType", "fontconfig", "librsvg", "libpng"]

    /// Library name → version.
    package var libraries: [String: String]
    /// The font files text can use, as `<file name> (<bytes> bytes)`, sorted; paths are left out
    /// because they differ between machines.
    package var fonts: [String]

    package init(libraries: [String: String], fonts: [String]) {
        self.libraries = libraries
        self.fonts = fonts
    }

    /// The versions of the C libraries that draw and encode pixels, as loaded in this process
    /// (cheap: no font is looked up).
    package static func libraryVersions() -> [String: String] { LibraryVersions.all() }

    /// This process's environment: the libraries loaded and the fonts `FontLibrary` uses now.
    package static func current() -> RenderEnvironment {
        RenderEnvironment(libraries: LibraryVersions.all(), fonts: FontLibrary.fontFilesInUse())
    }

    /// How `self` (recorded) differs from `now`, one phrase each, libraries first:
    /// `recorded with cairo 1.16.0, now 1.18.0`. Empty when nothing differs.
    package func differences(now: RenderEnvironment) -> [String] {
        var result: [String] = []
        let names = RenderEnvironment.libraryNames + Set(libraries.keys).union(now.libraries.keys)
            .subtracting(RenderEnvironment.libraryNames).sorted()
        for name in names where libraries[name] != now.libraries[name] {
            result.append("recorded with \(name) \(libraries[name] ?? "(not recorded)"), now \(now.libraries[name] ?? "(none)")")
        }
        let removed = Set(fonts).subtracting(now.fonts).sorted()
        let added = Set(now.fonts).subtracting(fonts).sorted()
        if !removed.isEmpty { result.append("recorded with fonts no longer used: \(removed.joined(separator: ", "))") }
        if !added.isEmpty { result.append("now with fonts not recorded: \(added.joined(separator: ", "))") }
        return result
    }

    /// Pretty-printed JSON with sorted keys and a final newline: the same environment always
    /// gives the same bytes.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
