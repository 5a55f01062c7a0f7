internal import CCairo
import Foundation

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
          <!-- Pango asks for the family "emoji" for emoji runs (an emoji, or a character with the
               emoji variation selector, as in ❤️): the colour emoji font when it is registered
               (the noto fallback set), else DejaVu's black-and-white symbols as before. -->
          <alias binding="same"><family>emoji</family><prefer><family>Noto Color Emoji</family></prefer></alias>
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
          <!-- Colour fonts (emoji) hold their glyphs as embedded bitmaps only, which cairo draws
               only when the font is not marked antialiased (as fontconfig's scan marks it), at one
               pixel size scaled to the size asked for (fontconfig's own 10-scale-bitmap-fonts
               rules, which this configuration does not load). -->
          <match target="font">
            <test name="color"><bool>true</bool></test>
            <edit name="embeddedbitmap" mode="assign"><bool>true</bool></edit>
            <edit name="antialias" mode="assign"><bool>false</bool></edit>
          </match>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <edit name="pixelsizefixupfactor" mode="assign">
              <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
            </edit>
          </match>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
            <edit name="matrix" mode="assign">
              <times>
                <name>matrix</name>
                <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
              </times>
            </edit>
            <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
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
        if let message = rk_cairo_load() { throw RenderError.libraryUnavailable(reason: String(cString: message)) }
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
