/// Names (of tests, goldens, folders) and messages put into a report's Markdown, HTML and JUnit,
/// escaped for each: a name is text, never markup — no link, heading, table row or element a
/// test name could smuggle into a CI summary — and always one line.
enum ReportText {
    /// `text` on one line: every line terminator Unicode has (CR, LF, VT, FF, NEL, U+2028,
    /// U+2029) and every other control character becomes a space.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            isControlOrBreak(scalar) ? " " : scalar
        }))
    }

    /// `text` as one POSIX shell word: in single quotes, each `'` in it written `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `text` as an inline code span of GitHub-flavoured Markdown, safe in a table cell: on one
    /// line, its pipes escaped (which a table reads even in code), and fenced by more backticks
    /// than any run of them inside it, so nothing in it is read as a link, emphasis, HTML, a
    /// heading or another cell.
    static func codeSpan(_ text: String) -> String {
        let line = oneLine(text).replacingOccurrences(of: "|", with: "\\|")
        var longest = 0, run = 0
        for character in line {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A space inside the fence keeps a backtick at either end from joining it.
        let padded = line.hasPrefix("`") || line.hasSuffix("`") ? " " + line + " " : line
        return fence + padded + fence
    }

    /// HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as entities, control
    /// characters as spaces.
    static func html(_ text: String, multiline: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n" where multiline: result += "\n"
            case _ where isControlOrBreak(scalar): result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// XML 1.0 text or a quoted attribute value. In an attribute, line breaks and tabs are
    /// character references (a parser would turn them into spaces); control characters XML does
    /// not allow, even escaped, become `?`.
    static func xml(_ text: String, attribute: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += attribute ? "&#10;" : "\n"
            case "\r": result += "&#13;"
            case "\t": result += attribute ? "&#9;" : "\t"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControlOrBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }

}
