import Foundation

/// How every `--json` output is written: one line, keys sorted, slashes unescaped.
package enum JSONLine {
    /// `value` as that one line; `{}` when it cannot be encoded.
    package static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
