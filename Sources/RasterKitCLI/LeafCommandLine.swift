import ArgumentParser

/// `rasterkit svg …` and `rasterkit render …` parsed by the subcommand alone.
///
/// `parseAsRoot()` decodes the root command, and decodes the line twice more to look for
/// `--generate-completion-script`, before it decodes the subcommand. In a process that then
/// copies a few hundred outputs from the render store (a warm CI run into a new folder) that is
/// a tenth of the run, nearly all of it first-time type metadata and protocol conformance
/// look-ups. A line that starts with one of these commands is decoded by that command alone.
/// Their configurations name `rasterkit` as their super-command, which ArgumentParser takes to
/// mean that the line holds no completion request, so it skips that look. The result is used
/// only when it is that command, decoded and validated; anything else (help, `--version`, a
/// completion request, a mistake) returns nil and the caller parses the line from the root, so
/// every message and exit status is the one the full parse gives.
///
/// A line in plain forms skips even that: ``SVGCommand/init(plainArguments:)`` and
/// ``RenderCommand/init(plainArguments:)`` read it without ArgumentParser, whose decoding of the
/// command alone still costs a warm run several milliseconds.
enum LeafCommandLine {
    /// The subcommand parsed this way that is named `name` (the name its configuration gives),
    /// or nil. A switch rather than a dictionary: the dictionary's type is instantiated on first
    /// use, which looks up `String`'s conformances among every one in the binary — a tenth of
    /// what this parse saves.
    static func command(named name: String) -> (any PlainlyReadableCommand.Type)? {
        switch name {
        case "svg": SVGCommand.self
        case "render": RenderCommand.self
        default: nil
        }
    }

    /// The super-command the leaf commands' configurations name: the root's name.
    static let rootName = "rasterkit"

    /// The command `arguments` (without the program's name) run, when it is one of these
    /// and decodes and validates as it is; nil otherwise.
    static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first, let leaf = command(named: name) else { return nil }
        let rest = Array(arguments.dropFirst())
        if let command = leaf.init(plainArguments: rest) { return command }
        guard let command = try? leaf.parseAsRoot(rest), ObjectIdentifier(type(of: command)) == ObjectIdentifier(leaf)
        else { return nil }
        return command
    }
}

/// A leaf command that reads a line in plain forms itself (see ``PlainArguments``).
protocol PlainlyReadableCommand: ParsableCommand {
    /// The command a line in plain forms describes, validated; nil leaves the line to
    /// ArgumentParser.
    init?(plainArguments arguments: [String])
}

extension SVGCommand: PlainlyReadableCommand {}
extension RenderCommand: PlainlyReadableCommand {}
