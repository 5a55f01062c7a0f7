/// Comma-separated values as RFC 4180 writes them: a header row naming the fields, then one row
/// per record; a field in double quotes may hold commas, line breaks and `""` for a quote. Rows
/// end with LF or CRLF; a final line break is optional.
struct CSVTable {
    /// One row: its fields, and the line it starts on (from 1).
    struct Row {
        var line: Int
        var fields: [String]
    }

    /// Why the text is not CSV, and where.
    struct Failure: Error {
        var line: Int
        var message: String
    }

    let rows: [Row]

    /// Reads `text`, refusing more than `maximumRows` rows or `maximumFields` fields in a row.
    init(_ text: String, maximumRows: Int, maximumFields: Int) throws(Failure) {
        var rows: [Row] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, rowLine = 1
        var quoted = false, wasQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        func endField() throws(Failure) {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            wasQuoted = false
            guard fields.count <= maximumFields else { throw Failure(line: rowLine, message: "a row has more than \(maximumFields) fields") }
        }
        func endRow() throws(Failure) {
            try endField()
            rows.append(Row(line: rowLine, fields: fields))
            fields = []
            guard rows.count <= maximumRows + 1 else { throw Failure(line: rowLine, message: "more than \(maximumRows) records") }
        }
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                        wasQuoted = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                try endField()
            case "\r" where pending == "\n":
                continue
            case "\n":
                try endRow()
                line += 1
                rowLine = line
            case "\"":
                guard field.isEmpty, !wasQuoted else {
                    throw Failure(line: line, message: "a quote inside an unquoted field; quote the whole field and double its quotes")
                }
                quoted = true
            default:
                guard !wasQuoted else { throw Failure(line: line, message: "text after a quoted field's closing quote") }
                field.append(scalar)
            }
        }
        if quoted { throw Failure(line: rowLine, message: "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { try endRow() }
        self.rows = rows
    }
}
