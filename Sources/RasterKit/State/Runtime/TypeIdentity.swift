import Foundation

/// Names of types that are the same in every process, build and way of linking.
///
/// `String(reflecting:)` and the runtime's qualified name embed the address of a `private` or
/// function-local type's context, `(unknown context at $7f…)`, which moves with address-space
/// randomisation and whenever the binary changes. Such a context is named here as an optimised
/// build names a private one — `Module.(Name in _<file discriminator>)` — or, for a function's
/// context, by its descriptor's linker symbol (see ``AnonymousContextNames``): the same in debug
/// and release builds, linked statically or not, and across rebuilds that leave the declaring
/// file alone. Only in a stripped binary does a context fall back to its position in the binary
/// (`image+offset`), which holds for that build alone.
enum TypeIdentity {
    static func stableName(of type: Any.Type) -> String {
        let name = _typeName(type, qualified: true)
        let marker = "(unknown context at $"
        guard name.contains(marker) else { return name }
        var result = ""
        var rest = Substring(name)
        while let range = rest.range(of: marker) {
            result += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
            let hex = rest.prefix { $0.isHexDigit }
            rest = rest.dropFirst(hex.count)
            if rest.first == ")" { rest = rest.dropFirst() }
            let address = UInt(hex, radix: 16) ?? 0
            guard let symbol = AnonymousContextNames.symbol(at: address) else {
                result += "(local context " + imageOffset(of: address, hex: String(hex)) + ")"
                continue
            }
            if let discriminator = privateDiscriminator(in: symbol), rest.first == "." {
                // `(unknown context at $…).Name` becomes `(Name in _DISCRIMINATOR)`.
                let declared = rest.dropFirst().prefix { $0 != "." && $0 != "<" && $0 != ">" && $0 != "," && $0 != ")" && $0 != " " }
                rest = rest.dropFirst(1 + declared.count)
                result += "(" + declared + " in _" + discriminator + ")"
            } else {
                // Without the `$s` every Swift symbol starts with, so names hold no `$`.
                result += "(local context " + (symbol.hasPrefix("$s") ? symbol.dropFirst(2) : Substring(symbol)) + ")"
            }
        }
        return result + rest
    }

    /// A stable name without its module, enclosing types and generic arguments, as a key path
    /// names its root: `Badge` for `MyApp.Screen.Badge<Swift.Int>` or `MyApp.(Badge in _50E2…)`.
    static func shortName(of stableName: String) -> String {
        let unqualified = stableName.prefix { $0 != "<" }
        guard let last = unqualified.split(separator: ".").last else { return stableName }
        if last.hasPrefix("("), let space = last.firstIndex(of: " ") { return String(last[last.index(after: last.startIndex)..<space]) }
        return String(last)
    }

    /// The private discriminator of the context of a `private` type: its symbol ends with the
    /// discriminator (32 hexadecimal digits after `33_`), `LL`, the type's kind and `MXX`. A
    /// function's context (a local type's) ends otherwise, even when the function is private.
    private static func privateDiscriminator(in symbol: String) -> Substring? {
        let utf8 = symbol.utf8
        guard utf8.count > 41, symbol.hasSuffix("MXX") else { return nil }
        let tail = symbol.suffix(41)  // 33_ + 32 digits + LL + kind + MXX
        guard tail.hasPrefix("33_"), tail.dropFirst(35).hasPrefix("LL"), tail.dropFirst(37).first?.isLetter == true else { return nil }
        let digits = tail.dropFirst(3).prefix(32)
        return digits.allSatisfy(\.isHexDigit) ? digits : nil
    }

    /// `image+offset` for an address inside a loaded binary, or the bare hex when unknown.
    private static func imageOffset(of address: UInt, hex: String) -> String {
        guard let image = ImageLookup.image(containing: address) else { return hex }
        let file = image.path == "/proc/self/exe" ? "main" : URL(fileURLWithPath: image.path).lastPathComponent
        return "\(file)+\(String(address - image.base, radix: 16))"
    }
}

extension TypeIdentity {
    /// A stable 64-bit identity of `type` from its stable name, unique even for private, local
    /// and generic types and the same in every process; key plans compute it once per type.
    static func stableID(of type: Any.Type) -> UInt64 { stableID(ofName: stableName(of: type)) }

    /// The identity of an enum case: its type's name and the case's name together, so a value
    /// writes one word for both.
    static func caseID(of type: Any.Type, case name: String) -> UInt64 {
        stableID(ofName: stableName(of: type) + "." + name)
    }

    private static func stableID(ofName name: String) -> UInt64 {
        var sip = SipHash128()
        var name = name
        name.withUTF8 { sip.write(UnsafeRawBufferPointer($0)) }
        return sip.finalize().high
    }
}
