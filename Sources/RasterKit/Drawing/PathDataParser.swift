import Foundation

extension Path {
    /// Parses SVG path data: every command (M L H V C S Q T A Z), absolute and relative, with
    /// implicit repetition and compact number syntax such as `M10-5.5.5`.
    ///
    /// ```swift
    /// let heart = try Path(svgPathData: "M12 21 3 12a5 5 0 0 1 9-7 5 5 0 0 1 9 7z")
    /// ```
    ///
    /// - Throws: ``SVGError/invalidPathData(offset:message:input:)`` naming where reading stopped.
    public init(svgPathData data: String) throws(SVGError) {
        var parser = PathDataParser(data)
        self = try parser.parse()
    }
}

/// A recursive-descent reader of the SVG path grammar (SVG 1.1 §8.3, SVG 2 path data).
struct PathDataParser {
    private let text: String
    private let bytes: [UInt8]
    private var index = 0
    private var path = Path()
    private var current = Point.zero
    private var subpathStart = Point.zero
    /// The reflected control point for S/s and T/t, with which command family set it.
    private var lastCubicControl: Point?
    private var lastQuadControl: Point?

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    mutating func parse() throws(SVGError) -> Path {
        skipSeparators()
        guard index < bytes.count else { return path }
        var command = try readCommandLetter()
        guard command == UInt8(ascii: "M") || command == UInt8(ascii: "m") else {
            throw error("path data must begin with a moveto command (M or m)", at: index - 1)
        }
        while true {
            try apply(command)
            skipSeparators()
            if index >= bytes.count { break }
            if isCommandLetter(bytes[index]) {
                command = try readCommandLetter()
            } else if isASCIILetter(bytes[index]), bytes[index] | 0x20 != UInt8(ascii: "e") {
                throw error("unknown command letter '\(Character(UnicodeScalar(bytes[index])))'", at: index)
            } else if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw error("expected a command after closepath", at: index)
            } else if command == UInt8(ascii: "M") {
                command = UInt8(ascii: "L")  // further coordinate pairs after M are lineto
            } else if command == UInt8(ascii: "m") {
                command = UInt8(ascii: "l")
            }
        }
        return path
    }

    private mutating func apply(_ command: UInt8) throws(SVGError) {
        let relative = command >= UInt8(ascii: "a")
        let origin = relative ? current : .zero
        switch command | 0x20 {  // lower-cased
        case UInt8(ascii: "m"):
            let point = try readPoint(relativeTo: origin)
            path.move(to: point)
            current = point
            subpathStart = point
            clearReflections()
        case UInt8(ascii: "l"):
            let point = try readPoint(relativeTo: origin)
            path.addLine(to: point)
            current = point
            clearReflections()
        case UInt8(ascii: "h"):
            let x = try readNumber() + (relative ? current.x : 0)
            current = Point(x: x, y: current.y)
            path.addLine(to: current)
            clearReflections()
        case UInt8(ascii: "v"):
            let y = try readNumber() + (relative ? current.y : 0)
            current = Point(x: current.x, y: y)
            path.addLine(to: current)
            clearReflections()
        case UInt8(ascii: "c"):
            let control1 = try readPoint(relativeTo: origin)
            let control2 = try readPoint(relativeTo: origin)
            let end = try readPoint(relativeTo: origin)
            addCubic(control1, control2, end)
        case UInt8(ascii: "s"):
            let control1 = reflect(lastCubicControl)
            let control2 = try readPoint(relativeTo: origin)
            let end = try readPoint(relativeTo: origin)
            addCubic(control1, control2, end)
        case UInt8(ascii: "q"):
            let control = try readPoint(relativeTo: origin)
            let end = try readPoint(relativeTo: origin)
            addQuad(control, end)
        case UInt8(ascii: "t"):
            let control = reflect(lastQuadControl)
            let end = try readPoint(relativeTo: origin)
            addQuad(control, end)
        case UInt8(ascii: "a"):
            let rx = try readNumber(), ry = try readNumber(), rotation = try readNumber()
            let largeArc = try readFlag(), sweep = try readFlag()
            let end = try readPoint(relativeTo: origin)
            addEllipticalArc(to: end, rx: rx, ry: ry, rotationDegrees: rotation, largeArc: largeArc, sweep: sweep)
            clearReflections()
        case UInt8(ascii: "z"):
            path.closeSubpath()
            current = subpathStart
            clearReflections()
        default:
            throw error("unknown command '\(Character(UnicodeScalar(command)))'", at: index - 1)
        }
    }

    private mutating func clearReflections() {
        lastCubicControl = nil
        lastQuadControl = nil
    }

    private func reflect(_ control: Point?) -> Point {
        guard let control else { return current }
        return Point(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
    }

    private mutating func addCubic(_ control1: Point, _ control2: Point, _ end: Point) {
        path.addCurve(to: end, control1: control1, control2: control2)
        current = end
        lastCubicControl = control2
        lastQuadControl = nil
    }

    private mutating func addQuad(_ control: Point, _ end: Point) {
        path.addQuadCurve(to: end, control: control)
        current = end
        lastQuadControl = control
        lastCubicControl = nil
    }

    /// Converts an SVG endpoint arc to Béziers (SVG 1.1 appendix F.6).
    private mutating func addEllipticalArc(to end: Point, rx: Double, ry: Double, rotationDegrees: Double,
                                           largeArc: Bool, sweep: Bool) {
        let start = current
        current = end
        if start == end { return }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { return path.addLine(to: end) }
        let phi = rotationDegrees * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = (max(0, numerator) / denominator).squareRoot()
        if largeArc == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry, cy1 = -coefficient * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }
        // Béziers of a unit circle, then scaled, rotated and moved onto the ellipse.
        let unit = ArcGeometry.bezierSegments(center: .zero, radius: 1, startAngle: theta1,
                                              endAngle: theta1 + delta, clockwise: delta > 0)
        let toEllipse = Transform(scaleX: rx, y: ry).concatenating(Transform(rotationAngle: phi))
            .concatenating(Transform(translationX: cx, y: cy))
        for (position, segment) in unit.enumerated() {
            let last = position == unit.count - 1
            path.addCurve(to: last ? end : toEllipse.apply(to: segment.end),
                          control1: toEllipse.apply(to: segment.control1),
                          control2: toEllipse.apply(to: segment.control2))
        }
    }

    // MARK: Lexing

    private func isCommandLetter(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "z"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"),
             UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"):
            // 'e' and 'E' are never commands; they belong to exponents.
            return byte != UInt8(ascii: "e") && byte != UInt8(ascii: "E")
        default: return false
        }
    }

    private func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private mutating func readCommandLetter() throws(SVGError) -> UInt8 {
        let byte = bytes[index]
        guard isCommandLetter(byte) else {
            throw error("expected a path command letter", at: index)
        }
        index += 1
        return byte
    }

    private mutating func skipSeparators() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
            || bytes[index] == 0x0D || bytes[index] == 0x0C || bytes[index] == UInt8(ascii: ",") {
            index += 1
        }
    }

    private mutating func readPoint(relativeTo origin: Point) throws(SVGError) -> Point {
        let x = try readNumber()
        let y = try readNumber()
        return Point(x: origin.x + x, y: origin.y + y)
    }

    private mutating func readFlag() throws(SVGError) -> Bool {
        skipSeparators()
        guard index < bytes.count else { throw error("expected an arc flag (0 or 1), found the end", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "0"): index += 1; return false
        case UInt8(ascii: "1"): index += 1; return true
        default: throw error("expected an arc flag (0 or 1)", at: index)
        }
    }

    private mutating func readNumber() throws(SVGError) -> Double {
        skipSeparators()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else {
            let found = start < bytes.count ? "'\(Character(UnicodeScalar(bytes[start])))'" : "the end"
            index = start
            throw error("expected a number, found \(found)", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            let exponentStart = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw error("expected exponent digits", at: exponentStart) }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw error("number \(literal) is out of range", at: start)
        }
        return value
    }

    /// Offsets count characters, not bytes, so a caret can be placed under the input.
    private func error(_ message: String, at byteOffset: Int) -> SVGError {
        let offset = String(decoding: bytes[..<min(byteOffset, bytes.count)], as: UTF8.self).count
        return .invalidPathData(offset: offset, message: message, input: text)
    }
}
