import RasterKit
/// Everything wrong with a manifest, found in one pass: each problem with its place in the file
/// and what was expected there. Nothing is rendered or written while a manifest has problems.
///
/// ```
/// showcase.yaml:12:7: unknown key "fil" in roundedRect (did you mean "fill"?)
/// showcase.yaml:30:15: unknown component "buton" in use (did you mean "button"?)
/// ```
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One problem, at a line and column of the manifest (both from 1).
    public struct Problem: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The manifest as it was named when loaded.
        public var file: String
        /// From 1.
        public var line: Int
        /// From 1, in Unicode scalars.
        public var column: Int
        /// What is wrong, and what was expected.
        public var message: String

        /// A problem at `line`:`column` of `file`.
        public init(file: String, line: Int, column: Int, message: String) {
            self.file = file
            self.line = line
            self.column = column
            self.message = message
        }

        /// `file:line:column: message`, as compilers print them, so editors can jump to it.
        public var description: String { "\(file):\(line):\(column): \(message)" }

        /// In file order.
        public static func < (lhs: Problem, rhs: Problem) -> Bool {
            (lhs.file, lhs.line, lhs.column, lhs.message) < (rhs.file, rhs.line, rhs.column, rhs.message)
        }
    }

    /// Every problem, in the order they appear in the file, each once.
    public var problems: [Problem]

    /// The problems, in file order and without repeats.
    public init(problems: [Problem]) {
        self.problems = Array(Set(problems)).sorted()
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Where a value sits in a manifest, kept after parsing so planning can point at it too.
struct ManifestLocation: Hashable, Sendable {
    var line: Int
    var column: Int

    static let start = ManifestLocation(line: 1, column: 1)
}

/// Collects problems while a manifest is read; reading goes on after each one so that all of
/// them are reported at once.
final class ManifestProblems {
    let file: String
    private(set) var problems: [ManifestError.Problem] = []

    init(file: String) { self.file = file }

    /// The longest message kept: a problem quotes the value it is about, and a value made from
    /// variables may be megabytes long.
    static let messageLimit = 400

    /// Every problem once: a state is resolved in each of its appearances, and what is wrong
    /// in its light values would otherwise be reported again for each.
    func add(_ message: String, at location: ManifestLocation?) {
        let location = location ?? .start
        let problem = ManifestError.Problem(file: file, line: location.line, column: location.column,
                                            message: Self.shortened(message))
        guard reported.insert(problem).inserted else { return }
        problems.append(problem)
    }

    private var reported: Set<ManifestError.Problem> = []

    /// `message` cut in the middle to ``messageLimit`` characters, saying how much was left out.
    static func shortened(_ message: String) -> String {
        let count = message.count
        guard count > messageLimit else { return message }
        let keep = messageLimit / 2
        return "\(message.prefix(keep))… (\(count - 2 * keep) characters left out) …\(message.suffix(keep))"
    }

    var isEmpty: Bool { problems.isEmpty }

    /// Throws every problem found so far, if there are any.
    func check() throws(ManifestError) {
        if !problems.isEmpty { throw ManifestError(problems: problems) }
    }
}
