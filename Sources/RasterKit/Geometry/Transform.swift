import Foundation

/// An affine transform: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public struct Transform: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How x scales into x'.
    public var a: Double
    /// How x feeds into y'.
    public var b: Double
    /// How y feeds into x'.
    public var c: Double
    /// How y scales into y'.
    public var d: Double
    /// The horizontal translation, in points.
    public var tx: Double
    /// The vertical translation, in points.
    public var ty: Double

    /// A transform from its six coefficients, as in `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `x` to the right and `y` down.
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }

    /// A scale by `x` horizontally and `y` vertically, about the origin.
    public init(scaleX x: Double, y: Double) { self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }

    /// A rotation by `angle` radians; positive angles turn +x toward +y (clockwise on screen).
    public init(rotationAngle angle: Double) {
        let cosine = cos(angle), sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` followed by `other`.
    public func concatenating(_ other: Transform) -> Transform {
        Transform(a: a * other.a + b * other.c, b: a * other.b + b * other.d,
                  c: c * other.a + d * other.c, d: c * other.b + d * other.d,
                  tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// A translation applied before `self`.
    public func translatedBy(x: Double, y: Double) -> Transform { Transform(translationX: x, y: y).concatenating(self) }
    /// A scale applied before `self`.
    public func scaledBy(x: Double, y: Double) -> Transform { Transform(scaleX: x, y: y).concatenating(self) }
    /// A rotation applied before `self`.
    public func rotated(by angle: Double) -> Transform { Transform(rotationAngle: angle).concatenating(self) }

    /// The inverse transform, or nil when this one collapses the plane.
    public func inverted() -> Transform? {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return nil }
        return Transform(a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
                         tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
    }

    /// The point transformed: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// Whether the transform only scales and translates (no rotation or skew).
    public var isAxisAligned: Bool { b == 0 && c == 0 }

    /// Whether this is exactly ``identity``.
    public var isIdentity: Bool { self == .identity }

    /// The six coefficients, labelled.
    public var description: String { "Transform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}
