import RasterKit
import Foundation
internal import Yams

/// A manifest's `fonts:` (font files and folders, relative to it), `fallbackFonts: noto`, and
/// the folders a command adds (`--font-dir`): registered with RasterKit's `FontLibrary` when
/// the manifest loads, so its text (and its measured sizes) use them, for the rest of the
/// process. Their digest goes into the keys of the manifest's text and SVG layers, and each
/// file is an input of the run, so editing a font redraws what uses it. The digest depends on
/// what the manifest and its command add, never on what else the process registered.
struct ManifestFonts {
    let reader: ManifestReader

    /// Registers the fonts; returns their digest, or nil when the manifest adds none.
    func register(_ fields: Fields) -> StableDigest? {
        var files: [String] = []
        var packaged: Set<String> = []
        if let node = fields["fonts"], reader.usable(node, "fonts") {
            let list = node.sequence.map(Array.init) ?? [node]
            for entry in list { files += register(entry, "a path in fonts") }
        }
        for directory in reader.fontDirectories {
            let path = directory.standardizedFileURL.path
            do {
                try FontLibrary.register(directory: URL(fileURLWithPath: path, isDirectory: true))
                files += noted(FontLibrary.fontFiles(in: path))
            } catch {
                reader.problem("--font-dir \(path): \(error)", at: nil)
            }
        }
        if let node = fields["fallbackFonts"], let set = reader.choice(node, "fallbackFonts", FallbackFonts.self) {
            do {
                try FontLibrary.useFallbackFonts(set)
                let fallback = try set.resolvedFiles()
                files += fallback
                packaged.formUnion(fallback)
            } catch {
                reader.problem("fallbackFonts: \(error)", at: node)
            }
        }
        return files.isEmpty ? nil : FontLibrary.digest(ofFontFiles: files, packaged: packaged)
    }

    /// One font file, or a folder of them; returns the font files registered.
    private func register(_ node: Node, _ what: String) -> [String] {
        guard let path = reader.string(node, what) else { return [] }
        guard !path.isEmpty else {
            reader.problem("\(what) must name a font file or a folder of fonts", at: node)
            return []
        }
        let full = reader.files.fullPath(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else {
            reader.problem("\(what): no font file or folder at '\(path)'", at: node)
            return []
        }
        do {
            if isDirectory.boolValue {
                try FontLibrary.register(directory: URL(fileURLWithPath: full))
                return noted(FontLibrary.fontFiles(in: full))
            }
            try FontLibrary.register(fontFile: URL(fileURLWithPath: full))
            return noted([full])
        } catch {
            reader.problem("\(what): '\(path)': \(error)", at: node)
            return []
        }
    }

    /// `files`, each noted as an input of the run.
    private func noted(_ files: [String]) -> [String] {
        for file in files { reader.files.inputs?.note(file) }
        return files
    }
}
