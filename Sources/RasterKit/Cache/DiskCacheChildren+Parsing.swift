import Foundation

extension DiskCacheChildren {
    /// Reads what ``encode(_:)`` writes — a JSON array of objects with the keys `typeName` (a
    /// string) and `renderVersion` (an integer), in any order, with JSON's whitespace and string
    /// escapes — without `JSONDecoder`. Its first use in a process looks up dozens of types and
    /// conformances (each a scan of every conformance in the binary), on every thread that
    /// decodes at the same moment: about a millisecond of a warm run's workers, for a list of
    /// two names. Nil for anything else (another shape, a duplicate key, a number with a
    /// fraction); ``decode(_:)`` then asks `JSONDecoder`, so the answer never differs.
    static func parse(_ text: String) -> [ComponentVersion]? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = ChildrenParser(bytes: bytes)
            return parser.list()
        }
    }
}

/// A cursor over the UTF-8 of a children list; every method returns nil at the first byte it
/// does not expect.
private struct ChildrenParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func list() -> [ComponentVersion]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var versions: [ComponentVersion] = []
        if !take(UInt8(ascii: "]")) {
            repeat {
                guard let version = object() else { return nil }
                versions.append(version)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
        }
        skipSpace()
        return index == bytes.count ? versions : nil
    }

    private mutating func object() -> ComponentVersion? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var typeName: String?
        var renderVersion: Int?
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
            switch key {
            case "typeName" where typeName == nil:
                guard let value = string() else { return nil }
                typeName = value
            case "renderVersion" where renderVersion == nil:
                guard let value = integer() else { return nil }
                renderVersion = value
            default:
                return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let typeName, let renderVersion else { return nil }
        return ComponentVersion(typeName: typeName, renderVersion: renderVersion)
    }

    /// A JSON string, its escapes resolved.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return nil }
                utf8.append(contentsOf: String(Character(scalar)).utf8)
            case ..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The character after a backslash: one of JSON's eight escapes, or `\u` with four hex
    /// digits (two of them for a character outside the basic plane, written as a surrogate pair).
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return nil }
            guard (0xD800..<0xDC00).contains(unit) else { return Unicode.Scalar(unit) }
            guard take(UInt8(ascii: "\\"), skippingSpace: false), take(UInt8(ascii: "u"), skippingSpace: false),
                  let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
        default: return nil
        }
    }

    private mutating func hexUnit() -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = HexDigits.value(of: bytes[index]) else { return nil }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }


    /// An integer without fraction or exponent that fits in `Int`.
    private mutating func integer() -> Int? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (sum, overflowedAgain) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
            digits += 1
            index += 1
        }
        // JSON allows no leading zero; a fraction or an exponent is left for JSONDecoder to judge.
        guard digits > 0, digits == 1 || bytes[index - digits] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    /// Consumes `byte` (after JSON whitespace, unless told not to skip it) when it is next.
    private mutating func take(_ byte: UInt8, skippingSpace: Bool = true) -> Bool {
        if skippingSpace { skipSpace() }
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
