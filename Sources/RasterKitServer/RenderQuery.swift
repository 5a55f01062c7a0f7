import Foundation
import RasterKit
import RasterKitBatch

/// A render request's query, checked: the size, scale and tint asked for, and the parameters
/// that only steer caching and signing. Unknown keys, repeated keys and values out of range are
/// refused, so two spellings of one request cannot make two renders and no request can ask for
/// more than the configuration allows.
struct RenderQuery: Sendable {
    /// The size in points; nil when not given.
    var size: Size?
    /// Pixels per point; 1 when not given.
    var scale: Double = 1
    /// `tint=` hex digits or a CSS colour name (icons only).
    var tint: Color?
    /// `appearance=dark` or `highContrast` (components only); `light` when not given.
    var appearance: Appearance = .light
    /// `v=`: a version the client put in the URL, which makes the response immutable.
    var isVersioned = false
    /// The values of the component's declared parameters, as given (checked by the component).
    var parameters: [String: String] = [:]

    /// The keys every render route takes: caching (`v`) and signing (`exp`, `sig`).
    static let commonKeys: Set<String> = ["size", "scale", "v", "exp", "sig"]

    /// Parses the query `items`, allowing `extraKeys` besides the common ones, and the declared
    /// parameters of `component`, when given.
    init(_ items: [(key: String, value: String)], extraKeys: Set<String> = [], component: Manifest.Component? = nil,
         configuration: RasterServerConfiguration) throws(RequestError) {
        var seen: Set<String> = []
        let declared = Set(component?.parameters.map(\.name) ?? [])
        for (key, value) in items {
            guard seen.insert(key).inserted else { throw .badRequest("query parameter '\(key)' is given more than once") }
            if declared.contains(key) {
                parameters[key] = value
                continue
            }
            guard Self.commonKeys.contains(key) || extraKeys.contains(key) else {
                let keys = Self.commonKeys.union(extraKeys).sorted().joined(separator: ", ")
                guard let component else { throw .badRequest("unknown query parameter '\(key)'; this route takes \(keys)") }
                var refusal = RequestError.parameter(ParameterError(unknown: key, component: component.name,
                                                                    declared: component.parameters.map(\.name)))
                refusal = RequestError(.badRequest, refusal.message + "; the route also takes \(keys)", code: refusal.code)
                refusal.details["parameter"] = key.count > 64 ? String(key.prefix(64)) : key
                throw refusal
            }
            switch key {
            case "size": size = try Self.size(value, configuration: configuration)
            case "scale": scale = try Self.scale(value, configuration: configuration)
            case "tint": tint = try Self.tint(value)
            case "appearance":
                guard let named = Appearance(rawValue: value) else {
                    throw .badRequest("appearance '\(value)' is not one of \(Appearance.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                appearance = named
            case "v":
                guard (1...64).contains(value.utf8.count), value.utf8.allSatisfy(Self.isVersionByte) else {
                    throw .badRequest("v '\(value)' must be 1 to 64 letters, digits, '.', '_' or '-'")
                }
                isVersioned = true
            case "exp":
                guard (1...12).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    throw .badRequest("exp '\(value)' must be a time in seconds since 1970, in digits")
                }
            case "sig":
                guard value.utf8.count == 64, value.allSatisfy(\.isHexDigit) else {
                    throw .badRequest("sig '\(value)' must be 64 hexadecimal digits")
                }
            default: break
            }
        }
        if let size, size.width * scale < 1 || size.height * scale < 1 {
            throw .badRequest("size \(Self.format(size)) at scale \(scale) is less than one pixel")
        }
    }

    private static func isVersionByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// A plain decimal number: digits, then optionally a point and more digits (`24`, `1.5`,
    /// `0.25`) — no sign, exponent, hexadecimal, `inf` or `nan`, so one value has one spelling
    /// and nothing exotic reaches a render.
    static func decimal(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard digits(parts[0]), parts.count == 1 || digits(parts[1]) else { return nil }
        // Leading zeros give a value two spellings.
        if parts[0].count > 1, parts[0].first == "0" { return nil }
        return Double(text)
    }

    /// Refuses `size` at this query's scale when it has more pixels than the configuration
    /// allows: checked for a size the request gave and for one the manifest gave alike.
    func checkPixels(of size: Size, configuration: RasterServerConfiguration) throws(RequestError) {
        let pixels = (size.width * scale).rounded(.up) * (size.height * scale).rounded(.up)
        guard pixels <= Double(configuration.maximumPixels) else {
            throw .badRequest("size \(Self.format(size)) at scale \(scale) is \(Int(pixels)) pixels, more than the \(configuration.maximumPixels) allowed")
        }
    }

    /// `W`x`H` or `N` (square) points, each more than 0 and at most the configured side.
    static func size(_ text: String, configuration: RasterServerConfiguration) throws(RequestError) -> Size {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let width = decimal(parts[0]), let height = parts.count == 2 ? decimal(parts[1]) : width,
              width.isFinite, height.isFinite else {
            throw .badRequest("size '\(text)' is not N or WxH (points, such as 24 or 160x44)")
        }
        guard width > 0, height > 0, width <= configuration.maximumSide, height <= configuration.maximumSide else {
            throw .badRequest("size '\(text)': each side must be more than 0 and at most \(Int(configuration.maximumSide)) points")
        }
        return Size(width: width, height: height)
    }

    /// A scale more than 0 and at most the configured maximum.
    static func scale(_ text: String, configuration: RasterServerConfiguration) throws(RequestError) -> Double {
        guard let scale = decimal(Substring(text)), scale.isFinite, scale > 0, scale <= configuration.maximumScale else {
            throw .badRequest("scale '\(text)' must be a number more than 0 and at most \(configuration.maximumScale)")
        }
        return scale
    }

    /// A colour as manifests and `rasterkit` read one (``Color/init(parsing:)``): hex digits
    /// without `#` (which a URL would need encoded), or a CSS colour name.
    static func tint(_ text: String) throws(RequestError) -> Color {
        do { return try Color(parsing: text) } catch {
            throw .badRequest("tint '\(text)': \(error.reason) (expected hex digits such as 1C71D8, or a CSS colour name)")
        }
    }

    static func format(_ size: Size) -> String {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        return "\(number(size.width))x\(number(size.height))"
    }
}
