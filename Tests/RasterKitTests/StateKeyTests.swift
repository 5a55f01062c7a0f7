import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Components for key tests; `draw` does nothing.
protocol KeyOnly: Rasterizable {}
extension KeyOnly { func draw(in canvas: Canvas, size: Size) throws {} }

private struct Whole<Value: Sendable>: KeyOnly { var value: Value }

/// The key of a state these tests expect to be keyed (a refusal is a failure of the test).
private func key<C: Rasterizable>(_ component: C, size: Size = Size(10), scale: Double = 1) -> CacheKey {
    Rasterizer().key(for: component, size: size, scale: scale)
}

private struct SameFieldsA: KeyOnly { var x: Int }
private struct SameFieldsB: KeyOnly { var x: Int }

private struct Labelled: KeyOnly {
    var title: String
    var count: Int
    var note: String  // not drawn
    static let stateKeyPaths: [PartialKeyPath<Labelled> & Sendable] = [\.title, \.count]
}

private enum Mood: Sendable, CustomStringConvertible {
    case calm, angry, custom(Int), pair(a: Int, b: String)
    var description: String { "same for every case" }
}

private final class Box: @unchecked Sendable {
    var label: String
    var next: Box?
    init(_ label: String, next: Box? = nil) {
        self.label = label
        self.next = next
    }
}

private class Base: @unchecked Sendable { var inherited = 1 }
private final class Derived: Base, @unchecked Sendable { var own = 2 }

private struct Rounded: StateHashable, Sendable {
    var celsius: Double
    func hashState(into hasher: inout StateHasher) { hasher.combine(Int(celsius.rounded())) }
}

private struct Versioned: KeyOnly {
    var x = 1
    static var renderVersion: Int { 7 }
}

private struct Capped: KeyOnly {
    var minimum = true
    var capInsets: EdgeInsets? { EdgeInsets(all: 4) }
    var usesMinimumFrameForCaps: Bool { minimum }
}

@Suite struct StateKeyTests {
    @Test func propertiesOutsideTheStateDoNotChangeTheKey() {
        let a = Labelled(title: "A", count: 1, note: "x")
        var b = a
        b.note = "y"
        #expect(key(a) == key(b))
        b.count = 2
        #expect(key(a) != key(b))
    }

    @Test func differentTypesWithTheSameFieldsNeverShareAKey() {
        #expect(key(SameFieldsA(x: 1)) != key(SameFieldsB(x: 1)))
        // Also when the values sit behind `Any`.
        #expect(key(Whole<any Sendable>(value: SameFieldsA(x: 1))) != key(Whole<any Sendable>(value: SameFieldsB(x: 1))))
    }

    @Test func dictionariesAndSetsIgnoreInsertionOrder() {
        var forward: [String: Int] = [:], backward: [String: Int] = [:]
        let keys = (0..<50).map { "key\($0)" }
        for (index, name) in keys.enumerated() { forward[name] = index }
        for (index, name) in keys.enumerated().reversed() { backward[name] = index }
        #expect(key(Whole(value: forward)) == key(Whole(value: backward)))
        #expect(key(Whole(value: Set(keys))) == key(Whole(value: Set(keys.reversed()))))
        backward["key3"] = 99
        #expect(key(Whole(value: forward)) != key(Whole(value: backward)))
        // Through Mirror as well (values that are not StateHashable).
        let walked: [String: SameFieldsA] = ["a": SameFieldsA(x: 1), "b": SameFieldsA(x: 2)]
        var reversed: [String: SameFieldsA] = [:]
        reversed["b"] = SameFieldsA(x: 2)
        reversed["a"] = SameFieldsA(x: 1)
        #expect(key(Whole(value: walked)) == key(Whole(value: reversed)))
    }

    @Test func classInstancesAreKeyedByContentNotAddress() {
        let first = Box("same"), second = Box("same")
        #expect(key(Whole(value: first)) == key(Whole(value: second)))
        second.label = "changed"
        #expect(key(Whole(value: first)) != key(Whole(value: second)))
        #expect(key(Whole(value: Derived())) != key(Whole(value: { let d = Derived(); d.inherited = 5; return d }())))
    }

    @Test func cyclesEndAndStillDistinguishStructure() {
        let a = Box("a"), b = Box("b", next: a)
        a.next = b
        let c = Box("a"), d = Box("b", next: c)
        c.next = d
        #expect(key(Whole(value: a)) == key(Whole(value: c)))
        let selfLoop = Box("a")
        selfLoop.next = selfLoop
        #expect(key(Whole(value: a)) != key(Whole(value: selfLoop)))
    }

    @Test func zeroSignsAndNaNsAreCanonical() {
        #expect(key(Whole(value: 0.0)) == key(Whole(value: -0.0)))
        #expect(key(Whole(value: Double.nan)) == key(Whole(value: -Double.nan)))
        #expect(key(Whole(value: Double.nan)) == key(Whole(value: Double.signalingNaN)))
        #expect(key(Whole(value: Float(-0.0))) == key(Whole(value: Float(0))))
        #expect(key(Whole(value: Color(red: -0.0, green: 0, blue: 0))) == key(Whole(value: Color.black)))
        #expect(key(Whole(value: 1.0)) != key(Whole(value: 1.0000000001)))
    }

    @Test func enumsKeyByCaseNameAndPayload() {
        let moods: [Mood] = [.calm, .angry, .custom(1), .custom(2), .pair(a: 1, b: "x"), .pair(a: 1, b: "y")]
        let keys = Set(moods.map { key(Whole(value: $0)) })
        #expect(keys.count == moods.count)  // despite the identical `description`
        #expect(key(Whole(value: Mood.custom(1))) == key(Whole(value: Mood.custom(1))))
    }

    @Test func tuplesKeyByLabelsAndValues() {
        #expect(key(Whole(value: (x: 1, y: 2))) != key(Whole(value: (a: 1, b: 2))))
        #expect(key(Whole(value: (x: 1, y: 2))) != key(Whole(value: (x: 2, y: 1))))
        #expect(key(Whole(value: (x: 1, y: 2))) == key(Whole(value: (x: 1, y: 2))))
    }

    @Test func optionalsArraysAndNesting() {
        #expect(key(Whole<String?>(value: nil)) != key(Whole<String?>(value: "")))
        #expect(key(Whole(value: [1, 2])) != key(Whole(value: [2, 1])))
        #expect(key(Whole(value: [[1], [2]])) != key(Whole(value: [[1, 2]])))
        #expect(key(Whole(value: ["a", "bc"])) != key(Whole(value: ["ab", "c"])))
        #expect(key(Whole(value: [SameFieldsA(x: 1)])) != key(Whole(value: [SameFieldsA(x: 2)])))
    }

    @Test func canonicallyEquivalentStringsShareAKey() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        #expect(key(Whole(value: precomposed)) == key(Whole(value: decomposed)))
        #expect(key(Whole(value: "cafe")) != key(Whole(value: precomposed)))
    }

    @Test func everyNumericWidthIsDistinct() {
        let values: [any Sendable] = [Int(1), Int8(1), Int16(1), Int32(1), Int64(1), UInt(1), UInt8(1), UInt16(1),
                                      UInt32(1), UInt64(1), Float(1), Double(1), true]
        let keys = Set(values.map { key(Whole<any Sendable>(value: $0)) })
        #expect(keys.count == values.count)
    }

    @Test func foundationValues() {
        #expect(key(Whole(value: Date(timeIntervalSince1970: 1))) != key(Whole(value: Date(timeIntervalSince1970: 2))))
        #expect(key(Whole(value: URL(fileURLWithPath: "/a"))) != key(Whole(value: URL(fileURLWithPath: "/b"))))
        #expect(key(Whole(value: Data([1, 2]))) != key(Whole(value: Data([1, 2, 0]))))
        #expect(key(Whole(value: UUID())) != key(Whole(value: UUID())))
    }

    @Test func stateHashableWritesItsOwnMeaning() {
        #expect(key(Whole(value: Rounded(celsius: 20.2))) == key(Whole(value: Rounded(celsius: 20.4))))
        #expect(key(Whole(value: Rounded(celsius: 20.2))) != key(Whole(value: Rounded(celsius: 20.6))))
    }

    @Test func sizeScaleAndVersionArePartOfTheKey() {
        let a = SameFieldsA(x: 1)
        #expect(key(a, size: Size(10)) != key(a, size: Size(11)))
        #expect(key(a, scale: 1) != key(a, scale: 2))
        #expect(key(Versioned()).renderVersion == 7)
        #expect(key(Versioned()) != key(SameFieldsA(x: 1)))
    }

    @Test func minimumFrameNineSliceKeysIgnoreSize() {
        #expect(key(Capped(), size: Size(20)) == key(Capped(), size: Size(300)))
        #expect(key(Capped(), size: Size(20)).size == nil)
        #expect(key(Capped(minimum: false), size: Size(20)) != key(Capped(minimum: false), size: Size(300)))
        #expect(key(Capped(), size: Size(20)) != key(Capped(minimum: false), size: Size(20)))
    }

    @Test func descriptionsNameTheTypeEachKeyPathAndItsValue() {
        let described = key(Labelled(title: "Hello", count: 3, note: "n"), size: Size(width: 120, height: 32), scale: 2)
        #expect(described.description.contains("Labelled"))
        #expect(described.stateDescription == "title: Hello, count: 3")
        #expect(described.description.contains("120×32 pt @2x"))
        #expect(described.digest.count == 32)
        #expect(described.typeName.contains("Labelled"))
    }

    @Test func nestedComputedAndClassKeyPathsReadTheirValues() {
        let base = Paths(title: "a", style: .init(tint: .black, weight: 4), padding: (1, 2))
        var other = base
        other.ignored = 9
        other.padding.x = 7
        #expect(key(base) == key(other))
        other.title = "A"  // the same `shout`
        #expect(key(base) == key(other))
        for change in [{ (p: inout Paths) in p.title = "b" }, { $0.style.weight = 5 }, { $0.padding.y = 3 }, { $0.style.tint = .white }] {
            var changed = base
            change(&changed)
            #expect(key(base) != key(changed))
        }
        #expect(key(base).stateDescription.hasPrefix("style.weight: 4, <computed String>: A, padding.y: 2.0"), "\(key(base).stateDescription)")

        #expect(key(ClassComponent(count: 1, label: nil)) == key(ClassComponent(count: 1, label: nil)))
        #expect(key(ClassComponent(count: 1, label: nil)) != key(ClassComponent(count: 2, label: nil)))
        #expect(key(ClassComponent(count: 1, label: nil)) != key(ClassComponent(count: 1, label: "")))
    }

    @Test func valuesNestingPastTheLimitAreRefused() {
        indirect enum Chain: Sendable { case end, link(Chain) }
        var chain = Chain.end
        for _ in 0..<1_000 { chain = .link(chain) }
        // Must throw, not overflow the stack or cut the value short.
        #expect(throws: StateKeyError.self) { try Rasterizer().cacheKey(for: Whole(value: chain), size: Size(10), scale: 1) }
    }
}

/// Key paths of every kind a component may declare: stored, nested, computed, and on a class.
private struct Paths: KeyOnly {
    struct Style: Sendable { var tint: Color; var weight: Int }
    var title: String
    var style: Style
    var padding: (x: Double, y: Double)
    var ignored = 0
    var shout: String { title.uppercased() }
    static let stateKeyPaths: [PartialKeyPath<Paths> & Sendable] = [\.style.weight, \.shout, \.padding.y, \.style]
}

private final class ClassComponent: KeyOnly, @unchecked Sendable {
    var count: Int
    var label: String?
    init(count: Int, label: String?) { self.count = count; self.label = label }
    static let stateKeyPaths: [PartialKeyPath<ClassComponent> & Sendable] = [\.count, \.label]
}

@Suite struct TypeIdentityTests {
    @Test func localAndPrivateTypesGetNamesWithoutAddresses() {
        struct LocalType {}
        let local = TypeIdentity.stableName(of: LocalType.self)
        #expect(!local.contains("$"), "\(local)")
        #expect(local.hasSuffix("LocalType"))
        let privateName = TypeIdentity.stableName(of: SameFieldsA.self)
        #expect(!privateName.contains("$") && privateName.contains("SameFieldsA"), "\(privateName)")
        #expect(TypeIdentity.stableName(of: [String: Int?].self) == "Swift.Dictionary<Swift.String, Swift.Optional<Swift.Int>>")
    }

    @Test func twoLocalTypesWithOneNameStayDistinct() {
        func first() -> Any.Type { struct Twin {}; return Twin.self }
        func second() -> Any.Type { struct Twin {}; return Twin.self }
        #expect(TypeIdentity.stableName(of: first()) != TypeIdentity.stableName(of: second()))
    }
}
