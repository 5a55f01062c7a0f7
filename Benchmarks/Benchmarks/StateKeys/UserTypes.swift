// State types as an app would declare them: nothing here is RasterKit's own, so keys go through
// the automatic key plans (or, for the `Hand…` twins, through hand-written `StateHashable`).
import RasterKit

/// A user enum whose cases carry a `Double`.
enum Emphasis: Sendable { case none, subtle(Double), strong(Double) }

/// A user struct of four `Double`s.
struct Padding: Sendable { var top, leading, bottom, trailing: Double }

/// Six state key paths: `String`, `Int`, `Bool`, a user enum with a payload, a user struct, `String?`.
struct UserBadge: Rasterizable {
    var title: String
    var count: Int
    var isMuted: Bool
    var emphasis: Emphasis
    var padding: Padding
    var subtitle: String?
    var analyticsID = "not drawn"

    static let stateKeyPaths: [PartialKeyPath<UserBadge> & Sendable] = [\.title, \.count, \.isMuted, \.emphasis, \.padding, \.subtitle]

    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: size.height / 2), with: .color(.black))
    }
}

let userBadge = UserBadge(title: "Inbox", count: 12, isMuted: false, emphasis: .subtle(0.35),
                          padding: Padding(top: 4, leading: 10, bottom: 4, trailing: 10), subtitle: "Updated just now")

/// The same enum with a hand-written conformance.
enum HandEmphasis: Sendable, StateHashable {
    case none, subtle(Double), strong(Double)
    func hashState(into hasher: inout StateHasher) {
        switch self {
        case .none: hasher.combine(0)
        case .subtle(let amount): hasher.combine(1); hasher.combine(amount)
        case .strong(let amount): hasher.combine(2); hasher.combine(amount)
        }
    }
}

/// The same struct with a hand-written conformance.
struct HandPadding: Sendable, StateHashable {
    var top, leading, bottom, trailing: Double
    func hashState(into hasher: inout StateHasher) {
        hasher.combine(top)
        hasher.combine(leading)
        hasher.combine(bottom)
        hasher.combine(trailing)
    }
}

/// `UserBadge` with hand-written conformances for its user types.
struct HandBadge: Rasterizable {
    var title: String
    var count: Int
    var isMuted: Bool
    var emphasis: HandEmphasis
    var padding: HandPadding
    var subtitle: String?

    static let stateKeyPaths: [PartialKeyPath<HandBadge> & Sendable] = [\.title, \.count, \.isMuted, \.emphasis, \.padding, \.subtitle]

    func draw(in canvas: Canvas, size: Size) throws {}
}

let handBadge = HandBadge(title: "Inbox", count: 12, isMuted: false, emphasis: .subtle(0.35),
                          padding: HandPadding(top: 4, leading: 10, bottom: 4, trailing: 10), subtitle: "Updated just now")

// A component whose state nests user structs and collections of them.
struct RGBA: Sendable { var red, green, blue, alpha: Double }
struct Stroke: Sendable { var width: Double; var color: RGBA }
struct Theme: Sendable { var fill: RGBA; var stroke: Stroke; var cornerRadius: Double }
struct Series: Sendable { var label: String; var value: Double; var color: RGBA }
enum Marker: Sendable { case none, dot(radius: Double), label(String, size: Double) }
final class Legend: Sendable {
    let title: String
    let columns: Int
    let isVisible: Bool
    init(title: String, columns: Int, isVisible: Bool) {
        self.title = title
        self.columns = columns
        self.isVisible = isVisible
    }
}

/// A user struct nesting another, an array of 8 user structs, a `[String: UserStruct]` of 8, an
/// optional user enum with a payload and a `final class` instance.
struct ChartCard: Rasterizable {
    var theme: Theme
    var series: [Series]
    var seriesByName: [String: Series]
    var marker: Marker?
    var legend: Legend

    func draw(in canvas: Canvas, size: Size) throws {}
}

let chartCard: ChartCard = {
    let palette = (0..<8).map { index in RGBA(red: Double(index) / 8, green: 0.4, blue: 1 - Double(index) / 8, alpha: 1) }
    let series = (0..<8).map { index in Series(label: "Series \(index)", value: Double(index * 13 % 7), color: palette[index]) }
    return ChartCard(theme: Theme(fill: palette[0], stroke: Stroke(width: 1.5, color: palette[7]), cornerRadius: 12),
                     series: series, seriesByName: Dictionary(uniqueKeysWithValues: series.map { ($0.label, $0) }),
                     marker: .label("peak", size: 11), legend: Legend(title: "Revenue", columns: 2, isVisible: true))
}()

/// What a first implementation would do: walk every value with Mirror, describing leaves and
/// types as strings.
func naiveKey<Component: Rasterizable>(_ component: Component) -> Int {
    func walk(_ value: Any, into hasher: inout Hasher) {
        let mirror = Mirror(reflecting: value)
        hasher.combine(String(describing: mirror.subjectType))
        if mirror.children.isEmpty {
            hasher.combine(String(describing: value))
            return
        }
        for child in mirror.children {
            hasher.combine(child.label)
            walk(child.value, into: &hasher)
        }
    }
    var hasher = Hasher()
    hasher.combine(String(reflecting: Component.self))
    for keyPath in Component.stateKeyPaths { walk(component[keyPath: keyPath], into: &hasher) }
    return hasher.finalize()
}

/// Issue 40: an object graph where each level points twice at the one below — 2⁴⁰ paths through
/// 40 objects. Keyed once per object, it costs as much as a list of 40.
final class LatticeLevel: Sendable {
    let left: LatticeLevel?
    let right: LatticeLevel?
    let depth: Int
    init(depth: Int, below: LatticeLevel?) {
        left = below
        right = below
        self.depth = depth
    }
}

struct Lattice: Rasterizable {
    var top: LatticeLevel
    func draw(in canvas: Canvas, size: Size) throws {}
}

let lattice: Lattice = {
    var level: LatticeLevel?
    for depth in 0..<40 { level = LatticeLevel(depth: depth, below: level) }
    return Lattice(top: level!)
}()
