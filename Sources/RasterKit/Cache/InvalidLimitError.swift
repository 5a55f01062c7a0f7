/// A limit set at run time that cannot be used: negative, or zero where at least one is needed.
/// The limit keeps its previous value.
///
/// ```swift
/// try rasterizer.cache.memory.setCostLimit(-1)   // throws: "costLimit must be 0 or more, not -1"
/// ```
public struct InvalidLimitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The limit's name: `costLimit`, `itemCostLimit` or `maxConcurrentDraws`.
    public var name: String
    /// The value that was refused.
    public var value: Int
    /// The smallest value the limit accepts.
    public var minimum: Int

    /// An error for `value`, refused as `name`, which needs at least `minimum`.
    public init(name: String, value: Int, minimum: Int) {
        self.name = name
        self.value = value
        self.minimum = minimum
    }

    /// What was refused and what is accepted.
    public var description: String { "\(name) must be \(minimum) or more, not \(value)" }

    /// Throws unless `value` is at least `minimum`.
    static func check(_ value: Int, _ name: String, minimum: Int = 0) throws {
        guard value >= minimum else { throw InvalidLimitError(name: name, value: value, minimum: minimum) }
    }
}
