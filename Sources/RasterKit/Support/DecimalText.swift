/// A number as decimal text with a fixed count of fraction digits, as `String(format: "%.2f")`
/// writes it but without C varargs: their first use in a process costs four of the Swift
/// runtime's conformance searches (each over every conformance in the binary), and a warm batch
/// prints only one line, its summary.
package enum DecimalText {
    /// `value` rounded to `digits` (0 to 9) fraction digits, halves to even: `fixed(1.234,
    /// digits: 2)` is `"1.23"` and, as printf writes it, `fixed(-0.004, digits: 2)` is `"-0.00"`.
    /// Not-finite and huge values (past 2^53 units of the last digit) are written as Swift
    /// describes them.
    package static func fixed(_ value: Double, digits: Int) -> String {
        let digits = min(max(digits, 0), 9)
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrEven)
        guard value.isFinite, scaled < 0x1p53 else { return value.description }
        let units = UInt64(scaled)
        var text = value.sign == .minus ? "-" : ""
        text += String(units / scale)
        guard digits > 0 else { return text }
        let fraction = String(units % scale)
        return text + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
