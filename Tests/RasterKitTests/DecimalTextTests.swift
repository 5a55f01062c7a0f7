import Foundation
import Testing
@testable import RasterKit

@Suite struct DecimalTextTests {
    @Test func writesWhatPrintfWrites() {
        var values: [Double] = [0, 1, 9.999, 10, 0.004, 0.006, 1.234, 12.5001, 59.996, 1234.5678, 3600, 1e9 + 0.25, 0.5, 2.5, 0.125]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Double.random(in: 0..<10_000, using: &generator)) }
        for value in values {
            for digits in 0...3 {
                #expect(DecimalText.fixed(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value), \(digits)")
                #expect(DecimalText.fixed(-value - 0.01, digits: digits) == String(format: "%.\(digits)f", -value - 0.01))
            }
        }
    }

    @Test func negativeValuesKeepTheirSignAsInPrintf() {
        #expect(DecimalText.fixed(-0.004, digits: 2) == "-0.00")
        #expect(DecimalText.fixed(-0.0, digits: 1) == "-0.0")
        #expect(DecimalText.fixed(-0.006, digits: 2) == "-0.01")
        #expect(DecimalText.fixed(0.125, digits: 2) == "0.12", "an exact half goes to even")
    }

    @Test func outOfRangeDigitsAndValuesAreBounded() {
        #expect(DecimalText.fixed(1.5, digits: -3) == "2")
        #expect(DecimalText.fixed(0.123456789012, digits: 40) == "0.123456789")
        #expect(DecimalText.fixed(.infinity, digits: 2) == "inf")
        #expect(DecimalText.fixed(-.infinity, digits: 2) == "-inf")
        #expect(DecimalText.fixed(.nan, digits: 2) == "nan")
        #expect(DecimalText.fixed(1e300, digits: 2) == "1e+300")
    }
}
