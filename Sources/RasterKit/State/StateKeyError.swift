/// A component's state could not be made into a cache key: a value in it cannot be read
/// faithfully, so keying it would let two different states share one render (or one state get
/// a new key in every process). Thrown by ``Rasterizer/cacheKey(for:size:scale:)`` and by every
/// render of the component, before anything is drawn.
///
/// The message names the type, the key path that reached it and the fix:
///
/// ```
/// \Card.model.lock: Synchronization.Mutex<Swift.Int> is a non-copyable value (a lock or an
/// atomic) … — key the value it guards instead: adopt StateHashable on the type that holds it,
/// or name a narrower key path in stateKeyPaths
/// ```
///
/// See the table in ``StateHashable`` for what is keyed how and what is refused.
public struct StateKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a value cannot be keyed.
    public enum Reason: Hashable, Sendable {
        /// A closure: two closures of one type cannot be told apart.
        case closure
        /// A pointer (`UnsafePointer`, `OpaquePointer`, `ObjectIdentifier`, …): its address
        /// differs in every process.
        case pointer
        /// A non-copyable value (`Mutex`, `Atomic`, …): its contents may change without the
        /// component changing.
        case nonCopyable
        /// An actor: its state is isolated to it.
        case actor
        /// An object whose contents live outside its stored properties: CoreFoundation storage
        /// (`NSString`, `NSNumber`, …), a key path, or a `ManagedBuffer`'s elements.
        case opaqueObject
        /// Storage the Swift runtime does not describe: a builtin value, a type without field
        /// metadata (built with reflection metadata disabled, a C union), or a payload type the
        /// runtime cannot resolve.
        case undescribedStorage
        /// A value that nests deeper than ``StateKeyError/depthLimit`` levels.
        case tooDeep
    }

    /// Values nest at most this many levels inside a key path's value (each struct, enum
    /// payload, element, optional and object is a level); deeper values are refused rather
    /// than cut short, so two values differing below the limit can never share a key.
    public static let depthLimit = 256

    /// The fully qualified name of the type that cannot be keyed.
    public let typeName: String
    /// Where it was reached from: the component's key path, then the stored properties below it
    /// (`\Card.model.lock`). A value found at run time behind an existential (`Any`, `any P`) or
    /// inside a ``StateHashable`` conformance is named by the key path that holds it.
    public let keyPath: String
    /// Why it cannot be keyed.
    public let reason: Reason

    /// An error for `typeName` reached through `keyPath`.
    public init(typeName: String, keyPath: String, reason: Reason) {
        self.typeName = typeName
        self.keyPath = keyPath
        self.reason = reason
    }

    /// What cannot be keyed, where, why and what to do about it.
    public var description: String {
        "\(keyPath): \(typeName) \(explanation) — \(fix)"
    }

    private var explanation: String {
        switch reason {
        case .closure: "is a closure, and two closures of one type cannot be told apart"
        case .pointer: "is a pointer, whose address differs in every process"
        case .nonCopyable: "is a non-copyable value (a lock or an atomic), whose contents can change without the component changing"
        case .actor: "is an actor, whose state is isolated from the key"
        case .opaqueObject: "keeps its contents outside its stored properties (CoreFoundation storage, a key path or a managed buffer)"
        case .undescribedStorage: "has storage the Swift runtime does not describe (a builtin value, no field metadata, or an unresolvable type)"
        case .tooDeep: "nests deeper than \(Self.depthLimit) levels"
        }
    }

    private var fix: String {
        switch reason {
        case .tooDeep:
            "adopt StateHashable on the recursive type and write a bounded summary of it, or name a narrower key path in stateKeyPaths"
        case .nonCopyable:
            "key the value it guards instead: adopt StateHashable on the type that holds it, or name a narrower key path in stateKeyPaths"
        default:
            "adopt StateHashable on the type that holds it and write what it draws, or leave it out of stateKeyPaths"
        }
    }
}
