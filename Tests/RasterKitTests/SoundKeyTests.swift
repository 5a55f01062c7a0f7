import Foundation
import Observation
import Synchronization
import Testing
@testable import RasterKit

/// A value that is not `Sendable`, held by a test component anyway (its key is what is tested).
private struct Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A component holding one value of any type, counting its draws.
private struct Holding<Value: Sendable>: Rasterizable {
    var value: Value
    let draws: Counter
    // The counter holds a lock, which is not state (and would be refused).
    static var stateKeyPaths: [PartialKeyPath<Holding> & Sendable] { [\.value] }
    func draw(in canvas: Canvas, size: Size) throws { draws.increment() }
}

/// Keys must never be shared by two different states: each pair of values below is rendered
/// through one rasterizer, and the second must be drawn again (or refused), never served the
/// first one's image.
@Suite struct SoundKeyTests {
    /// Renders each value in turn through one rasterizer and expects one draw per value: a value
    /// served another's image would have been drawn less.
    private func expectDrawnApart<Value: Sendable>(_ values: [Value], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rasterizer = Rasterizer()
        let draws = Counter()
        for value in values {
            _ = try rasterizer.image(for: Holding(value: value, draws: draws), size: Size(4), scale: 1)
        }
        #expect(draws.count == values.count, "\(Value.self): \(values.count) states, \(draws.count) draws", sourceLocation: sourceLocation)
        // And the same values again are all served from memory.
        for value in values { _ = try rasterizer.image(for: Holding(value: value, draws: draws), size: Size(4), scale: 1) }
        #expect(draws.count == values.count, "\(Value.self): a state was drawn twice", sourceLocation: sourceLocation)
    }

    @Test func builtinBackedStandardValues() throws {
        try expectDrawnApart([Int128(1), Int128(1) << 100, -1, Int128.max, Int128.min])
        try expectDrawnApart([UInt128(1), UInt128(1) << 64, UInt128.max])
        try expectDrawnApart([Float16(1), Float16(1.5), -Float16(1), .infinity])
        #if arch(x86_64)
        try expectDrawnApart([Float80(1), Float80(1) + Float80.ulpOfOne, -1])
        #endif
        try expectDrawnApart([SIMD4<Float>(1, 2, 3, 4), SIMD4<Float>(1, 2, 3, 5), SIMD4<Float>(0, 0, 0, 0)])
        try expectDrawnApart([SIMD2<Double>(1, 2), SIMD2<Double>(2, 1)])
        try expectDrawnApart([SIMD8<Int16>(repeating: 1), SIMD8<Int16>(1, 1, 1, 1, 1, 1, 1, 2)])
        try expectDrawnApart([SIMD3<UInt8>(1, 2, 3), SIMD3<UInt8>(1, 2, 4)])
        try expectDrawnApart([CGFloat(1), CGFloat(2.5), CGFloat(-3)])
        try expectDrawnApart(["one" as StaticString, "two", ""])
        try expectDrawnApart([Duration.seconds(1), .milliseconds(1), .seconds(-1)])
        try expectDrawnApart(["a" as Unicode.Scalar, "b", "é"])
        try expectDrawnApart(["a" as Character, "🇫🇷", "🇩🇪"])
    }

    @Test func zerosAndNaNsOfEveryFloatAreCanonical() throws {
        func key<Value: Sendable>(_ value: Value) throws -> CacheKey {
            try CacheKey.make(for: Holding(value: value, draws: Counter()), size: Size(4), scale: 1)
        }
        #expect(try key(Float16(0)) == key(-Float16(0)))
        #expect(try key(Float16.nan) == key(-Float16.nan))
        #expect(try key(SIMD2<Float>(0, .nan)) == key(SIMD2<Float>(-0.0, -.nan)))
        #if arch(x86_64)
        #expect(try key(Float80(0)) == key(-Float80(0)))
        #expect(try key(Float80.nan) == key(Float80.signalingNaN))
        #endif
    }

    @Test func foundationValuesWithOpaqueStorageOrCustomMirrors() throws {
        try expectDrawnApart([CharacterSet(charactersIn: "ab"), CharacterSet(charactersIn: "ac"), .decimalDigits, .letters])
        try expectDrawnApart([IndexSet([1, 2]), IndexSet([1, 3]), IndexSet(integersIn: 0..<100)])
        // Two units with one symbol and different converters.
        let yard = UnitLength(symbol: "u", converter: UnitConverterLinear(coefficient: 0.9144))
        let foot = UnitLength(symbol: "u", converter: UnitConverterLinear(coefficient: 0.3048))
        try expectDrawnApart([Measurement(value: 1, unit: yard), Measurement(value: 1, unit: foot),
                              Measurement(value: 2, unit: foot), Measurement(value: 1, unit: UnitLength.meters)])
        let celsius = Measurement(value: 20, unit: UnitTemperature.celsius)
        try expectDrawnApart([celsius, Measurement(value: 20, unit: UnitTemperature.fahrenheit)])
        try expectDrawnApart([TimeZone(identifier: "Europe/Paris")!, TimeZone(identifier: "Europe/Berlin")!, TimeZone(secondsFromGMT: 3600)!])
        try expectDrawnApart([Locale(identifier: "en_US"), Locale(identifier: "en_GB"), Locale(identifier: "fr_FR")])
        var monday = Calendar(identifier: .gregorian)
        monday.timeZone = TimeZone(identifier: "UTC")!
        var sunday = monday
        sunday.firstWeekday = 1
        monday.firstWeekday = 2
        try expectDrawnApart([monday, sunday, Calendar(identifier: .iso8601), Calendar(identifier: .buddhist)])
        try expectDrawnApart([Decimal(string: "1.5")!, Decimal(string: "1.25")!, Decimal(string: "-1.5")!])
        try expectDrawnApart([DateComponents(year: 2026), DateComponents(year: 2026, month: 1), DateComponents(month: 2026)])
        try expectDrawnApart([URLComponents(string: "https://a/b")!, URLComponents(string: "https://a/c")!])
        try expectDrawnApart([1..<3, 1..<4, 0..<3])
        try expectDrawnApart([PersonNameComponents(givenName: "Ada"), PersonNameComponents(familyName: "Ada")])
    }

    @Test func attributedStringsByCharactersAndRuns() throws {
        let plain = AttributedString("Hello")
        var linked = plain
        linked.link = URL(string: "https://example.com")
        var partly = plain
        partly[partly.startIndex..<partly.index(partly.startIndex, offsetByCharacters: 2)].link = URL(string: "https://example.com")
        var other = plain
        other.link = URL(string: "https://example.org")
        try expectDrawnApart([plain, linked, partly, other, AttributedString("Hellp")])
        // Built another way, the same characters and attributes are the same state.
        var built = AttributedString("He")
        built.link = URL(string: "https://example.com")
        built += AttributedString("llo")
        let keyOf = { (text: AttributedString) in try CacheKey.make(for: Holding(value: text, draws: Counter()), size: Size(4), scale: 1) }
        #expect(try keyOf(built) == keyOf(partly))
    }

    @Test func existentialsWriteTheirDynamicType() throws {
        try expectDrawnApart([[Int]() as any Sendable, [String]() as any Sendable, [Double]() as any Sendable])
        try expectDrawnApart(["abc" as any Sendable, "xabc".dropFirst() as any Sendable])
        try expectDrawnApart([Int?.none as any Sendable, String?.none as any Sendable])
        try expectDrawnApart([Set<Int>() as any Sendable, [Int: Int]() as any Sendable, [String: Int]() as any Sendable])
        try expectDrawnApart([1 as Int as any Sendable, 1 as Int8 as any Sendable, 1 as UInt as any Sendable, 1.0 as Double as any Sendable])
        try expectDrawnApart([[[Int]()] as [any Sendable], [[String]()] as [any Sendable]])
    }

    /// Standard and Foundation values of every other shape: each is keyed (and two values of it
    /// apart) or refused with a StateKeyError; none crashes.
    @Test func otherStandardValuesAreKeyedOrRefused() throws {
        func outcome<Value: Sendable>(_ first: Value, _ second: Value) -> String {
            let rasterizer = Rasterizer()
            let draws = Counter()
            do {
                _ = try rasterizer.image(for: Holding(value: first, draws: draws), size: Size(4), scale: 1)
                _ = try rasterizer.image(for: Holding(value: second, draws: draws), size: Size(4), scale: 1)
                return draws.count == 2 ? "keyed" : "shared"
            } catch let error as StateKeyError {
                return "refused: \(error.reason)"
            } catch {
                return "failed: \(error)"
            }
        }
        let outcomes: [(String, String)] = [
            ("AnyHashable", outcome(Unchecked(AnyHashable(1)), Unchecked(AnyHashable("1")))),
            ("ClosedRange<String>", outcome("a"..."b", "a"..."c")),
            ("KeyValuePairs", outcome(Unchecked(["a": 1] as KeyValuePairs), Unchecked(["a": 2] as KeyValuePairs))),
            ("CollectionOfOne", outcome(CollectionOfOne(1), CollectionOfOne(2))),
            ("Repeated", outcome(repeatElement("x", count: 2), repeatElement("x", count: 3))),
            ("Slice", outcome(Unchecked([1, 2, 3][...].dropFirst()), Unchecked([1, 2, 4][...].dropFirst()))),
            ("Result", outcome(Result<Int, CancellationError>.success(1), .success(2))),
            ("Dictionary.Keys", outcome(Unchecked(["a": 1].keys), Unchecked(["b": 1].keys))),
            ("IndexPath", outcome(IndexPath(indexes: [1, 2]), IndexPath(indexes: [1, 3]))),
            ("DateInterval", outcome(DateInterval(start: Date(timeIntervalSince1970: 0), duration: 1),
                                     DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2))),
            ("Date.FormatStyle", outcome(Date.FormatStyle(date: .long, time: .none), Date.FormatStyle(date: .numeric, time: .none))),
            ("Regex", outcome(Unchecked(try Regex("a+")), Unchecked(try Regex("b+")))),
            ("UnitMass", outcome(Measurement(value: 1, unit: UnitMass.grams), Measurement(value: 1, unit: UnitMass.ounces))),
            ("NSRange", outcome(NSRange(location: 1, length: 2), NSRange(location: 1, length: 3))),
            ("AffineTransform", outcome(AffineTransform(translationByX: 1, byY: 0), AffineTransform(translationByX: 2, byY: 0))),
            ("UUID?", outcome(UUID?.none, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))),
            ("Data", outcome(Data([1]), Data([2]))),
            ("Never?", outcome(Never?.none, Never?.none)),
        ]
        for (name, result) in outcomes {
            #expect(result == "keyed" || result.hasPrefix("refused") || (name == "Never?" && result == "shared"), "\(name): \(result)")
        }
    }

    @Test func customMirrorsNeverHideState() throws {
        struct Hidden: CustomReflectable, Sendable {
            var drawn: Int
            var customMirror: Mirror { Mirror(self, children: ["shown": 0]) }
        }
        try expectDrawnApart([Hidden(drawn: 1), Hidden(drawn: 2)])
    }

    @Test func sharedReferencesAreKeyedOncePerObject() throws {
        final class Level: @unchecked Sendable {
            let left: Level?, right: Level?, value: Int
            init(_ value: Int, below: Level?) { left = below; right = below; self.value = value }
        }
        func lattice(levels: Int, bottom: Int) -> Level {
            var level: Level? = nil
            for index in 0..<levels { level = Level(index == 0 ? bottom : index, below: level) }
            return level!
        }
        // 100 levels, each pointing twice at the one below: 2^100 paths, 100 objects.
        try expectDrawnApart([lattice(levels: 100, bottom: 0), lattice(levels: 100, bottom: 1)])
        // Sharing is part of the state: one object twice differs from two equal objects.
        final class Leaf: @unchecked Sendable { let value = 1 }
        let leaf = Leaf()
        try expectDrawnApart([[leaf, leaf], [leaf, Leaf()]])
        // And identical graphs made twice share a key.
        let keyOf = { (top: Level) in try CacheKey.make(for: Holding(value: top, draws: Counter()), size: Size(4), scale: 1) }
        #expect(try keyOf(lattice(levels: 60, bottom: 3)) == keyOf(lattice(levels: 60, bottom: 3)))
    }

    @Test func cyclesEndAndObjectsInSetsDoNotDependOnOrder() throws {
        final class Node: Hashable, @unchecked Sendable {
            var name: String
            var next: Node?
            init(_ name: String) { self.name = name }
            static func == (a: Node, b: Node) -> Bool { a === b }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        let shared = Node("shared")
        let a = Node("a"), b = Node("b")
        a.next = shared
        b.next = shared
        shared.next = a
        let members: Set<Node> = [a, b]
        let first = try CacheKey.make(for: Holding(value: (shared, members), draws: Counter()), size: Size(4), scale: 1)
        // A set with the same members inserted in another order, many times.
        for _ in 0..<20 {
            var reordered = Set<Node>(minimumCapacity: 8)
            reordered.insert(b)
            reordered.insert(a)
            #expect(try CacheKey.make(for: Holding(value: (shared, reordered), draws: Counter()), size: Size(4), scale: 1) == first)
        }
    }
}

/// What cannot be keyed faithfully is refused with a typed error that names the type, the key
/// path and the fix — before anything is drawn.
@Suite struct KeyRefusalTests {
    final class Locked: @unchecked Sendable {
        let lock = Mutex(0)
        var label = "a"
    }
    final class Counted: @unchecked Sendable {
        let count = Atomic<Int>(0)
    }
    struct Vault: ~Copyable { var secret = 1 }
    final class Vaulted: @unchecked Sendable {
        let vault = Vault()
    }
    actor Store { var value = 1 }
    final class Buffer: ManagedBuffer<Int, UInt8>, @unchecked Sendable {}
    struct Card: Rasterizable {
        var title = "t"
        var model = Locked()
        func draw(in canvas: Canvas, size: Size) throws { Issue.record("a refused state must not be drawn") }
    }

    private func refusal<Value: Sendable>(of value: Value) -> StateKeyError? {
        do {
            _ = try Rasterizer().image(for: Holding(value: value, draws: Counter()), size: Size(4), scale: 1)
            return nil
        } catch let error as StateKeyError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func eachRefusedKindNamesTheTypeThePathAndTheFix() throws {
        let cases: [(StateKeyError?, StateKeyError.Reason, String)] = [
            (refusal(of: { @Sendable in 1 }), .closure, "->"),
            (refusal(of: Unchecked(UnsafeRawPointer(bitPattern: 16))), .pointer, "UnsafeRawPointer"),
            (refusal(of: Unchecked(OpaquePointer(bitPattern: 16))), .pointer, "OpaquePointer"),
            (refusal(of: ObjectIdentifier(Locked.self)), .pointer, "ObjectIdentifier"),
            (refusal(of: Locked()), .nonCopyable, "non-copyable"),
            (refusal(of: Counted()), .nonCopyable, "non-copyable"),
            (refusal(of: Vaulted()), .nonCopyable, "non-copyable"),
            (refusal(of: Store()), .actor, "Store"),
            (refusal(of: NSNumber(value: 3)), .opaqueObject, "_CFInfo"),
            (refusal(of: Unchecked(NSString(string: "x"))), .opaqueObject, "_CFInfo"),
            (refusal(of: \Locked.label), .opaqueObject, "KeyPath"),
            (refusal(of: Unchecked(Buffer.create(minimumCapacity: 4) { _ in 1 })), .opaqueObject, "Buffer"),
        ]
        for (error, reason, typeFragment) in cases {
            guard let error else {
                Issue.record("expected a refusal for \(typeFragment)")
                continue
            }
            #expect(error.reason == reason, "\(error)")
            #expect(error.typeName.contains(typeFragment), "\(error)")
            #expect(error.keyPath.hasPrefix("\\Holding.value"), "\(error)")
            #expect(error.description.contains("StateHashable"), "\(error)")
        }
    }

    @Test func theKeyPathLeadsToTheRefusedProperty() throws {
        let rasterizer = Rasterizer()
        #expect(throws: StateKeyError.self) { try rasterizer.cacheKey(for: Card(), size: Size(4), scale: 1) }
        do {
            _ = try rasterizer.image(for: Card(), size: Size(4), scale: 1)
            Issue.record("refused state rendered")
        } catch let error as StateKeyError {
            #expect(error.keyPath == "\\Card.model.lock", "\(error.keyPath)")
            #expect(error.reason == .nonCopyable)
        }
        #expect(rasterizer.statistics.draws == 0)
    }

    @Test func aRefusedValueBehindAnExistentialRefusesItsKey() throws {
        let fine: [any Sendable] = [1, "two"]
        let refused: [any Sendable] = [1, { @Sendable in }]
        #expect(refusal(of: fine) == nil)
        let error = try #require(refusal(of: refused))
        #expect(error.reason == .closure)
        // And in a conformance that writes it through combine(reflecting:).
        struct Writes: StateHashable, Sendable {
            var inner: any Sendable
            func hashState(into hasher: inout StateHasher) { hasher.combine(reflecting: inner) }
        }
        #expect(refusal(of: Writes(inner: 3)) == nil)
        #expect(refusal(of: Writes(inner: Unchecked(UnsafeRawPointer(bitPattern: 8))))?.reason == .pointer)
    }

    @Test func deepValuesAreRefusedNotCutShort() throws {
        indirect enum List: Sendable { case end(Int), link(List) }
        func list(_ length: Int, end: Int) -> List {
            var list = List.end(end)
            for _ in 0..<length { list = .link(list) }
            return list
        }
        // Short lists that differ only at the end are keyed apart.
        let rasterizer = Rasterizer()
        let draws = Counter()
        _ = try rasterizer.image(for: Holding(value: list(60, end: 1), draws: draws), size: Size(4), scale: 1)
        _ = try rasterizer.image(for: Holding(value: list(60, end: 2), draws: draws), size: Size(4), scale: 1)
        #expect(draws.count == 2)
        // Past the limit they are refused, and never share a key.
        let error = try #require(refusal(of: list(1_000, end: 1)))
        #expect(error.reason == .tooDeep)
        #expect(error.description.contains("\(StateKeyError.depthLimit)"))
        var nested: [any Sendable] = []
        for _ in 0..<400 { nested = [nested] }
        #expect(refusal(of: nested)?.reason == .tooDeep)
    }

    @Test func processedAndFallbackComponentsCarryTheRefusal() throws {
        let processed = Card().processed(RasterProcessors.Opacity(0.5))
        #expect(throws: StateKeyError.self) { try Rasterizer().image(for: processed, size: Size(4), scale: 1) }
        let fallback = Card().fallback(Holding(value: 1, draws: Counter()))
        #expect(throws: StateKeyError.self) { try Rasterizer().image(for: fallback, size: Size(4), scale: 1) }
    }
}

/// The one fallback to `Mirror` is counted, never silent.
@Suite struct MirrorFallbackTests {
    protocol Delegate: AnyObject, Sendable {}
    final class Owner: Delegate, @unchecked Sendable {}
    struct WithWeakDelegate: Sendable {
        weak var delegate: (any Delegate)?
        var value: Int
    }

    @Test func aWeakExistentialIsKeyedThroughMirrorAndCounted() throws {
        let rasterizer = Rasterizer()
        let before = rasterizer.statistics.mirrorFallbacks
        let owner = Owner()
        let draws = Counter()
        _ = try rasterizer.image(for: Holding(value: WithWeakDelegate(delegate: owner, value: 1), draws: draws), size: Size(4))
        _ = try rasterizer.image(for: Holding(value: WithWeakDelegate(delegate: owner, value: 2), draws: draws), size: Size(4))
        _ = try rasterizer.image(for: Holding(value: WithWeakDelegate(delegate: nil, value: 2), draws: draws), size: Size(4))
        #expect(draws.count == 3)
        #expect(rasterizer.statistics.mirrorFallbacks > before)
    }
}

/// An `@Observable` class keyed with its default key paths: the registrar is not state, and a
/// host sees changes to what its draw reads.
@Suite struct ObservableKeyTests {
    @Observable
    final class Profile: Rasterizable, @unchecked Sendable {
        var name = "Ada"
        var color: Color = .red
        func draw(in canvas: Canvas, size: Size) throws {
            canvas.fillAll(with: .color(color))
        }
    }

    @Test func observingAnObjectDoesNotChangeItsKey() throws {
        let profile = Profile()
        let rasterizer = Rasterizer()
        let before = try rasterizer.cacheKey(for: profile, size: Size(4))
        withObservationTracking { _ = profile.name; _ = profile.color } onChange: {}
        #expect(try rasterizer.cacheKey(for: profile, size: Size(4)) == before)
        profile.name = "Grace"
        #expect(try rasterizer.cacheKey(for: profile, size: Size(4)) != before)
    }

    @Test func aHostRedrawsWhenADrawnPropertyChanges() async throws {
        let profile = Profile()
        let host = RasterHost(component: profile, size: Size(4), scale: 1, rasterizer: Rasterizer())
        await host.settle()
        #expect(host.image?.pixel(x: 1, y: 1) == RGBA8(.red))
        profile.color = .blue
        #expect(await eventually { host.image?.pixel(x: 1, y: 1) == RGBA8(.blue) })
        profile.color = .green
        #expect(await eventually { host.image?.pixel(x: 1, y: 1) == RGBA8(.green) })
    }
}

@Suite struct StableTypeNameTests {
    @Test func privateAndLocalTypesAreNamedWithoutAddresses() {
        let privateName = TypeIdentity.stableName(of: FilePrivateSample.self)
        #expect(privateName.hasPrefix("RasterKitTests.(FilePrivateSample in _"), "\(privateName)")
        struct Local {}
        let local = TypeIdentity.stableName(of: Local.self)
        #expect(!local.contains("unknown context") && !local.contains("+") && local.contains("(local context 14RasterKitTests"), "\(local)")
        // Foundation's own private types too.
        let storage = TypeIdentity.stableName(of: type(of: Mirror(reflecting: IndexPath(indexes: [1, 2])).children.first!.value))
        #expect(!storage.contains("unknown context"), "\(storage)")
    }
}

fileprivate struct FilePrivateSample {}
