/// The value witnesses a key plan calls on values it copies: a type's size, alignment and
/// whether it is plain data, and its `initializeWithCopy` and `destroy` functions, read once
/// from the type's value witness table. Calling them directly does what generic code would do,
/// without looking up generic metadata on every call.
struct ValueWitnesses: @unchecked Sendable {
    typealias Destroy = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    typealias InitializeWithCopy = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, UnsafeRawPointer) -> UnsafeMutableRawPointer

    let size: Int
    let alignment: Int
    /// Plain data: copied by copying bytes, destroyed by doing nothing.
    let isPOD: Bool
    private let destroyFunction: Destroy
    private let initializeWithCopyFunction: InitializeWithCopy

    init(of type: Any.Type) {
        let table = RuntimeABI.valueWitnesses(of: type)
        let word = RuntimeABI.word
        size = table.load(fromByteOffset: 8 * word, as: Int.self)
        let flags = table.load(fromByteOffset: RuntimeABI.ValueWitness.flags, as: UInt32.self)
        alignment = Int(flags & 0xFF) + 1
        isPOD = flags & 0x0001_0000 == 0
        destroyFunction = unsafeBitCast(table.load(fromByteOffset: 1 * word, as: UnsafeRawPointer.self), to: Destroy.self)
        initializeWithCopyFunction = unsafeBitCast(table.load(fromByteOffset: 2 * word, as: UnsafeRawPointer.self),
                                                   to: InitializeWithCopy.self)
    }

    /// Copies the value at `source` into uninitialized memory at `destination`.
    @inline(__always)
    func initialize(_ destination: UnsafeMutableRawPointer, withCopyOf source: UnsafeRawPointer, metadata: UnsafeRawPointer) {
        if isPOD {
            destination.copyMemory(from: source, byteCount: size)
        } else {
            _ = initializeWithCopyFunction(destination, source, metadata)
        }
    }

    /// Ends the life of the value at `address`.
    @inline(__always)
    func destroy(_ address: UnsafeMutableRawPointer, metadata: UnsafeRawPointer) {
        if !isPOD { destroyFunction(address, metadata) }
    }
}
