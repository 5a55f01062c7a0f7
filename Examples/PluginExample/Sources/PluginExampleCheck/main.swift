import ExampleAssets
import Foundation
import RasterKit

// Loads every badge the build rendered from the bundle and checks its size and colour; exits 1,
// saying what is wrong, when one is missing or not what the manifest describes.
var problems: [String] = []
let expected: [(name: String, pixels: Int, red: UInt8, green: UInt8, blue: UInt8)] = [
    ("badge-new", 32, 0x2F, 0x6F, 0xEB), ("badge-new@2x", 64, 0x2F, 0x6F, 0xEB),
    ("badge-done", 32, 0x1F, 0x9D, 0x55), ("badge-done@2x", 64, 0x1F, 0x9D, 0x55),
]
for badge in expected {
    do {
        let image = try ExampleAssets.image(named: badge.name)
        guard image.pixelWidth == badge.pixels, image.pixelHeight == badge.pixels else {
            problems.append("\(badge.name): \(image.pixelWidth)×\(image.pixelHeight) pixels, not \(badge.pixels)×\(badge.pixels)")
            continue
        }
        // Inside the rounded rectangle, outside the star: the state's fill.
        let pixel = image.pixel(x: badge.pixels / 2, y: badge.pixels / 8)
        guard pixel.alpha == 255, pixel.red == badge.red, pixel.green == badge.green, pixel.blue == badge.blue else {
            problems.append("\(badge.name): \(pixel) at the top, not the fill of its state")
            continue
        }
        print("found \(badge.name).png: \(image.pixelWidth)×\(image.pixelHeight)")
    } catch {
        problems.append("\(badge.name): \(error)")
    }
}
if !problems.isEmpty {
    FileHandle.standardError.write(Data(("PluginExampleCheck: " + problems.joined(separator: "\nPluginExampleCheck: ") + "\n").utf8))
    exit(1)
}
print("PluginExampleCheck: all \(expected.count) badges found in Bundle.module")
