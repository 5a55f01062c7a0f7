/// A command line read one argument at a time in its plainest forms: `--name value`,
/// `--name=value`, `--flag` and positional arguments.
///
/// `rasterkit svg` reads its line with this before ArgumentParser (see
/// ``SVGCommand/init(plainArguments:)``): a CI job's line is nearly always this plain, and
/// ArgumentParser's decoding costs a warm run several milliseconds of first-time protocol
/// conformance look-ups. Every other form (short flags, `--`, `-` alone, a value that starts
/// with `-`) is ``Item/unreadable``, and the caller leaves the whole line to ArgumentParser, which
/// accepts or rejects it with its own messages.
struct PlainArguments {
    /// One step of the line.
    enum Item: Equatable {
        /// An argument that does not start with `-`.
        case positional(String)
        /// `--name` (with `value` nil) or `--name=value`.
        case option(name: Substring, value: Substring?)
        /// Anything this reader does not decode.
        case unreadable
    }

    private let arguments: [String]
    private var index = 0

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next item, or nil after the last argument.
    mutating func next() -> Item? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        guard argument.utf8.first == UInt8(ascii: "-") else { return .positional(argument) }
        guard argument.utf8.starts(with: "--".utf8), argument.utf8.count > 2 else { return .unreadable }
        let body = argument.dropFirst(2)
        guard let equals = body.utf8.firstIndex(of: UInt8(ascii: "=")) else { return .option(name: body, value: nil) }
        let name = body[..<equals]
        return name.isEmpty ? .unreadable : .option(name: name, value: body[body.index(after: equals)...])
    }

    /// An option's value: `inline` (from `--name=value`), else the next argument unless it starts
    /// with `-` (or there is none); nil then.
    mutating func value(_ inline: Substring?) -> String? {
        if let inline { return String(inline) }
        guard index < arguments.count, arguments[index].utf8.first != UInt8(ascii: "-") else { return nil }
        index += 1
        return arguments[index - 1]
    }

    /// Appends a repeatable option's value; false when it is missing or does not convert.
    static func append<Value>(_ value: Value?, to values: inout [Value]) -> Bool {
        guard let value else { return false }
        values.append(value)
        return true
    }

    /// Sets a single-value option; false when it is missing, does not convert, or was set before.
    static func setOnce<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    /// Sets a flag; false when it was given a value (`--json=yes`) or given before.
    static func raise(_ flag: inout Bool, _ inline: Substring?) -> Bool {
        guard inline == nil, !flag else { return false }
        flag = true
        return true
    }
}
