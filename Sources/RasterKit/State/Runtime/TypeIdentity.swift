import Foundation

/// Names of types that are the same in every process. `String(reflecting:)` and the mangled
/// name both embed the runtime address of a private or local type's context, which moves with
/// address-space randomisation; the qualified `_typeName` replaces private contexts with the
/// file's stable discriminator, and what remains (types declared inside functions) is named
/// here by its offset inside the binary that defines it — stable for a given build.
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
            result += "(local context " + imageOffset(of: String(hex)) + ")"
        }
        return result + rest
    }

    /// `image+offset` for an address inside a loaded binary, or the bare hex when unknown.
    private static func imageOffset(of hex: String) -> String {
        guard let address = UInt(hex, radix: 16), let pointer = UnsafeRawPointer(bitPattern: address),
              let dladdr = Self.dladdr else { return hex }
        // Dl_info: file name, file base, symbol name, symbol address.
        var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        guard withUnsafeMutablePointer(to: &info, { dladdr(pointer, UnsafeMutableRawPointer($0)) }) != 0,
              let base = info.1 else { return hex }
        let image = info.0.map { URL(fileURLWithPath: String(cString: $0)).lastPathComponent } ?? "?"
        return "\(image)+\(String(address - UInt(bitPattern: base), radix: 16))"
    }

    /// glibc's `dladdr`, which Swift's Glibc module does not import (it needs `_GNU_SOURCE`).
    private static let dladdr: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32)? = {
        guard let symbol = dlsym(nil, "dladdr") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32).self)
    }()
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
