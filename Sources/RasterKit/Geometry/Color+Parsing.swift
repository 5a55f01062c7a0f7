extension Color {
    /// CSS's basic colour keywords (CSS Color Module Level 4's sixteen, with `orange` and the
    /// `grey`, `aqua` and `fuchsia` aliases), and `clear` / `transparent`. Each means what CSS
    /// says: `green` is `#008000`, unlike `Color.green` (`#00FF00`).
    public static let cssNames: [String: Color] = {
        let hexes = ["black": "#000000", "white": "#FFFFFF", "red": "#FF0000", "lime": "#00FF00", "blue": "#0000FF",
                     "yellow": "#FFFF00", "cyan": "#00FFFF", "aqua": "#00FFFF", "magenta": "#FF00FF", "fuchsia": "#FF00FF",
                     "gray": "#808080", "grey": "#808080", "silver": "#C0C0C0", "maroon": "#800000", "olive": "#808000",
                     "green": "#008000", "purple": "#800080", "teal": "#008080", "navy": "#000080", "orange": "#FFA500",
                     "clear": "#00000000", "transparent": "#00000000"]
        return hexes.mapValues { try! Color(hex: $0) }
    }()

    /// A colour as every RasterKit surface spells one (manifests, `rasterkit` flags, the render
    /// server's query): `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`, the same digits without `#`
    /// (which a URL or a shell would need escaped), or a name of ``cssNames``, in any case.
    ///
    /// ```swift
    /// try Color(parsing: "#2F6FEB") == Color(parsing: "2f6feb")
    /// try Color(parsing: "Orange")   // #FFA500
    /// ```
    ///
    /// - Throws: ``ColorError``, with a did-you-mean for a name that is almost one of them.
    public init(parsing text: String) throws(ColorError) {
        if let named = Self.cssNames[text.lowercased()] {
            self = named
            return
        }
        if text.first == "#" {
            self = try Color(hex: text)
            return
        }
        let isHex = !text.isEmpty && text.utf8.allSatisfy { HexDigits.value(of: $0) != nil }
        if isHex, let color = try? Color(hex: "#" + text) {
            self = color
            return
        }
        throw ColorError(input: text, reason: (isHex ? "needs 3, 4, 6 or 8 hexadecimal digits" : "is not a colour name")
                             + Suggestion.hint(for: text, in: Self.cssNames.keys.sorted()))
    }
}
