import Foundation
import Testing
import XCTest

/// Records a golden failure in whichever framework is running the test: an issue (with
/// attachments) under Swift Testing, `XCTFail` under XCTest.
enum TestFailureReporter {
    /// Where the assertion was written.
    struct Location {
        var fileID: String
        var filePath: StaticString
        var line: UInt
        var column: UInt

        var path: String { "\(filePath)" }
    }

    /// A difference under the `compare` record mode: one line on standard error, no failure.
    static func note(_ message: String, artifacts: URL) {
        let line = "rasterkit compare: " + (message.split(separator: "\n").first.map(String.init) ?? message)
            + " (artifacts: \(artifacts.path))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func fail(_ message: String, attachments: [(name: String, bytes: [UInt8])] = [], at location: Location) {
        if Test.current != nil {
            let source = SourceLocation(fileID: location.fileID, filePath: location.path, line: Int(location.line),
                                        column: Int(location.column))
            for attachment in attachments { Attachment.record(attachment.bytes, named: attachment.name, sourceLocation: source) }
            Issue.record(Comment(rawValue: message), sourceLocation: source)
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }
}
