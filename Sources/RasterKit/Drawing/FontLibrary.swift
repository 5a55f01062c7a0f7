internal import CCairo
import Foundation
import Synchronization

/// The fonts text is drawn with. By default only the DejaVu fonts of Debian's
/// `fonts-dejavu-core` are visible, through a fontconfig configuration of RasterKit's own, so
/// the same text gives the same pixels on every machine whatever else is installed.
///
/// ```swift
/// try FontLibrary.register(directory: URL(fileURLWithPath: "Fonts"))   // your brand fonts
/// ```
public enum FontLibrary {
    /// The files of `fonts-dejavu-core`, used by default.
    public static let defaultFontFiles = [
        "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
        "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
    ]

    /// Where the default fonts are looked for, in order; `RASTERKIT_DEJAVU_DIR` comes first when set.
    public static var defaultFontDirectories: [String] {
        var directories = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
                           "/usr/share/fonts/TTF", "/usr/local/share/fonts/dejavu"]
        if let custom = ProcessInfo.processInfo.environment["RASTERKIT_DEJAVU_DIR"] { directories.insert(custom, at: 0) }
        return directories
    }

    /// Font directories and files added with `register`, kept in order.
    private struct State {
        var generation = 1
        var userDirectories: [String] = []
        var userFiles: [String] = []
        var includesSystemFonts = false
        var configuration: FontConfiguration?
    }

    private static let state = Lock(State())

    /// Makes the fonts in `directory` (and its subdirectories) available to text drawing.
    /// Throws ``FontError`` when the directory does not exist or holds no font fontconfig reads.
    public static func register(directory: URL) throws {
        let path = directory.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FontError.notFound(path: path)
        }
        try update { $0.userDirectories.append(path) }
    }

    /// Makes one font file available to text drawing.
    public static func register(fontFile: URL) throws {
        let path = fontFile.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw FontError.notFound(path: path) }
        try update { $0.userFiles.append(path) }
    }

    /// Also uses every font the machine's own fontconfig setup knows. Output then depends on
    /// the machine; off by default.
    public static func useSystemFonts(_ enabled: Bool) throws {
        try update { $0.includesSystemFonts = enabled }
    }

    /// The font families text can currently use, sorted.
    public static func families() throws -> [String] {
        try configuration().families()
    }

    /// Starts loading fonts on a background thread and returns at once, so the first text drawn
    /// does not wait for them. Call it at start-up, before other slow work such as reading a
    /// manifest; drawing text waits for a load still under way. Once fonts are loaded, another
    /// call only starts a thread that finds them loaded.
    ///
    /// Three loads happen: fontconfig's system configuration, which Pango reads the first time
    /// any font map is made (about 3 ms of parsing `/etc/fonts`), the Pango library itself, and
    /// RasterKit's own configuration.
    public static func preload() {
        let thread = Thread {
            guard rk_cairo_load() == nil else { return }
            FcInit()
            _ = try? PangoLibrary.load()
            _ = try? configuration()
        }
        thread.name = "RasterKit font preload"
        thread.start()
    }

    /// Builds the configuration for a changed state first, so a failing registration leaves
    /// the previous configuration in place.
    private static func update(_ change: (inout State) -> Void) throws {
        try state.withLock { current in
            var next = current
            change(&next)
            next.configuration = try FontConfiguration(
                defaultFiles: resolveDefaultFiles(), userDirectories: next.userDirectories,
                userFiles: next.userFiles, includeSystemFonts: next.includesSystemFonts)
            next.generation += 1
            current = next
        }
    }

    /// The current configuration and its generation, built on first use.
    static func configuration() throws -> FontConfiguration {
        try state.withLock { current in
            if let configuration = current.configuration { return configuration }
            let configuration = try FontConfiguration(
                defaultFiles: resolveDefaultFiles(), userDirectories: current.userDirectories,
                userFiles: current.userFiles, includeSystemFonts: current.includesSystemFonts)
            current.configuration = configuration
            return configuration
        }
    }

    static var generation: Int { state.withLock { $0.generation } }

    /// The font files text can use now, as `<file name> (<bytes> bytes)`, sorted (for
    /// ``RenderEnvironment``): the default fonts, registered files and the fonts in registered
    /// directories; `system fonts` when the machine's fonts are included.
    package static func fontFilesInUse() -> [String] {
        let (directories, files, system) = state.withLock { ($0.userDirectories, $0.userFiles, $0.includesSystemFonts) }
        var paths = (try? resolveDefaultFiles()) ?? []
        paths += files
        let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2"]
        for directory in directories {
            let enumerator = FileManager.default.enumerator(atPath: directory)
            while let relative = enumerator?.nextObject() as? String {
                if fontExtensions.contains((relative as NSString).pathExtension.lowercased()) { paths.append(directory + "/" + relative) }
            }
        }
        var names = Set(paths.map { path in
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            return (path as NSString).lastPathComponent + (bytes.map { " (\($0) bytes)" } ?? " (unreadable)")
        })
        if system { names.insert("system fonts") }
        return names.sorted()
    }

    private static func resolveDefaultFiles() throws -> [String] {
        for directory in defaultFontDirectories {
            let paths = defaultFontFiles.map { directory + "/" + $0 }
            if paths.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) { return paths }
        }
        throw FontError.defaultFontsMissing(searched: defaultFontDirectories)
    }
}

/// A font problem: missing default fonts or an unusable registration.
public enum FontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The DejaVu fonts were not found in any of the directories searched.
    case defaultFontsMissing(searched: [String])
    /// A registered path does not exist.
    case notFound(path: String)
    /// fontconfig could not read fonts at a path.
    case unreadable(path: String)
    /// A library text needs (Pango, or fontconfig through cairo) could not be loaded: not
    /// installed, or too old.
    case libraryUnavailable(reason: String)

    /// What went wrong, and for missing default fonts what to install.
    public var description: String {
        switch self {
        case .defaultFontsMissing(let searched):
            "the DejaVu fonts were not found in \(searched.joined(separator: ", ")); "
                + "install Debian's fonts-dejavu-core or set RASTERKIT_DEJAVU_DIR"
        case .notFound(let path): "no font file or directory at \(path)"
        case .unreadable(let path): "fontconfig could not read any font at \(path)"
        case .libraryUnavailable(let reason): reason
        }
    }
}

/// One immutable fontconfig configuration. Shared by every thread's Pango font map, which
/// fontconfig allows for a configuration no one modifies.
final class FontConfiguration: @unchecked Sendable {
    let config: OpaquePointer

    /// Aliases send the generic families to DejaVu and any unknown family falls back to DejaVu
    /// Sans; rendering settings are fixed so no machine setting can change the pixels.
    private static func rules(cacheDirectory: String) -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <cachedir>\(xmlEscaped(cacheDirectory))</cachedir>
          <alias binding="same"><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
          <alias binding="same"><family>sans</family><prefer><family>DejaVu Sans</family></prefer></alias>
          <alias binding="same"><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
          <alias binding="same"><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
          <alias binding="same"><family>mono</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
          <match target="pattern">
            <edit name="family" mode="append_last"><string>DejaVu Sans</string></edit>
          </match>
          <match target="font">
            <edit name="antialias" mode="assign"><bool>true</bool></edit>
            <edit name="hinting" mode="assign"><bool>false</bool></edit>
            <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
            <edit name="autohint" mode="assign"><bool>false</bool></edit>
            <edit name="rgba" mode="assign"><const>none</const></edit>
            <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>
          </match>
        </fontconfig>
        """
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Where fontconfig may cache the scans of registered font directories: a folder of
    /// RasterKit's own, so fontconfig neither touches the machine's caches nor complains that it
    /// has none.
    static var cacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.cache" } ?? NSTemporaryDirectory()
        let directory = base + "/rasterkit/fontconfig"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    init(defaultFiles: [String], userDirectories: [String], userFiles: [String], includeSystemFonts: Bool) throws {
        if let message = rk_cairo_load() { throw FontError.libraryUnavailable(reason: String(cString: message)) }
        guard let config = includeSystemFonts ? FcInitLoadConfigAndFonts() : FcConfigCreate() else {
            throw FontError.unreadable(path: "(fontconfig configuration)")
        }
        self.config = config
        if !includeSystemFonts {
            _ = FontConfiguration.rules(cacheDirectory: FontConfiguration.cacheDirectory).withCString {
                FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1)
            }
        }
        for file in defaultFiles + userFiles {
            let added = file.withCString {
                FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            }
            guard added != 0 else { throw FontError.unreadable(path: file) }
        }
        for directory in userDirectories {
            let before = fontCount()
            let added = directory.withCString {
                FcConfigAppFontAddDir(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            }
            guard added != 0, fontCount() > before else { throw FontError.unreadable(path: directory) }
        }
    }

    deinit { FcConfigDestroy(config) }

    private func fontCount() -> Int {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return 0 }
        return Int(set.pointee.nfont)
    }

    func families() -> [String] {
        var names = Set<String>()
        for kind in [FcSetApplication, FcSetSystem] {
            guard let set = FcConfigGetFonts(config, kind) else { continue }
            for index in 0..<Int(set.pointee.nfont) {
                var family: UnsafeMutablePointer<FcChar8>?
                if FcPatternGetString(set.pointee.fonts[index], FC_FAMILY, 0, &family) == FcResultMatch, let family {
                    names.insert(String(cString: family))
                }
            }
        }
        return names.sorted()
    }
}
