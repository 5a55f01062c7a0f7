/// Why a render server cannot start: a manifest with problems, a missing icon folder, a bad
/// option. `rasterkit serve` prints it and exits 2.
public struct ServerSetupError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, for a person.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
