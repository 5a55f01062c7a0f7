import Foundation

// Built-in fast paths: these types never go through Mirror.

extension Bool: StateHashable {
    /// Writes a `Bool` tag, then 1 for `true` or 0 for `false`.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .bool)
        hasher.sip.write(self ? 1 as UInt8 : 0)
    }
}

extension Int: StateHashable {
    /// Writes an `Int` tag, then the value as 64 bits.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .int)
        hasher.write(self)
    }
}

extension UInt: StateHashable {
    /// Writes a `UInt` tag, then the value as 64 bits.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .uint)
        hasher.write(UInt64(self))
    }
}

extension Int8: StateHashable {
    /// Writes an `Int8` tag, then the value widened to `Int`; the tag keeps it apart from other integer types.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int8); hasher.write(Int(self)) }
}

extension Int16: StateHashable {
    /// Writes an `Int16` tag, then the value widened to `Int`.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int16); hasher.write(Int(self)) }
}

extension Int32: StateHashable {
    /// Writes an `Int32` tag, then the value widened to `Int`.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int32); hasher.write(Int(self)) }
}

extension Int64: StateHashable {
    /// Writes an `Int64` tag, then the value.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .int64); hasher.write(Int(self)) }
}

extension UInt8: StateHashable {
    /// Writes a `UInt8` tag, then the value widened to `UInt64`.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint8); hasher.write(UInt64(self)) }
}

extension UInt16: StateHashable {
    /// Writes a `UInt16` tag, then the value widened to `UInt64`.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint16); hasher.write(UInt64(self)) }
}

extension UInt32: StateHashable {
    /// Writes a `UInt32` tag, then the value widened to `UInt64`.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint32); hasher.write(UInt64(self)) }
}

extension UInt64: StateHashable {
    /// Writes a `UInt64` tag, then the value.
    public func hashState(into hasher: inout StateHasher) { hasher.write(tag: .uint64); hasher.write(self) }
}

extension Double: StateHashable {
    /// Writes a `Double` tag, then the value, with `-0.0` written as `0.0` and every NaN as one NaN.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .double)
        hasher.write(self)
    }
}

extension Float: StateHashable {
    /// Writes a `Float` tag, then the value widened to `Double` (zeros and NaNs as for `Double`).
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .float)
        hasher.write(Double(self))
    }
}

extension String: StateHashable {
    /// Writes a `String` tag, then the length and UTF-8 bytes in Unicode normalization form C, so
    /// strings Swift calls equal share a key.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .string)
        hasher.write(self)
    }
}

extension Substring: StateHashable {
    /// Writes the same as the equal `String`.
    public func hashState(into hasher: inout StateHasher) { String(self).hashState(into: &hasher) }
}

extension Character: StateHashable {
    /// Writes the same as a one-character `String`.
    public func hashState(into hasher: inout StateHasher) { String(self).hashState(into: &hasher) }
}

extension Date: StateHashable {
    /// Writes a `Date` tag, then the seconds since the reference date.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .date)
        hasher.write(timeIntervalSinceReferenceDate)
    }
}

extension URL: StateHashable {
    /// Writes a `URL` tag, then the absolute string (the file is not read).
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .url)
        hasher.write(absoluteString)
    }
}

extension Data: StateHashable {
    /// Writes a bytes tag, then the count and the bytes.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .bytes)
        hasher.write(UInt64(count))
        withUnsafeBytes { hasher.sip.write($0) }
    }
}

extension UUID: StateHashable {
    /// Writes a `UUID` tag, then its 16 bytes.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .uuid)
        withUnsafeBytes(of: uuid) { hasher.sip.write($0) }
    }
}

extension Optional: StateHashable where Wrapped: StateHashable {
    /// Writes whether a value is present, then the value.
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
    /// Writes a sequence tag and the count, then each element in order.
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
