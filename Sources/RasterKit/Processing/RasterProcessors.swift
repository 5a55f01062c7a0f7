/// The built-in ``RasterProcessor``s. Geometry is in points, converted with the image's scale
/// (`RoundedCorners(radius: 8)` rounds 16 pixels at 2x); every parameter is checked before any
/// pixel is touched and a bad one throws ``ProcessorError``; every new surface stays inside the
/// render's ``ResourceLimits``.
///
/// | Stage | Size of the result | Nine-slice |
/// | --- | --- | --- |
/// | ``Resize`` | `size` | after stretching |
/// | ``Crop`` | `rect.size` | after stretching |
/// | ``RoundedCorners``, ``Circle`` | unchanged | after stretching |
/// | ``Tint``, ``Opacity`` | unchanged | on the minimum frame, which stays stretchable |
/// | ``GaussianBlur`` | unchanged | after stretching |
/// | ``Padding`` | grown by the insets | after stretching |
/// | ``DropShadow`` | unchanged | after stretching |
/// | ``Anonymous`` | what the closure returns | after stretching |
///
/// ```swift
/// let chip = Badge(count: 3).processed(RasterProcessors.Padding(EdgeInsets(all: 4)),
///                                      RasterProcessors.DropShadow(Shadow(color: .black.withAlpha(0.25))))
/// ```
public enum RasterProcessors {}

extension ProcessorError {
    /// Throws unless `value` is finite and not negative.
    static func checkNonNegative(_ value: Double, _ parameter: String, of processor: String) throws {
        guard value.isFinite, value >= 0 else {
            throw ProcessorError.invalidParameter(processor: processor, parameter: parameter, value: "\(value)",
                                                  expected: "a finite number of at least 0")
        }
    }

    /// Throws unless every component of `color` is finite and in 0...1.
    static func check(_ color: Color, _ parameter: String, of processor: String) throws {
        guard [color.red, color.green, color.blue, color.alpha].allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
            throw ProcessorError.invalidParameter(processor: processor, parameter: parameter,
                                                  value: "(\(color.red), \(color.green), \(color.blue), \(color.alpha))",
                                                  expected: "red, green, blue and alpha each in 0...1")
        }
    }
}
