/// A value that writes its own canonical state into cache keys instead of being read by
/// RasterKit's automatic key plans.
///
/// Every value a component's ``Rasterizable/stateKeyPaths`` name is keyed without any code from
/// you: the first time RasterKit meets a type it reads the type's layout from the Swift
/// runtime's metadata once, and compiles a plan that later writes values of that type straight
/// from memory — no `Mirror`, no locks, no allocation. The key never holds less than the state:
/// what cannot be read faithfully is refused with ``StateKeyError`` (naming the type, the key
/// path and the fix) before anything is drawn, never keyed by its type alone. What the plan
/// writes for each kind of value:
///
/// | Value | What goes into the key |
/// | --- | --- |
/// | a `StateHashable` type | what its `hashState(into:)` writes |
/// | integers and floats of every width (`Int8`…`Int128`, `UInt8`…`UInt128`, `Float16`, `Float`, `Double`, `Float80`), `Bool`, `String`, `Substring`, `Character`, `StaticString` | the value, tagged with its kind |
/// | `SIMD2`…`SIMD64` | the lane count, then each lane |
/// | `Date`, `URL`, `Data`, `UUID`, RasterKit's geometry, colours and paints | their own conformances |
/// | `TimeZone`, `Locale`, `Calendar` | by identity: the identifier (and a calendar's locale, time zone and week rules), never values for the current moment |
/// | `AttributedString` | each run's characters and attributes |
/// | `CharacterSet`, `IndexSet` | their members |
/// | struct | its type, then each stored property in declaration order (an `@Observable` class's observation registrar is left out) |
/// | enum | its type and case, then the case's payload (several associated values as one tuple); `indirect` cases too |
/// | tuple | its type (with the labels), then each element |
/// | `Optional` | whether it holds a value, then the value |
/// | `Array`, `ContiguousArray`, `ArraySlice` | the count, then each element in order |
/// | `Set`, `Dictionary` | each element (key and value) digested alone, the digests sorted: insertion order and the process's hash seed never matter |
/// | class instance | its dynamic type, then the stored properties of it and its superclasses, by **content**, never by address. An instance met again within one key (a cycle, or two references to one object) is written as the ordinal of its first appearance, so each object is written once |
/// | `weak` / `unowned` reference | as an optional / a strong reference to the same instance |
/// | `lazy var` | its storage: nil until first read, then the value |
/// | `Any`, `any P`, `AnyObject` | the dynamic type of the value inside, then the value as its own type |
/// | metatype (`Int.self` as `Any.Type`) | the type it names |
/// | a type with a custom `Mirror` | its stored properties, as any struct or class: a mirror may leave out what is drawn |
/// | a struct or class holding a `weak` or `unowned` reference to a protocol existential | through `Mirror` (slower; counted in ``RenderStatistics/mirrorFallbacks`` and logged at debug level) |
///
/// **Refused** (``StateKeyError/Reason``): closures; pointers (`UnsafePointer` and its kin,
/// `OpaquePointer`, `ObjectIdentifier`); non-copyable values such as `Mutex` and `Atomic` (held
/// in a class); actors; objects whose contents live outside their stored properties
/// (CoreFoundation-backed `NSString`, `NSNumber`, …; key paths; `ManagedBuffer` subclasses);
/// builtin storage and types without field metadata; and values nesting deeper than
/// ``StateKeyError/depthLimit`` levels. A type reached through the key paths' declared types is
/// refused when the component is first keyed; one met only at run time (behind `Any`) refuses
/// the key it is in.
///
/// Doubles are written with `-0.0 == 0.0` and a single NaN; strings in Unicode normalization
/// form C, so strings Swift calls equal share a key. Two types with the same fields never share
/// a key. Types are identified by stable names (a `private` type by its file's discriminator),
/// so keys are 128-bit digests that are the same in every process, on every run, in debug and
/// release builds and with the Swift runtime linked statically or dynamically.
///
/// Adopt `StateHashable` to key a value differently from how it is stored — rounding, ignoring
/// a cache field, naming an object by its identifier — or to make a hot type's key cheaper
/// still. Write everything that changes what is drawn, each through `combine`:
///
/// ```swift
/// struct Temperature: StateHashable {
///     var celsius: Double
///     var lastUpdated: Date                 // not drawn
///
///     // Drawn rounded to whole degrees, so 20.2° and 20.4° share a render.
///     func hashState(into hasher: inout StateHasher) {
///         hasher.combine(Int(celsius.rounded()))
///     }
/// }
/// ```
///
/// A conformance replaces the automatic plan for that type everywhere it appears, including
/// inside other types' properties, arrays and dictionaries. Values written through `combine`
/// carry their own kind tags, so a conformance that writes one `Int` never collides with one
/// that writes one `Double`; give conformances of different types something that tells them
/// apart if they can write the same values and can appear in the same place (behind `Any`).
public protocol StateHashable: SendableMetatype {
    /// Writes everything about the value that changes what is drawn.
    func hashState(into hasher: inout StateHasher)
}
