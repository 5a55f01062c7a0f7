import Foundation

// Built-in fast paths: these types never go through Mirror.

extension Bool: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .bool)
        hasher.sip.write(self ? 1 as UInt8 : 0)
    }
}

extension Int: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .int)
        hasher.write(self)
    }
}

extension UInt: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .uint)
        hasher.write(UInt64(self))
    }
}

extension Int8: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int8); hasher.write(Int(self)) }
}

extension Int16: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int16); hasher.write(Int(self)) }
}

extension Int32: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int32); hasher.write(Int(self)) }
}

extension Int64: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int64); hasher.write(Int(self)) }
}

extension UInt8: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint8); hasher.write(UInt64(self)) }
}

extension UInt16: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint16); hasher.write(UInt64(self)) }
}

extension UInt32: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint32); hasher.write(UInt64(self)) }
}

extension UInt64: StateHashable {
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint64); hasher.write(self) }
}

extension Double: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .double)
        hasher.write(self)
    }
}

extension Float: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .float)
        hasher.write(Double(self))
    }
}

extension String: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .string)
        hasher.write(self)
    }
}

extension Substring: StateHashable {
    public func hashState(into hasher: inout StateHasher) { String(self).hashState(into: &hasher) }
}

extension Character: StateHashable {
    public func hashState(into hasher: inout StateHasher) { String(self).hashState(into: &hasher) }
}

extension Date: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .date)
        hasher.write(timeIntervalSinceReferenceDate)
    }
}

extension URL: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .url)
        hasher.write(absoluteString)
    }
}

extension Data: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .bytes)
        hasher.write(UInt64(count))
        withUnsafeBytes { hasher.sip.write($0) }
    }
}

extension UUID: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .uuid)
        withUnsafeBytes(of: uuid) { hasher.sip.write($0) }
    }
}

extension Optional: StateHashable where Wrapped: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        switch self {
        case .none: hasher.write(tag: .none)
        case .some(let wrapped):
            hasher.write(tag: .some)
            wrapped.hashState(into: &hasher)
        }
    }
}

extension Array: StateHashable where Element: StateHashable {
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .sequence)
        hasher.write(count)
        for element in self { element.hashState(into: &hasher) }
    }
}

extension ContiguousArray: StateHashable where Element: StateHashable {
    /// As an `Array` of the same elements.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .sequence)
        hasher.write(count)
        for element in self { element.hashState(into: &hasher) }
    }
}

extension ArraySlice: StateHashable where Element: StateHashable {
    /// As an `Array` of the same elements.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .sequence)
        hasher.write(count)
        for element in self { element.hashState(into: &hasher) }
    }
}

extension Set: StateHashable where Element: StateHashable {
    /// Order-independent: each element is digested alone and the digests are sorted, so
    /// neither insertion order nor the per-process seed of `Set` matters.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .set)
        var members = makeIterator()
        hasher.writeUnordered(count: count) { _, single in
            if let element = members.next() { element.hashState(into: &single) }
        }
    }
}

extension Dictionary: StateHashable where Key: StateHashable, Value: StateHashable {
    /// Order-independent, like `Set`: each key-value pair is digested alone and the digests sorted.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .dictionary)
        var members = makeIterator()
        hasher.writeUnordered(count: count) { _, single in
            guard let (key, value) = members.next() else { return }
            key.hashState(into: &single)
            value.hashState(into: &single)
        }
    }
}
