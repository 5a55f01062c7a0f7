import Foundation
import Observation
import RasterKit

/// States holding the standard library's and Foundation's values whose storage key plans cannot
/// read as it is (builtin storage, custom mirrors, values for the current moment), objects
/// shared within one state, and `private` and function-local types: their keys must be the
/// same in every process, on any date, in debug and release, linked statically or not.
enum ValueSamples {
    struct Numbers: Rasterizable {
        var wide: Int128 = -170_141_183_460_469_231_731_687_303_715_884_105_000
        var unsignedWide: UInt128 = 340_282_366_920_938_463_463_374_607_431_768_211_000
        var half: Float16 = 0.333
        var lanes = SIMD4<Float>(1, -0.0, 2.5, .nan)
        var grid = SIMD2<Int32>(3, -4)
        var native = CGFloat(1.25)
        var label: StaticString = "static"
        var span = Duration.milliseconds(1500)
        var scalar: Unicode.Scalar = "é"
        var glyph: Character = "🇫🇷"
        var slice: Substring = "abc".dropFirst()
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    struct Foundations: Rasterizable {
        var distance = Measurement(value: 12.5, unit: UnitLength.kilometers)
        var zone = TimeZone(identifier: "Europe/Paris")!
        var calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "America/New_York")!
            calendar.locale = Locale(identifier: "fr_FR")
            return calendar
        }()
        var locale = Locale(identifier: "de_CH")
        var text: AttributedString = {
            var text = AttributedString("Hello, world")
            text[text.startIndex..<text.index(text.startIndex, offsetByCharacters: 5)].link = URL(string: "https://example.com")
            return text
        }()
        var letters = CharacterSet(charactersIn: "abcxyz")
        var indexes = IndexSet([1, 2, 3, 10, 11])
        var amount = Decimal(string: "12.345")!
        var when = DateComponents(year: 2026, month: 3, day: 29, hour: 2)
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    struct Boxed: Rasterizable {
        var values: [any Sendable] = [[Int](), [String](), Int?.none, "text"[...], 3 as Int8]
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    final class Level: @unchecked Sendable {
        let left: Level?
        let right: Level?
        let depth: Int
        init(depth: Int, below: Level?) {
            left = below
            right = below
            self.depth = depth
        }
    }

    struct Lattice: Rasterizable {
        var top: Level
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    @Observable
    final class Model: Rasterizable, @unchecked Sendable {
        var title = "observed"
        var count = 3
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    static func keys() throws -> [(String, CacheKey)] {
        let rasterizer = Rasterizer()
        var level: Level?
        for depth in 0..<40 { level = Level(depth: depth, below: level) }
        let size = Size(width: 20, height: 10)
        return [
            ("numbers", try rasterizer.cacheKey(for: Numbers(), size: size, scale: 2)),
            ("foundation", try rasterizer.cacheKey(for: Foundations(), size: size, scale: 2)),
            ("existentials", try rasterizer.cacheKey(for: Boxed(), size: size, scale: 2)),
            ("lattice", try rasterizer.cacheKey(for: Lattice(top: level!), size: size, scale: 2)),
            ("observable", try rasterizer.cacheKey(for: Model(), size: size, scale: 2)),
            ("fileprivate", try rasterizer.cacheKey(for: FilePrivateBadge(count: 7), size: size, scale: 2)),
            ("local", try localKey(rasterizer, size: size)),
        ]
    }

    private static func localKey(_ rasterizer: Rasterizer, size: Size) throws -> CacheKey {
        struct LocalBadge: Rasterizable {
            var count: Int
            func draw(in canvas: Canvas, size: Size) throws {}
        }
        return try rasterizer.cacheKey(for: LocalBadge(count: 1), size: size, scale: 2)
    }
}

fileprivate struct FilePrivateBadge: Rasterizable {
    var count: Int
    func draw(in canvas: Canvas, size: Size) throws {}
}
