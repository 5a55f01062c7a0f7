import Foundation

/// One value bound to a statement or read from a row: SQLite's five storage classes.
enum SQLiteValue: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(integerLiteral value: Int64) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .real(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(nilLiteral: ()) { self = .null }

    /// An integer, or NULL for nil.
    static func int(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    /// A real, or NULL for nil.
    static func double(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
    /// A text, or NULL for nil.
    static func string(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    /// The value as an integer, as SQLite would convert it (NULL and text that is not a number are 0).
    var int64: Int64 {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value.rounded(.towardZero)) ?? 0
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    var int: Int { Int(truncatingIfNeeded: int64) }

    /// The value as a real (NULL and text that is not a number are 0).
    var double: Double {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text(let text): Double(text) ?? 0
        case .null, .blob: 0
        }
    }

    /// The value as text; nil for NULL and blobs.
    var string: String? {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .null, .blob: nil
        }
    }

    /// The value's bytes: a blob's, or a text's UTF-8; nil for NULL and numbers.
    var data: Data? {
        switch self {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        case .null, .integer, .real: nil
        }
    }

    var isNull: Bool { self == .null }
}
