import RasterKit

/// Every example component in a few states, as the demo, the goldens and the benchmarks use them.
public enum ExampleGallery {
    /// A named component at a size, rendered by a rasterizer at a scale.
    public struct Sample: Sendable {
        public let name: String
        public let size: Size
        public let render: @Sendable (Rasterizer, Double) throws -> RasterImage

        init<C: Rasterizable>(_ name: String, _ component: C, _ size: Size, stretched: Bool = false) {
            self.name = name
            self.size = size
            render = { rasterizer, scale in
                let image = try rasterizer.image(for: component, size: size, scale: scale)
                return stretched ? try image.stretched(to: size) : image
            }
        }
    }

    public static let samples: [Sample] = {
        var samples: [Sample] = []
        for style in Button.Style.allCases {
            for state in Button.State.allCases {
                let title = style == .destructive ? "Delete" : (style == .primary ? "Continue" : "Cancel")
                samples.append(Sample("button-\(style.rawValue)-\(state.rawValue)", Button(title: title, style: style, state: state),
                                      Size(width: 140, height: 44)))
            }
        }
        for count in [0, 3, 42, 120] {
            samples.append(Sample("badge-\(count)", Badge(count: count), Size(width: count > 99 ? 36 : (count > 9 ? 30 : 22), height: 22)))
        }
        for (on, enabled) in [(true, true), (false, true), (true, false)] {
            samples.append(Sample("toggle-\(on ? "on" : "off")\(enabled ? "" : "-disabled")", Toggle(isOn: on, isEnabled: enabled),
                                  Size(width: 52, height: 32)))
        }
        for value in [0.0, 0.35, 1.0] {
            samples.append(Sample("progress-\(Int(value * 100))", ProgressBar(value: value), Size(width: 200, height: 8)))
        }
        samples.append(Sample("panel-240x120", Panel(), Size(width: 240, height: 120), stretched: true))
        samples.append(Sample("chip-active", Chip(text: "Active", tint: Palette.green), Size(width: 84, height: 26)))
        samples.append(Sample("chip-review", Chip(text: "In review", tint: Palette.amber), Size(width: 104, height: 26)))
        samples.append(Sample("avatar-ada", Avatar(name: "Ada Lovelace"), Size(40)))
        samples.append(Sample("avatar-grace", Avatar(name: "Grace Hopper"), Size(40)))
        for name in Glyph.Name.allCases {
            samples.append(Sample("glyph-\(name.rawValue)", Glyph(name), Size(24)))
        }
        samples.append(Sample("card-messages", Card(title: "Messages", subtitle: "3 new messages from your team since yesterday",
                                                   glyph: .bell, unread: 3, action: "Read"), Size(width: 360, height: 132)))
        samples.append(Sample("card-favourites", Card(title: "Favourites", subtitle: "Everything you starred, in one place",
                                                     glyph: .star, action: "Open"), Size(width: 360, height: 132)))
        return samples
    }()
}
