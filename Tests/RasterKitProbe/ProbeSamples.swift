import Foundation
import RasterKit

/// Components covering every kind of state value, with fixed values, whose keys must be the
/// same in every process.
enum ProbeSamples {
    enum Badge: Sendable { case none, dot, count(Int), label(text: String, urgent: Bool) }
    struct Tint: Sendable { var red, green, blue, alpha: Double }
    final class Node: @unchecked Sendable {
        var name: String
        var next: Node?
        init(name: String, next: Node? = nil) {
            self.name = name
            self.next = next
        }
    }

    struct Chip: Rasterizable {
        var title: String
        var count: Int
        var enabled: Bool
        var badge: Badge
        var tint: Tint
        var subtitle: String?
        static let stateKeyPaths: [PartialKeyPath<Chip> & Sendable] = [\.title, \.count, \.enabled, \.badge, \.tint, \.subtitle]
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    struct Collections: Rasterizable {
        var tags: Set<String>
        var weights: [String: Double]
        var nested: [[Int]]
        var pair: (label: String, value: Int)
        var node: Node
        var when: Date
        var link: URL
        var blob: Data
        var id: UUID
        var color: Color
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    struct Panel: Rasterizable {
        var style: Int
        var capInsets: EdgeInsets? { EdgeInsets(top: 8, left: 12, bottom: 8, right: 12) }
        static var renderVersion: Int { 3 }
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    static func keys() throws -> [(String, CacheKey)] {
        let rasterizer = Rasterizer()
        let cycle = Node(name: "a")
        cycle.next = Node(name: "b", next: cycle)
        let chip = Chip(title: "Déjà vu", count: 42, enabled: true, badge: .label(text: "new", urgent: false),
                        tint: Tint(red: 0.1, green: -0.0, blue: .nan, alpha: 1), subtitle: nil)
        let collections = Collections(
            tags: ["alpha", "beta", "gamma", "delta"], weights: ["x": 1.5, "y": -2, "z": 0],
            nested: [[1, 2], [], [3]], pair: (label: "p", value: 7), node: cycle,
            when: Date(timeIntervalSinceReferenceDate: 123_456.5), link: URL(string: "https://example.com/a?b=c")!,
            blob: Data([0, 1, 2, 255]), id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            color: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8))
        return [
            ("chip", try rasterizer.cacheKey(for: chip, size: Size(width: 120, height: 32), scale: 2)),
            ("chip-badge-count", try rasterizer.cacheKey(for: { var c = chip; c.badge = .count(3); return c }(),
                                                     size: Size(width: 120, height: 32), scale: 2)),
            ("chip-1x", try rasterizer.cacheKey(for: chip, size: Size(width: 120, height: 32), scale: 1)),
            ("collections", try rasterizer.cacheKey(for: collections, size: Size(width: 10, height: 10), scale: 3)),
            ("panel-any-size", try rasterizer.cacheKey(for: Panel(style: 1), size: Size(width: 300, height: 200), scale: 2)),
        ]
    }
}
