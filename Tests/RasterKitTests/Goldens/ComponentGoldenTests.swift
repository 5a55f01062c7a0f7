import Foundation
import RasterKitExamples
import RasterKitTesting
import Testing

/// Reviewed pictures of the example components, including nine-slice stretching and nesting.
@Suite struct ComponentGoldenTests {
    @Test(arguments: Button.State.allCases)
    func primaryButton(state: Button.State) throws {
        try assertGolden(of: Button(title: "Continue", style: .primary, state: state), size: Size(width: 160, height: 44),
                         named: state.rawValue)
    }

    @Test func secondaryAndDestructiveButtons() throws {
        try assertGolden(of: Button(title: "Cancel", style: .secondary), size: Size(width: 120, height: 44), named: "secondary")
        try assertGolden(of: Button(title: "Delete", style: .destructive, state: .hovered), size: Size(width: 120, height: 44),
                         named: "destructive")
    }

    @Test func badges() throws {
        for (count, width) in [(0, 22.0), (7, 22), (42, 30), (128, 36)] {
            try assertGolden(of: Badge(count: count), size: Size(width: width, height: 22), scale: 3, named: "\(count)")
        }
    }

    @Test func toggles() throws {
        try assertGolden(of: Toggle(isOn: true), size: Size(width: 52, height: 32), named: "on")
        try assertGolden(of: Toggle(isOn: false, isEnabled: false), size: Size(width: 52, height: 32), named: "off-disabled")
    }

    @Test func progressBar() throws {
        try assertGolden(of: ProgressBar(value: 0.62), size: Size(width: 220, height: 10))
    }

    @Test func avatarsAndChips() throws {
        try assertGolden(of: Avatar(name: "Ada Lovelace"), size: Size(48), named: "avatar")
        try assertGolden(of: Chip(text: "In review", tint: Palette.amber), size: Size(width: 110, height: 28), named: "chip")
    }

    /// A nine-slice panel stretched to two different sizes from one minimum-frame render.
    @Test func nineSlicePanel() throws {
        try assertGolden(of: RasterKitExamples.Panel(), size: Size(width: 220, height: 90), named: "wide")
        try assertGolden(of: RasterKitExamples.Panel(fill: Palette.paper, border: Palette.blue, cornerRadius: 8), size: Size(width: 90, height: 140),
                         scale: 3, named: "tall")
    }

    /// A card nesting a panel, a glyph, a badge and a button.
    @Test func nestedCard() throws {
        try assertGolden(of: Card(title: "Messages", subtitle: "3 new messages from your team since yesterday",
                                  glyph: .bell, unread: 3, action: "Read"), size: Size(width: 360, height: 132))
    }

    @Test func glyphs() throws {
        for name in Glyph.Name.allCases {
            try assertGolden(of: Glyph(name), size: Size(24), scale: 3, named: name.rawValue)
        }
    }
}
