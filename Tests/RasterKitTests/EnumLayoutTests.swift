import Foundation
import Testing
@testable import RasterKit

/// ``EnumLayout`` reads cases and payloads from runtime metadata instead of `Mirror`; for every
/// shape of enum it accepts, it must see exactly what `Mirror` sees, or keys would change.
@Suite struct EnumLayoutTests {
    enum Plain: Sendable { case north, east, south, west }
    enum SinglePayload: Sendable { case empty, value(Int), other }
    enum MultiPayload: Sendable { case none, count(Int), label(String), both(Int, String) }
    enum Labelled: Sendable { case point(x: Double, y: Double), origin }
    enum Existential: @unchecked Sendable { case sendable(any Sendable), anything(Any), nothing }
    enum Generic<Value: Sendable>: Sendable { case some(Value), nothing, pair(Value, Value) }
    enum ObjectPayload: Sendable { case object(Token), pair(Token, Token?) }
    enum Raw: String, Sendable { case first = "one", second = "two" }
    enum Nested: Sendable { case inner(MultiPayload), optional(SinglePayload?), list([Plain]) }
    enum Colored: Sendable { case solid(Color), clear }
    enum PartlyIndirect: Sendable {
        case leaf(Int)
        indirect case node(PartlyIndirect, PartlyIndirect)
    }
    indirect enum WhollyIndirect: Sendable { case leaf(Int), node(WhollyIndirect) }
    enum Custom: CustomReflectable, Sendable {
        case a(Int)
        var customMirror: Mirror { Mirror(self, children: ["shown": 0]) }
    }

    final class Token: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// The digest of what the walker writes for a payload, or nil for none.
    private func digest(_ payload: Any?) -> StableDigest? {
        guard let payload else { return nil }
        var hasher = StateHasher()
        StateWalker.walk(payload, into: &hasher)
        return hasher.digest
    }

    /// Checks that the layout of `value`'s type names its case and hands over its payload as `Mirror` does.
    private func expectSameAsMirror(_ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let layout = EnumLayout.make(for: type(of: value)) else {
            Issue.record("no layout for \(type(of: value))", sourceLocation: sourceLocation)
            return
        }
        guard let (enumCase, payload) = layout.decompose(value) else {
            Issue.record("no case for \(value)", sourceLocation: sourceLocation)
            return
        }
        let mirror = Mirror(reflecting: value)
        if Mirror(reflecting: value).displayStyle == .enum {
            #expect(enumCase.name == EnumCase.name(of: value), sourceLocation: sourceLocation)
        }
        let mirrored = mirror.children.first?.value
        #expect((payload == nil) == (mirrored == nil), "\(value)", sourceLocation: sourceLocation)
        #expect(digest(payload) == digest(mirrored), "\(value)", sourceLocation: sourceLocation)
        if let payload, let mirrored {
            #expect(type(of: payload) == type(of: mirrored), sourceLocation: sourceLocation)
        }
    }

    @Test func casesWithoutPayloads() {
        for value in [Plain.north, .east, .south, .west] { expectSameAsMirror(value) }
        for value in [Raw.first, .second] { expectSameAsMirror(value) }
    }

    @Test func singleAndMultiPayloadEnums() {
        for value in [SinglePayload.empty, .value(0), .value(-7), .value(.max), .other] { expectSameAsMirror(value) }
        for value in [MultiPayload.none, .count(3), .label(""), .label("a longer string than fits inline"), .both(1, "x")] {
            expectSameAsMirror(value)
        }
        for value in [Labelled.point(x: 1.5, y: -0.0), .origin] { expectSameAsMirror(value) }
        for value in [Colored.solid(Color(red: 0.1, green: 0.2, blue: 0.3)), .clear] { expectSameAsMirror(value) }
    }

    @Test func existentialPayloadsKeepTheirDynamicValue() {
        for value in [Existential.sendable(42), .sendable("text"), .sendable(Plain.east), .anything([1, 2]), .anything(Optional<Int>.none as Any), .nothing] {
            expectSameAsMirror(value)
        }
    }

    @Test func genericEnums() {
        expectSameAsMirror(Generic<String>.some("a"))
        expectSameAsMirror(Generic<String>.nothing)
        expectSameAsMirror(Generic<[Int]>.pair([1], [2, 3]))
        expectSameAsMirror(Generic<Int?>.some(nil))
        expectSameAsMirror(Generic<MultiPayload>.some(.label("x")))
        expectSameAsMirror(Generic<any Sendable>.some(3.5))
    }

    @Test func objectsAndNesting() {
        let token = Token("t")
        expectSameAsMirror(ObjectPayload.object(token))
        expectSameAsMirror(ObjectPayload.pair(token, nil))
        expectSameAsMirror(ObjectPayload.pair(token, Token("u")))
        expectSameAsMirror(Nested.inner(.both(2, "y")))
        expectSameAsMirror(Nested.optional(nil))
        expectSameAsMirror(Nested.optional(.value(4)))
        expectSameAsMirror(Nested.list([.north, .west]))
    }

    @Test func optionals() {
        expectSameAsMirror(Optional(3) as Any)
        expectSameAsMirror(Optional<Int>.none as Any)
        expectSameAsMirror(Optional(Optional<String>.none) as Any)
        expectSameAsMirror(Optional(MultiPayload.count(1)) as Any)
        expectSameAsMirror(Optional<MultiPayload>.none as Any)
        expectSameAsMirror(Optional(Token("t")) as Any)
    }

    @Test func payloadsAreCopiedNeitherLeakedNorTaken() throws {
        weak var released: Token?
        do {
            let token = Token("kept")
            released = token
            let value = ObjectPayload.pair(token, token)
            let layout = try #require(EnumLayout.make(for: ObjectPayload.self))
            for _ in 0..<100 { _ = layout.decompose(value) }
            guard case .pair(let first, let second) = value else { Issue.record("case changed"); return }
            #expect(first.name == "kept" && second === first)
        }
        #expect(released == nil)  // every copy made was released
    }

    @Test func shapesItCannotReadFallBackToMirror() {
        #expect(EnumLayout.make(for: PartlyIndirect.self) == nil)
        #expect(EnumLayout.make(for: WhollyIndirect.self) == nil)
        #expect(EnumLayout.make(for: Custom.self) == nil)
        #expect(EnumLayout.make(for: Int.self) == nil)
        #expect(EnumLayout.make(for: Color.self) == nil)
        #expect(EnumLayout.make(for: Token.self) == nil)
        // The walker still keys them, by case and payload.
        func key(_ value: Any) -> StableDigest {
            var hasher = StateHasher()
            StateWalker.walk(value, into: &hasher)
            return hasher.digest
        }
        #expect(key(PartlyIndirect.node(.leaf(1), .leaf(2))) != key(PartlyIndirect.node(.leaf(2), .leaf(1))))
        #expect(key(WhollyIndirect.node(.leaf(1))) == key(WhollyIndirect.node(.leaf(1))))
        #expect(key(Custom.a(1)) == key(Custom.a(2)))  // its mirror shows the same child for both
    }

    @Test func manyThreadsShareOneLayout() async {
        let layout = EnumLayout.make(for: MultiPayload.self)!
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    (0..<500).allSatisfy { step in
                        let (enumCase, payload) = layout.decompose(MultiPayload.label("\(index)-\(step)"))!
                        return enumCase.name == "label" && payload as? String == "\(index)-\(step)"
                    }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
