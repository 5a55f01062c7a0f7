/// A reference that hot paths use without retaining it; something else (usually the same
/// object's strong property) keeps the object alive.
///
/// Swift retains an object loaded from a property around a call whenever it cannot prove the
/// call leaves it alive, and a retain is an atomic write to the object's header. On a path that
/// many threads run at once on the same objects — a memory-cache hit — those writes pass one
/// cache line between cores on every call and stop the path from scaling.
struct Borrowed<Object: AnyObject>: @unchecked Sendable {
    private let reference: Unmanaged<Object>

    init(_ object: Object) { reference = .passUnretained(object) }

    /// Runs `body` with the object, neither retained nor released.
    @inline(__always)
    func callAsFunction<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }
}
