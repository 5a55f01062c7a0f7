import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Compiled key plans read values from memory with the runtime's metadata; for every kind of
/// value they must write exactly what the documented stream says (``ReferenceKeyWalker`` writes
/// it with `Mirror`), and different values must give different digests.
@Suite struct KeyPlanTests {
    // Types a user would write.
    enum Plain: Sendable { case north, east, south, west }
    enum SinglePayload: Sendable { case empty, value(Int), other }
    enum MultiPayload: Sendable { case none, count(Int), label(String), both(Int, String) }
    enum Labelled: Sendable { case point(x: Double, y: Double), origin }
    enum Existential: @unchecked Sendable { case sendable(any Sendable), anything(Any), nothing }
    enum Generic<Value: Sendable>: Sendable { case some(Value), nothing, pair(Value, Value) }
    enum ObjectPayload: Sendable { case object(Token), pair(Token, Token?) }
    enum Raw: String, Sendable { case first = "one", second = "two" }
    enum Nested: Sendable { case inner(MultiPayload), optional(SinglePayload?), list([Plain]) }
    enum PartlyIndirect: Sendable {
        case leaf(Int)
        indirect case node(PartlyIndirect, PartlyIndirect)
    }
    indirect enum WhollyIndirect: Sendable { case leaf(Int), node(WhollyIndirect), pair(UInt8, String) }
    enum Custom: CustomReflectable, Sendable {
        case a(Int)
        var customMirror: Mirror { Mirror(self, children: ["shown": 0]) }
    }
    struct Insets: Sendable { var top, left, bottom, right: Double }
    struct Style: Sendable { var insets: Insets; var weight: Int8; var name: String?; var corner: Float }
    struct Wrapper<Value: Sendable>: Sendable { var value: Value; var values: [Value]; var byName: [String: Value] }
    struct WithTuple: Sendable { var pair: (x: Int, label: String); var triple: (Bool, Double, Plain) }
    struct Opaque: @unchecked Sendable {
        var action: @Sendable () -> Void
        var type: Any.Type
        var thin: Int.Type
        var pointer: UnsafeRawPointer?
    }
    struct Tree: Sendable { var name: String; var children: [Tree] }

    final class Token: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }
    class Shape: @unchecked Sendable {
        var sides: Int
        init(sides: Int) { self.sides = sides }
    }
    final class Square: Shape, @unchecked Sendable {
        var side: Double
        init(side: Double) {
            self.side = side
            super.init(sides: 4)
        }
    }
    final class Node: @unchecked Sendable {
        var label: String
        var next: Node?
        weak var parent: Node?
        init(_ label: String, next: Node? = nil) {
            self.label = label
            self.next = next
        }
    }
    final class References: @unchecked Sendable {
        weak var weakly: Token?
        unowned var owner: Token
        unowned var optionalOwner: Token?
        unowned(unsafe) var raw: Token
        lazy var computedOnce: Int = 42
        init(_ token: Token) {
            owner = token
            optionalOwner = token
            raw = token
        }
    }
    struct ValueReferences: @unchecked Sendable {
        weak var weakly: Token?
        unowned var owner: Token
    }
    final class CustomObject: CustomReflectable, @unchecked Sendable {
        var hidden = 1
        var customMirror: Mirror { Mirror(self, children: ["visible": "yes"], displayStyle: .class) }
    }

    private func plan(_ value: Any) -> StableDigest {
        var hasher = StateHasher()
        KeyPlans.write(dynamic: value, into: &hasher, depth: 0)
        return hasher.digest
    }

    /// The plan's digest equals the reference walk's, for `value` seen through its own type.
    private func expectSameAsReference(_ values: [Any], sourceLocation: SourceLocation = #_sourceLocation) {
        for value in values {
            #expect(plan(value) == ReferenceKeyWalker.digest(value), "\(type(of: value)): \(value)", sourceLocation: sourceLocation)
        }
        // And different values give different digests.
        let digests = values.map(plan)
        #expect(Set(digests).count == digests.count, "two values of \(values.map { "\($0)" }) share a digest", sourceLocation: sourceLocation)
    }

    @Test func enumsOfEveryShape() {
        expectSameAsReference([Plain.north, .east, .south, .west])
        expectSameAsReference([Raw.first, .second])
        expectSameAsReference([SinglePayload.empty, .value(0), .value(-7), .value(.max), .other])
        expectSameAsReference([MultiPayload.none, .count(3), .label(""), .label("a longer string than fits inline"), .both(1, "x")])
        expectSameAsReference([Labelled.point(x: 1.5, y: -2), .origin])
        expectSameAsReference([Generic<String>.some("a"), .nothing, .pair("a", "b")])
        expectSameAsReference([Generic<[Int]>.pair([1], [2, 3]), .pair([1, 2], [3])])
        expectSameAsReference([Generic<Int?>.some(nil), .some(0)])
        expectSameAsReference([Generic<MultiPayload>.some(.label("x")), .some(.count(0))])
        let token = Token("t")
        expectSameAsReference([ObjectPayload.object(token), .pair(token, nil), .pair(token, Token("u"))])
        expectSameAsReference([Nested.inner(.both(2, "y")), .optional(nil), .optional(.value(4)), .list([.north, .west])])
    }

    @Test func indirectEnumsAreReadInsideTheirBoxes() {
        expectSameAsReference([PartlyIndirect.leaf(1), .node(.leaf(1), .leaf(2)), .node(.leaf(2), .leaf(1)),
                               .node(.node(.leaf(1), .leaf(2)), .leaf(3))])
        expectSameAsReference([WhollyIndirect.leaf(1), .node(.leaf(1)), .node(.node(.leaf(1))), .pair(7, "x"), .pair(7, "y")])
    }

    @Test func structsTuplesAndGenerics() {
        let insets = Insets(top: 1, left: 2, bottom: 3, right: 4)
        expectSameAsReference([insets, Insets(top: 4, left: 3, bottom: 2, right: 1), Insets(top: 1, left: 2, bottom: 3, right: 5)])
        expectSameAsReference([Style(insets: insets, weight: 3, name: nil, corner: 2),
                               Style(insets: insets, weight: 3, name: "", corner: 2),
                               Style(insets: insets, weight: -3, name: nil, corner: 2.5)])
        expectSameAsReference([Wrapper(value: insets, values: [insets, insets], byName: ["a": insets]),
                               Wrapper(value: insets, values: [insets], byName: ["a": insets, "b": insets]),
                               Wrapper(value: insets, values: [], byName: [:])])
        expectSameAsReference([Wrapper(value: Plain.east, values: [.west], byName: ["x": .north]),
                               Wrapper(value: Plain.east, values: [.west], byName: ["y": .north])])
        expectSameAsReference([WithTuple(pair: (1, "a"), triple: (true, 0.5, .east)),
                               WithTuple(pair: (1, "a"), triple: (false, 0.5, .east))])
        expectSameAsReference([(x: 1, y: 2), (a: 1, b: 2), (x: 2, y: 1)])
        expectSameAsReference([Tree(name: "root", children: [Tree(name: "a", children: []), Tree(name: "b", children: [Tree(name: "c", children: [])])]),
                               Tree(name: "root", children: [Tree(name: "a", children: [Tree(name: "b", children: [])])])])
    }

    @Test func collectionsOfUserTypes() {
        let a = Insets(top: 1, left: 0, bottom: 0, right: 0), b = Insets(top: 2, left: 0, bottom: 0, right: 0)
        expectSameAsReference([[a, b], [b, a], [a]])
        expectSameAsReference([ContiguousArray([a, b]), ContiguousArray([b])])
        expectSameAsReference([[a, b, a][1...], [a, b, a][0...1]])
        expectSameAsReference([Set([Raw.first]), Set([Raw.second]), Set([Raw.first, .second])])
        expectSameAsReference([["a": a, "b": b], ["a": b, "b": a], ["a": a]])
        expectSameAsReference([[Plain.east: [a]], [Plain.west: [a]]])
        expectSameAsReference([Optional(a) as Any, Optional<Insets>.none as Any])
        // Insertion order never matters.
        var forward: [String: Insets] = [:], backward: [String: Insets] = [:]
        for index in 0..<40 { forward["k\(index)"] = a }
        for index in (0..<40).reversed() { backward["k\(index)"] = a }
        #expect(plan(forward) == plan(backward))
    }

    @Test func objectsByContentWithCyclesAndSubclasses() {
        expectSameAsReference([Token("a"), Token("b")])
        #expect(plan(Token("a")) == plan(Token("a")))
        expectSameAsReference([Square(side: 2), Square(side: 3), Shape(sides: 4), Shape(sides: 3)])
        // A subclass instance behind its base class is written as the subclass.
        let shapes: [Shape] = [Square(side: 2), Shape(sides: 4)]
        #expect(plan(shapes) == ReferenceKeyWalker.digest(shapes))
        let a = Node("a"), b = Node("b", next: a)
        a.next = b
        b.parent = a
        let loop = Node("a")
        loop.next = loop
        expectSameAsReference([a, loop, Node("a")])
        let c = Node("a"), d = Node("b", next: c)
        c.next = d
        d.parent = c
        #expect(plan(a) == plan(c))
    }

    @Test func weakUnownedAndLazyStorage() {
        let token = Token("owner")
        let references = References(token)
        let before = plan(references)
        #expect(before == ReferenceKeyWalker.digest(references))
        references.weakly = token
        #expect(plan(references) == ReferenceKeyWalker.digest(references))
        #expect(plan(references) != before)
        _ = references.computedOnce  // fills the lazy storage
        #expect(plan(references) == ReferenceKeyWalker.digest(references))
        let other = Token("other")
        let values = [ValueReferences(weakly: nil, owner: token), ValueReferences(weakly: token, owner: token),
                      ValueReferences(weakly: nil, owner: other)]
        expectSameAsReference(values)
    }

    @Test func existentialsWriteTheirDynamicTypeFirst() {
        expectSameAsReference([42 as Any, "42" as Any, Plain.east as Any, Insets(top: 0, left: 0, bottom: 0, right: 0) as Any])
        expectSameAsReference([Int.self as Any.Type, String.self as Any.Type, Insets.self as Any.Type])
        // An existential payload: the case, then the dynamic type, then the value.
        var expected = StateHasher()
        expected.write(tag: .existential)
        expected.write(TypeIdentity.stableID(of: Existential.self))
        expected.write(tag: .enumeration)
        expected.write(TypeIdentity.caseID(of: Existential.self, case: "sendable"))
        expected.write(tag: .existential)
        expected.write(TypeIdentity.stableID(of: Int.self))
        expected.write(tag: .int)
        expected.write(42)
        #expect(plan(Existential.sendable(42)) == expected.digest)
        let values: [Existential] = [.sendable(42), .sendable(42 as Int8), .sendable("42"), .sendable([Int]()), .sendable([String]()),
                                     .anything(Optional<Int>.none as Any), .anything(Optional<String>.none as Any), .nothing]
        #expect(Set(values.map { plan($0) }).count == values.count)
    }

    @Test func closuresAndPointersAreRefused() {
        for value in [Opaque(action: {}, type: Int.self, thin: Int.self, pointer: nil) as Any,
                      UnsafeRawPointer(bitPattern: 16) as Any, { @Sendable in } as Any] {
            var hasher = StateHasher()
            KeyPlans.write(dynamic: value, into: &hasher, depth: 0)
            #expect(hasher.fault != nil, "\(type(of: value)) was keyed")
        }
    }

    @Test func customMirrorsAreNotWhatIsKeyed() {
        #expect(plan(Custom.a(1)) != plan(Custom.a(2)))  // its mirror shows the same child for both
        expectSameAsReference([CustomObject()])
        expectSameAsReference([1..<3, 1..<4])
        expectSameAsReference([Locale(identifier: "en_US"), Locale(identifier: "fr_FR")])
    }

    @Test func valuesNestingPastTheLimitAreRefused() {
        var chain = WhollyIndirect.leaf(0)
        for _ in 0..<1_000 { chain = .node(chain) }
        var hasher = StateHasher()
        KeyPlans.write(chain, into: &hasher)  // must return, not overflow the stack
        #expect(hasher.fault?.kind == .tooDeep)
        var list: [Any] = []
        for _ in 0..<400 { list = [list] }
        var listHasher = StateHasher()
        KeyPlans.write(list, into: &listHasher)
        #expect(listHasher.fault?.kind == .tooDeep)
    }

    @Test func payloadsAreCopiedNeitherLeakedNorTaken() throws {
        weak var released: Token?
        do {
            let token = Token("kept")
            released = token
            let value = ObjectPayload.pair(token, token)
            let indirect = PartlyIndirect.node(.leaf(1), .leaf(2))
            for _ in 0..<100 {
                _ = plan(value)
                _ = plan(indirect)
                _ = plan(References(token))
            }
            guard case .pair(let first, let second) = value else { Issue.record("case changed"); return }
            #expect(first.name == "kept" && second === first)
        }
        #expect(released == nil)  // every copy made was released
    }
}

/// Plans are made the first time a type is met, from any thread; many threads meeting many new
/// types at once must each get complete plans and the right keys.
@Suite struct KeyPlanRaceTests {
    struct Level<Inner: Sendable>: Sendable {
        var inner: Inner
        var depth: Int
        var labels: [String: Inner]
    }
    enum Either<Left: Sendable, Right: Sendable>: Sendable { case left(Left), right(Right), neither }
    final class Holder<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Calls `body` with a value of a type made at run time: `depth` levels of generic wrappers
    /// around `base`, which differ with `seed`, so no two calls share all their types.
    static func nested<Base: Sendable>(_ base: Base, depth: Int, seed: Int, _ body: (any Sendable) -> Void) {
        guard depth > 0 else { return body(base) }
        switch (depth + seed) % 3 {
        case 0: nested(Level(inner: base, depth: depth, labels: ["\(seed)": base]), depth: depth - 1, seed: seed, body)
        case 1: nested(Either<Base, Int>.left(base), depth: depth - 1, seed: seed, body)
        default: nested(Holder(base), depth: depth - 1, seed: seed, body)
        }
    }

    @Test func manyThreadsKeyingNewTypesAtOnceGetTheReferenceKeys() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var mismatches = 0
                    for depth in 1...12 {
                        Self.nested("seed \(task)", depth: depth, seed: task % 5) { value in
                            var hasher = StateHasher()
                            KeyPlans.write(dynamic: value, into: &hasher, depth: 0)
                            if hasher.digest != ReferenceKeyWalker.digest(value) { mismatches += 1 }
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func manyThreadsKeyingOneComponentGetOneKey() async {
        struct Fresh: Rasterizable {
            var level: Level<Either<String, Double>>
            func draw(in canvas: Canvas, size: Size) throws {}
        }
        let component = Fresh(level: Level(inner: .right(2.5), depth: 1, labels: ["a": .left("b")]))
        let digests = await withTaskGroup(of: StableDigest.self) { group in
            for _ in 0..<32 { group.addTask { Rasterizer().key(for: component, size: Size(10), scale: 2).value } }
            return await group.reduce(into: Set<StableDigest>()) { $0.insert($1) }
        }
        #expect(digests.count == 1)
    }
}
