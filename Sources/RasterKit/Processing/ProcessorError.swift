/// Why a processor could not run: a parameter out of range, a result too large, or an identifier
/// that cannot name a cache entry.
public enum ProcessorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter that is not finite, or out of the range the processor accepts.
    case invalidParameter(processor: String, parameter: String, value: String, expected: String)
    /// A processor whose identifier is empty, longer than 200 bytes, or holds spaces or control characters.
    case invalidIdentifier(String)

    /// Which processor, which parameter, its value and what was expected.
    public var description: String {
        switch self {
        case let .invalidParameter(processor, parameter, value, expected):
            "\(processor): \(parameter) \(value) is invalid; expected \(expected)"
        case .invalidIdentifier(let identifier):
            "processor identifier \"\(identifier)\" is invalid: it must be 1 to 200 bytes without spaces or control characters"
        }
    }
}

extension ProcessorError {
    /// Throws unless `value` is finite and in `range`.
    static func check(_ value: Double, in range: ClosedRange<Double>, _ parameter: String, of processor: String) throws {
        guard value.isFinite, range.contains(value) else {
            throw ProcessorError.invalidParameter(processor: processor, parameter: parameter, value: "\(value)",
                                                  expected: "a finite number in \(range.lowerBound.compactDescription)"
                                                      + "...\(range.upperBound.compactDescription)")
        }
    }
}
