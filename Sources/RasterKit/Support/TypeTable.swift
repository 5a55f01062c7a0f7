import Synchronization

/// A map from types to objects made once per type and kept for the life of the process, read
/// without any lock: lookups are a few atomic loads, so threads that key components at the same
/// time never wait for each other or write to shared memory.
///
/// Entries are only ever added, under a lock; an added object is retained forever. The table
/// grows by publishing a larger copy; the old copies stay allocated, since a reader may still be
/// probing one (they are small: a few kilobytes for thousands of types).
final class TypeTable<Value: AnyObject>: @unchecked Sendable {
    /// One generation of the table: open addressing over `capacity` (a power of two) slots, each
    /// a key (the type's metadata address, 0 when empty) and a value (an unmanaged object).
    private final class Slots {
        let capacity: Int
        let keys: UnsafeMutablePointer<Atomic<UInt>>
        let values: UnsafeMutablePointer<Atomic<UInt>>
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            keys = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity)
            for index in 0..<capacity {
                (keys + index).initialize(to: Atomic(0))
                (values + index).initialize(to: Atomic(0))
            }
        }

        /// Fibonacci hashing of the address: metadata addresses share their low bits.
        @inline(__always)
        func home(of key: UInt) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (capacity - 1) }

        @inline(__always)
        func find(_ key: UInt) -> UInt? {
            var index = home(of: key)
            while true {
                let found = keys[index].load(ordering: .acquiring)
                if found == key { return values[index].load(ordering: .acquiring) }
                if found == 0 { return nil }
                index = (index + 1) & (capacity - 1)
            }
        }

        /// Adds an entry; the caller holds the table's write lock and has made room.
        func add(_ key: UInt, _ value: UInt) {
            var index = home(of: key)
            while keys[index].load(ordering: .relaxed) != 0 { index = (index + 1) & (capacity - 1) }
            // The value first: a reader that sees the key sees its value.
            values[index].store(value, ordering: .releasing)
            keys[index].store(key, ordering: .releasing)
            count += 1
        }
    }

    private let current: Atomic<UnsafeMutableRawPointer>
    /// Every generation, so none is freed while a reader may hold it; guards adding.
    private let generations: Lock<[Slots]>

    init() {
        let first = Slots(capacity: 64)
        current = Atomic(Unmanaged.passUnretained(first).toOpaque())
        generations = Lock([first])
    }

    /// The object stored for `type`, without locking. Unmanaged, so that using it needs no
    /// retain: a retain is an atomic write to the object, which threads sharing one plan would
    /// pass between their cores on every call. The object lives as long as the process.
    @inline(__always)
    func value(for type: Any.Type) -> Unmanaged<Value>? {
        let key = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        let slots = Unmanaged<Slots>.fromOpaque(current.load(ordering: .acquiring))
        let found = slots._withUnsafeGuaranteedRef { $0.find(key) }
        guard let found, let pointer = UnsafeRawPointer(bitPattern: found) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer)
    }

    /// Stores `value` for `type` unless one is stored already, and returns the stored one.
    @discardableResult
    func add(_ value: Value, for type: Any.Type) -> Unmanaged<Value> {
        let key = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        let stored: UInt = generations.withLock { generations in
            var slots = generations[generations.count - 1]
            if let existing = slots.find(key) { return existing }
            if (slots.count + 1) * 2 > slots.capacity {
                let larger = Slots(capacity: slots.capacity * 2)
                for index in 0..<slots.capacity {
                    let old = slots.keys[index].load(ordering: .relaxed)
                    if old != 0 { larger.add(old, slots.values[index].load(ordering: .relaxed)) }
                }
                generations.append(larger)
                current.store(Unmanaged.passUnretained(larger).toOpaque(), ordering: .releasing)
                slots = larger
            }
            let retained = Unmanaged.passRetained(value).toOpaque()
            slots.add(key, UInt(bitPattern: retained))
            return UInt(bitPattern: retained)
        }
        guard let pointer = UnsafeRawPointer(bitPattern: stored) else { preconditionFailure("TypeTable holds only object addresses") }
        return Unmanaged<Value>.fromOpaque(pointer)
    }
}
