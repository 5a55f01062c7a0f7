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
        var fallbackFiles: [String] = []
        /// The folders of links to the fallback files that fontconfig reads them through (see
        /// ``FallbackFonts/linkedDirectory(for:)``); empty when the files are added one by one.
        var fallbackDirectories: [String] = []
        var includesSystemFonts = false
        var configuration: FontConfiguration?
    }

    private static let state = Lock(State())

    /// Makes the fonts in `directory` (and its subdirectories) available to text drawing; a
    /// directory registered before is left as it is.
    /// Throws ``FontError`` when the directory does not exist or holds no font fontconfig reads.
    public static func register(directory: URL) throws {
        let path = directory.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FontError.notFound(path: path)
        }
        guard !state.withLock({ $0.userDirectories.contains(path) }) else { return }
        try update { $0.userDirectories.append(path) }
    }

    /// Makes one font file available to text drawing; a file registered before is left as it is.
    public static func register(fontFile: URL) throws {
        let path = fontFile.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw FontError.notFound(path: path) }
        guard !state.withLock({ $0.userFiles.contains(path) }) else { return }
        try update { $0.userFiles.append(path) }
    }

    /// Also uses a documented set of fonts for scripts and symbols the DejaVu fonts lack, after
    /// them: text DejaVu can draw looks exactly as before, and other characters are drawn with
    /// the set's fonts instead of empty boxes. Throws ``FontError/fallbackFontsMissing(_:missing:package:)``
    /// naming the Debian packages to install when a file of the set is not there.
    public static func useFallbackFonts(_ fonts: FallbackFonts) throws {
        let files = try fonts.resolvedFiles()
        guard !state.withLock({ current in files.allSatisfy(current.fallbackFiles.contains) }) else { return }
        let directory = fonts.linkedDirectory(for: files)
        try update { state in
            if let directory { state.fallbackDirectories.append(directory) }
            for file in files where !state.fallbackFiles.contains(file) { state.fallbackFiles.append(file) }
        }
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
    /// the previous configuration in place. A font registered earlier that has since gone (a
    /// temporary folder removed, a file replaced by something fontconfig cannot read) is dropped
    /// rather than allowed to refuse every later registration.
    private static func update(_ change: (inout State) -> Void) throws {
        try state.withLock { current in
            var next = current
            change(&next)
            let before = Set(current.userFiles + current.userDirectories + current.fallbackFiles)
            while true {
                do {
                    next.configuration = try configuration(of: next)
                    break
                } catch FontError.unreadable(let path) where before.contains(path) {
                    next.userFiles.removeAll { $0 == path }
                    next.userDirectories.removeAll { $0 == path }
                    next.fallbackFiles.removeAll { $0 == path }
                    next.fallbackDirectories.removeAll { $0 == path }
                }
            }
            next.generation += 1
            current = next
        }
    }

    /// The current configuration and its generation, built on first use.
    static func configuration() throws -> FontConfiguration {
        try state.withLock { current in
            if let configuration = current.configuration { return configuration }
            let configuration = try configuration(of: current)
            current.configuration = configuration
            return configuration
        }
    }

    /// The fontconfig configuration for `state`: the fallback set through its folder of links
    /// when there is one (fontconfig caches a folder's scan, not a file's), else file by file.
    private static func configuration(of state: State) throws -> FontConfiguration {
        try FontConfiguration(defaultFiles: resolveDefaultFiles(), userDirectories: state.userDirectories + state.fallbackDirectories,
                              userFiles: state.userFiles + (state.fallbackDirectories.isEmpty ? state.fallbackFiles : []),
                              includeSystemFonts: state.includesSystemFonts)
    }

    static var generation: Int { state.withLock { $0.generation } }

    /// The font files text can use now, as `<file name> (<bytes> bytes)`, sorted (for
    /// ``RenderEnvironment``): the default fonts, registered files and the fonts in registered
    /// directories; `system fonts` when the machine's fonts are included.
    package static func fontFilesInUse() -> [String] {
        let system = state.withLock { $0.includesSystemFonts }
        let paths = ((try? resolveDefaultFiles()) ?? []) + addedFontFiles()
        var names = Set(paths.map { path in
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            return (path as NSString).lastPathComponent + (bytes.map { " (\($0) bytes)" } ?? " (unreadable)")
        })
        if system { names.insert("system fonts") }
        return names.sorted()
    }

    /// The font files added to the defaults: registered files, the fallback set's, and the
    /// fonts in registered directories, in the order they were added.
    private static func addedFontFiles() -> [String] {
        let (directories, files) = state.withLock { ($0.userDirectories, $0.userFiles + $0.fallbackFiles) }
        return files + directories.flatMap(fontFiles(in:))
    }

    /// The extensions of the font files fontconfig reads from a directory.
    private static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2"]

    /// A digest of font files for render keys: each file's bytes, except for files in
    /// `packaged` (a fallback set's), which are named by ``packagedFileDigest(_:)``. Sorted, so the
    /// order fonts were given in does not matter.
    package static func digest(ofFontFiles files: [String], packaged: Set<String> = []) -> StableDigest {
        var sip = SipHash128()
        sip.write(0x466F_6E74_7346_6F6E as UInt64)  // a domain of its own
        let digests = files.map { packaged.contains($0) ? packagedFileDigest($0) : fileDigest($0) }
        for digest in digests.sorted(by: { ($0.high, $0.low) < ($1.high, $1.low) }) {
            sip.write(digest.high)
            sip.write(digest.low)
        }
        return sip.finalize()
    }

    /// The font files in `directory`, at any depth, sorted.
    package static func fontFiles(in directory: String) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            if fontExtensions.contains((relative as NSString).pathExtension.lowercased()) { found.append(directory + "/" + relative) }
        }
        return found.sorted()
    }

    /// The digest of a font file a Debian package installed (the fallback sets'): its name,
    /// size and modification time, which the package fixes for each of its versions on every
    /// machine, rather than its bytes — the set is 50 MB, which every run drawing text would
    /// otherwise read.
    private static func packagedFileDigest(_ path: String) -> StableDigest {
        var sip = SipHash128()
        sip.write(0x7061_636B_6167_6564 as UInt64)
        for byte in (path as NSString).lastPathComponent.utf8 { sip.write(byte) }
        var info = stat()
        if stat(path, &info) == 0 {
            sip.write(UInt64(info.st_size))
            sip.write(UInt64(bitPattern: Int64(info.st_mtim.tv_sec)))
            sip.write(UInt64(bitPattern: Int64(info.st_mtim.tv_nsec)))
        }
        return sip.finalize()
    }

    /// The digest of one font file's bytes; an unreadable file digests its path, so it still
    /// changes the key when it changes into a readable one.
    private static func fileDigest(_ path: String) -> StableDigest {
        var sip = SipHash128()
        if let data = FileManager.default.contents(atPath: path) {
            data.withUnsafeBytes { sip.write($0) }
        } else {
            sip.write(0xFF as UInt8)
            for byte in path.utf8 { sip.write(byte) }
        }
        return sip.finalize()
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
    /// A file of a fallback set is not installed; the Debian package named holds it.
    case fallbackFontsMissing(String, missing: String, package: String)

    /// What went wrong, and for missing default fonts what to install.
    public var description: String {
        switch self {
        case .defaultFontsMissing(let searched):
            "the DejaVu fonts were not found in \(searched.joined(separator: ", ")); "
                + "install Debian's fonts-dejavu-core or set RASTERKIT_DEJAVU_DIR"
        case .notFound(let path): "no font file or directory at \(path)"
        case .unreadable(let path): "fontconfig could not read any font at \(path)"
        case let .fallbackFontsMissing(set, missing, package):
            "the \(set) fallback fonts need \(missing); install Debian's \(package) (make deps installs it)"
        }
    }
}

