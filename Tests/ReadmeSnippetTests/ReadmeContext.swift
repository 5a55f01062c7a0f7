import Foundation
import RasterKit
import Testing

// What the README's partial blocks say they continue from: each name here is one a block names
// without making it ("`rasterizer` as in A component", "`Photo` is a component of yours"). The
// blocks themselves are in Generated/, written from README.md by Scripts/readme-snippets.py.

/// The `rasterizer` of "A component".
let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 64 << 20))
/// The `badge` of "A component".
let badge = Badge(count: 3, tint: .red, accessibilityLabel: "3 unread")
/// Another state of it.
let nextBadge = Badge(count: 4, tint: .red, accessibilityLabel: "4 unread")
/// The size the blocks render at.
let size = Size(width: 24, height: 24)
/// A large component, for the cache-control block.
let poster = Photo(name: "poster")
/// A value with a photo and a name.
let user = (photo: "lake", name: "Ada Lovelace")

/// Where the application hands a new image.
func publish(_ image: RasterImage) {}

/// A component of the reader's: a photo by name.
struct Photo: Rasterizable {
    var name: String
    static let stateKeyPaths: [PartialKeyPath<Photo> & Sendable] = [\.name]
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.black))
    }
}

/// A component of the reader's: initials on a disc.
struct Initials: Rasterizable {
    var name: String
    init(_ name: String) { self.name = name }
    static let stateKeyPaths: [PartialKeyPath<Initials> & Sendable] = [\.name]
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(.white))
    }
}

/// A component of the reader's: a button in a state.
struct MyButton: Rasterizable {
    var state: String
    static let stateKeyPaths: [PartialKeyPath<MyButton> & Sendable] = [\.state]
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 8), with: .color(.blue))
    }
}

/// A component of the reader's: a labelled badge.
struct MyBadge: Rasterizable {
    var label: String
    static let stateKeyPaths: [PartialKeyPath<MyBadge> & Sendable] = [\.label]
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: size.height / 2), with: .color(.green))
    }
}

/// Where the render store is.
let cacheURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("readme-renders.sqlite")

/// The bundle the plugin block's `Bundle.module` finds: this target's resources hold one PNG.
@Test func theBundleHoldsTheBadgeThePluginBlockLoads() throws {
    let url = try #require(Bundle.module.url(forResource: "badge-new@2x", withExtension: "png"))
    #expect(try RasterImage(pngData: Data(contentsOf: url)).pixelWidth > 0)
}
