import Foundation
import Synchronization

/// The storage behind ``MemoryCache``: an open-addressing index from digest to entry, the
/// entries in a list from least to most recently stored, and one reference mark per entry.
/// Not thread-safe by itself: readers call the non-mutating methods under the cache's read lock
/// (the mark is the one thing they write, atomically), writers the others under its write lock.
///
/// Digests are already uniformly random, so the index uses their low bits as the hash, and
/// nothing a lookup touches is reference counted except the image it returns — and that image's
/// pixels are handed out through a handle of the calling thread's stripe (see
/// ``PixelStorage/init(sharing:)``), so threads taking one image retain different objects.
final class MemoryTable {
    private struct Entry {
        var digest: StableDigest
        /// The full key, for listing and for removal by type; nil only in free slots.
        var key: CacheKey?
        /// Wall-clock seconds when the image entered memory, for removal by age.
        var stored: Double = 0
        var image: RasterImage?
        var children: [ComponentVersion]
        var cost: Int
        /// One retained ``PixelStorage`` handle per thread stripe, made on the stripe's first hit.
        var handles: StripeHandles?
        /// The image's pixels, kept alive by `image`, and its size, scale and caps.
        var pixels: Unmanaged<PixelStorage>?
        var shape = ImageShape()
        /// Neighbours in the recency list, -1 at the ends.
        var newer: Int
        var older: Int
    }

    /// Index slots hold an entry number plus one; 0 is empty and `tombstone` a removed entry.
    private static let tombstone = -1
    private var index: UnsafeMutableBufferPointer<Int>
    private var indexUsed = 0
    private var entries: UnsafeMutablePointer<Entry>
    private var marks: UnsafeMutablePointer<Atomic<Bool>>
    /// Each entry's last use in ``CoarseClock`` ticks, written by hits under the read lock.
    private var lastUses: UnsafeMutablePointer<Atomic<Int64>>
    /// Entries initialized so far (live or free), and room for how many.
    private var entryCount = 0
    private var entryCapacity = 0
    private var free: [Int] = []
    /// Least and most recently stored entries, -1 when empty.
    private var oldest = -1
    private var newest = -1

    private(set) var count = 0
    private(set) var totalCost = 0
    private(set) var evictions = 0

    init() {
        index = .allocate(capacity: 16)
        index.initialize(repeating: 0)
        entries = .allocate(capacity: 0)
        marks = .allocate(capacity: 0)
        lastUses = .allocate(capacity: 0)
    }

    deinit {
        for slot in 0..<entryCount { entries[slot].handles?.release() }
        index.deallocate()
        entries.deinitialize(count: entryCount)
        entries.deallocate()
        marks.deinitialize(count: entryCount)
        marks.deallocate()
        lastUses.deinitialize(count: entryCount)
        lastUses.deallocate()
    }

    // MARK: Reading (under the read lock)

    /// The entry number for `digest`.
    @inline(__always)
    func slot(of digest: StableDigest) -> Int? {
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: digest.low) & mask
        while true {
            let found = index[position]
            if found == 0 { return nil }
            if found != Self.tombstone, entries[found - 1].digest == digest { return found - 1 }
            position = (position + 1) & mask
        }
    }

    @inline(__always)
    func image(for digest: StableDigest, marking: Bool) -> RasterImage? {
        guard let slot = slot(of: digest) else { return nil }
        if marking { mark(slot) }
        // Built from the handle and the image's shape, without copying (so retaining) the
        // stored image, whose storage every thread shares.
        guard let handles = entries[slot].handles else { return entries[slot].image }
        return handles.image(sharing: entries[slot].pixels, shape: entries[slot].shape)
    }

    func entry(for digest: StableDigest, marking: Bool) -> (image: RasterImage, children: [ComponentVersion])? {
        guard let slot = slot(of: digest), let image = entries[slot].image else { return nil }
        if marking { mark(slot) }
        return (image, entries[slot].children)
    }

    /// Sets the entry's mark, writing only when it was clear, so that repeated hits on one image
    /// from several threads leave its cache line shared rather than passed between cores.
    @inline(__always)
    private func mark(_ slot: Int) {
        if !marks[slot].load(ordering: .relaxed) { marks[slot].store(true, ordering: .relaxed) }
        // Same idea for the last-use time: a coarse tick changes every few milliseconds, so a hot
        // image's line is written that often at most, not on every hit.
        let now = CoarseClock.tick()
        if lastUses[slot].load(ordering: .relaxed) != now { lastUses[slot].store(now, ordering: .relaxed) }
    }

    /// What each live entry holds, from the next to be evicted (unless marked) to the newest.
    func infos(now: CoarseClock.Reading) -> [MemoryCacheEntryInfo] {
        var result: [MemoryCacheEntryInfo] = []
        var slot = oldest
        while slot >= 0 {
            let entry = entries[slot]
            if let key = entry.key {
                result.append(MemoryCacheEntryInfo(
                    key: key, byteCount: entry.cost, pixelWidth: entry.shape.pixelWidth, pixelHeight: entry.shape.pixelHeight,
                    stored: Date(timeIntervalSince1970: entry.stored),
                    lastUse: now.date(ofTick: lastUses[slot].load(ordering: .relaxed)),
                    isMarkedRecent: marks[slot].load(ordering: .relaxed)))
            }
            slot = entry.newer
        }
        return result
    }

    /// Digests from least to most recently stored.
    var order: [StableDigest] {
        var result: [StableDigest] = []
        var slot = oldest
        while slot >= 0 {
            result.append(entries[slot].digest)
            slot = entries[slot].newer
        }
        return result
    }

    // MARK: Writing (under the write lock)

    func insert(_ image: RasterImage, children: [ComponentVersion], cost: Int, for key: CacheKey, now: Double) {
        let digest = key.value
        if let slot = slot(of: digest) {
            totalCost += cost - entries[slot].cost
            entries[slot].key = key
            entries[slot].stored = now
            entries[slot].image = image
            entries[slot].children = children
            entries[slot].cost = cost
            entries[slot].handles?.release()
            entries[slot].handles = StripeHandles()
            entries[slot].pixels = .passUnretained(image.storage)
            entries[slot].shape = ImageShape(image)
            marks[slot].store(false, ordering: .relaxed)
            lastUses[slot].store(CoarseClock.tick(), ordering: .relaxed)
            unlink(slot)
            linkAsNewest(slot)
            return
        }
        let slot = takeFreeSlot()
        entries[slot] = Entry(digest: digest, key: key, stored: now, image: image, children: children, cost: cost,
                              handles: StripeHandles(), pixels: .passUnretained(image.storage), shape: ImageShape(image),
                              newer: -1, older: -1)
        marks[slot].store(false, ordering: .relaxed)
        lastUses[slot].store(CoarseClock.tick(), ordering: .relaxed)
        addToIndex(digest, slot: slot)
        linkAsNewest(slot)
        count += 1
        totalCost += cost
    }

    func remove(_ digest: StableDigest) {
        guard let slot = slot(of: digest) else { return }
        removeSlot(slot)
    }

    func removeAll() {
        while oldest >= 0 { removeSlot(oldest) }
    }

    /// Removes every entry `shouldRemove` picks, given its key and the wall-clock seconds it was
    /// stored at; returns how many it removed.
    func removeAll(where shouldRemove: (CacheKey, Double) -> Bool) -> Int {
        var removed = 0
        var slot = oldest
        while slot >= 0 {
            let next = entries[slot].newer
            if let key = entries[slot].key, shouldRemove(key, entries[slot].stored) {
                removeSlot(slot)
                removed += 1
            }
            slot = next
        }
        return removed
    }

    /// Evicts until at most `limit` bytes remain: from the least recently stored end, giving a
    /// marked entry a second chance (clearing its mark and moving it to the recent end). Each
    /// entry is passed over at most once per call, so this ends.
    func _trim(toCost limit: Int) {
        var secondChances = count
        while totalCost > limit, oldest >= 0 {
            let slot = oldest
            if secondChances > 0, marks[slot].load(ordering: .relaxed) {
                secondChances -= 1
                marks[slot].store(false, ordering: .relaxed)
                unlink(slot)
                linkAsNewest(slot)
                continue
            }
            removeSlot(slot)
            evictions += 1
        }
    }

    // MARK: Internals

    private func removeSlot(_ slot: Int) {
        removeFromIndex(entries[slot].digest)
        unlink(slot)
        count -= 1
        totalCost -= entries[slot].cost
        entries[slot].image = nil
        entries[slot].key = nil
        entries[slot].children = []
        entries[slot].handles?.release()
        entries[slot].handles = nil
        entries[slot].pixels = nil
        marks[slot].store(false, ordering: .relaxed)
        free.append(slot)
    }

    private func takeFreeSlot() -> Int {
        if let slot = free.popLast() { return slot }
        if entryCount == entryCapacity { growEntries() }
        (entries + entryCount).initialize(to: Entry(digest: StableDigest(high: 0, low: 0), key: nil, image: nil, children: [],
                                                    cost: 0, handles: nil, newer: -1, older: -1))
        (marks + entryCount).initialize(to: Atomic(false))
        (lastUses + entryCount).initialize(to: Atomic(0))
        entryCount += 1
        return entryCount - 1
    }

    private func growEntries() {
        let capacity = max(16, entryCapacity * 2)
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        let largerMarks = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: capacity)
        let largerLastUses = UnsafeMutablePointer<Atomic<Int64>>.allocate(capacity: capacity)
        larger.moveInitialize(from: entries, count: entryCount)
        for slot in 0..<entryCount {
            (largerMarks + slot).initialize(to: Atomic(marks[slot].load(ordering: .relaxed)))
            (largerLastUses + slot).initialize(to: Atomic(lastUses[slot].load(ordering: .relaxed)))
        }
        marks.deinitialize(count: entryCount)
        marks.deallocate()
        lastUses.deinitialize(count: entryCount)
        lastUses.deallocate()
        entries.deallocate()
        entries = larger
        marks = largerMarks
        lastUses = largerLastUses
        entryCapacity = capacity
    }

    private func addToIndex(_ digest: StableDigest, slot: Int) {
        if (indexUsed + 1) * 4 > index.count * 3 { rebuildIndex(capacity: max(16, count * 4 + 16)) }
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: digest.low) & mask
        while index[position] > 0 { position = (position + 1) & mask }
        if index[position] == 0 { indexUsed += 1 }
        index[position] = slot + 1
    }

    private func removeFromIndex(_ digest: StableDigest) {
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: digest.low) & mask
        while index[position] != 0 {
            if index[position] != Self.tombstone, entries[index[position] - 1].digest == digest {
                index[position] = Self.tombstone
                return
            }
            position = (position + 1) & mask
        }
    }

    /// A fresh index of the live entries, dropping tombstones; its capacity a power of two.
    private func rebuildIndex(capacity: Int) {
        var size = 16
        while size < capacity { size *= 2 }
        index.deallocate()
        index = .allocate(capacity: size)
        index.initialize(repeating: 0)
        indexUsed = 0
        var slot = oldest
        while slot >= 0 {
            let mask = size - 1
            var position = Int(truncatingIfNeeded: entries[slot].digest.low) & mask
            while index[position] != 0 { position = (position + 1) & mask }
            index[position] = slot + 1
            indexUsed += 1
            slot = entries[slot].newer
        }
    }

    private func unlink(_ slot: Int) {
        let newer = entries[slot].newer, older = entries[slot].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
        entries[slot].newer = -1
        entries[slot].older = -1
    }

    private func linkAsNewest(_ slot: Int) {
        entries[slot].older = newest
        entries[slot].newer = -1
        if newest >= 0 { entries[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}

/// The per-stripe handles of one cached image: a stripe's first hit makes its handle and
/// publishes it with a compare-and-swap (readers hold only the read lock); the entry releases
/// them all, under the write lock, when it drops the image.
struct StripeHandles {
    private let slots: UnsafeMutablePointer<Atomic<UInt>>

    init() {
        slots = .allocate(capacity: ThreadStripe.count)
        for stripe in 0..<ThreadStripe.count { (slots + stripe).initialize(to: Atomic(0)) }
    }

    /// An image of `shape` whose pixels are `pixels`, behind the calling thread's stripe handle.
    @inline(__always)
    func image(sharing pixels: Unmanaged<PixelStorage>?, shape: ImageShape) -> RasterImage? {
        guard let pixels else { return nil }
        let slot = slots + ThreadStripe.current
        var handle = slot.pointee.load(ordering: .acquiring)
        if handle == 0 {
            let storage = pixels._withUnsafeGuaranteedRef { PixelStorage(sharing: $0) }
            let made = UInt(bitPattern: Unmanaged.passRetained(storage).toOpaque())
            let (exchanged, original) = slot.pointee.compareExchange(expected: 0, desired: made, ordering: .acquiringAndReleasing)
            if exchanged {
                handle = made
            } else {
                Self.storage(at: made).release()
                handle = original
            }
        }
        return RasterImage(storage: Self.storage(at: handle).takeUnretainedValue(), pixelWidth: shape.pixelWidth,
                           pixelHeight: shape.pixelHeight, scale: shape.scale, capInsets: shape.capInsets)
    }

    /// Releases every handle and frees the slots; no reader may be using them.
    func release() {
        for stripe in 0..<ThreadStripe.count {
            let handle = slots[stripe].load(ordering: .relaxed)
            if handle != 0 { Self.storage(at: handle).release() }
        }
        slots.deinitialize(count: ThreadStripe.count)
        slots.deallocate()
    }

    private static func storage(at handle: UInt) -> Unmanaged<PixelStorage> {
        guard let pointer = UnsafeRawPointer(bitPattern: handle) else { preconditionFailure("a stripe handle is never null") }
        return Unmanaged<PixelStorage>.fromOpaque(pointer)
    }
}

/// A cached image's size, scale and caps: what an image needs besides its pixels.
struct ImageShape {
    var pixelWidth = 0
    var pixelHeight = 0
    var scale = 1.0
    var capInsets: EdgeInsets?

    init() {}

    init(_ image: RasterImage) {
        pixelWidth = image.pixelWidth
        pixelHeight = image.pixelHeight
        scale = image.scale
        capInsets = image.capInsets
    }
}
