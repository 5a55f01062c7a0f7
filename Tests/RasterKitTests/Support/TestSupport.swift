import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit

/// Paths and small helpers shared by the tests.
enum TestSupport {
    /// Tests/RasterKitTests/Fixtures
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A fresh empty directory in this test process's scratch folder (see `TestScratch`).
    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        try TestScratch.folder(name.filter { $0.isLetter || $0.isNumber })
    }

    /// The directory holding the built products (the test bundle and executables).
    static var productsDirectory: URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // The test binary may sit inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// Draws a solid image, for tests that need any image.
    static func solidImage(_ color: Color, width: Double = 4, height: Double = 4, scale: Double = 1) throws -> RasterImage {
        try RasterImage(size: Size(width: width, height: height), scale: scale) { canvas in
            canvas.fillAll(with: .color(color))
        }
    }
}

extension RGBA8 {
    /// Whether every channel is within `tolerance` of `other`.
    func isClose(to other: RGBA8, tolerance: Int = 1) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance && abs(Int(alpha) - Int(other.alpha)) <= tolerance
    }
}

extension RasterImage {
    /// Every pixel, row by row.
    var allPixels: [RGBA8] {
        (0..<pixelHeight).flatMap { y in (0..<pixelWidth).map { x in pixel(x: x, y: y) } }
    }
}
