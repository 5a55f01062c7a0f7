/// A value that writes its own canonical state into cache keys instead of being read by
/// RasterKit's automatic key plans.
///
/// Every value a component's ``Rasterizable/stateKeyPaths`` name is keyed without any code from
/// you: the first time RasterKit meets a type it reads the type's layout from the Swift
/// runtime's metadata once, and compiles a plan that later writes values of that type straight
/// from memory — no `Mirror`, no locks, no allocation. What the plan writes for each kind of value:
///
/// | Value | What goes into the key |
/// | --- | --- |
/// | a `StateHashable` type | what its `hashState(into:)` writes (numbers, strings, `Bool`, `Date`, `URL`, `Data`, `UUID` and RasterKit's geometry, colours and paints adopt it) |
/// | struct | its type, then each stored property in declaration order |
/// | enum | its type and case, then the case's payload (several associated values as one tuple); `indirect` cases too |
/// | tuple | its type (with the labels), then each element |
/// | `Optional` | whether it holds a value, then the value |
/// | `Array`, `ContiguousArray`, `ArraySlice` | the count, then each element in order |
/// | `Set`, `Dictionary` | each element (key and value) digested alone, the digests sorted: insertion order and the process's hash seed never matter |
/// | class instance | its dynamic type, then the stored properties of it and its superclasses, by **content**, never by address; an instance met again inside itself is written as a reference to how far up it is, so cycles end |
/// | `weak` / `unowned` reference | as an optional / a strong reference to the same instance |
/// | `lazy var` | its storage: nil until first read, then the value |
/// | `Any`, `any P` | the value inside, as its own type |
/// | closure, metatype, raw pointer and other opaque values | their type only (`Int.self` and `String.self` differ; two closures of one type do not) |
/// | a type with a custom `Mirror` (`CustomReflectable`) | its type, then what its mirror shows, through `Mirror` |
///
/// Doubles are written with `-0.0 == 0.0` and a single NaN; strings in Unicode normalization
/// form C, so strings Swift calls equal share a key. Two types with the same fields never share
/// a key. Keys are 128-bit digests that are the same in every process and on every run.
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
