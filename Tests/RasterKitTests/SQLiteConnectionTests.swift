import Foundation
import Testing
@testable import RasterKit

/// The one connection type every store statement goes through: values round-trip in their own
/// storage class, failures name their statement, a transaction that throws leaves nothing.
@Suite struct SQLiteConnectionTests {
    private func memory() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(":memory:", mode: .readWrite, busyTimeout: 0)
        try connection.execute("CREATE TABLE t (v)")
        return connection
    }

    @Test(arguments: [SQLiteValue.null, .integer(.min), .integer(.max), .real(-0.5), .real(1e300), .text(""),
                      .text("é\u{0}ü 🙂"), .blob(Data()), .blob(Data([0, 1, 255]))])
    func valuesRoundTripInTheirOwnStorageClass(value: SQLiteValue) throws {
        let connection = try memory()
        #expect(try connection.execute("INSERT INTO t (v) VALUES (?)", [value]) == 1)
        #expect(try connection.column("SELECT v FROM t") == [value])
        #expect(try connection.column("SELECT count(*) FROM t WHERE v IS ?", [value]) == [1])
    }

    @Test func aFailureNamesItsStatementAndCode() throws {
        let connection = try memory()
        let failure = try #require(throws: SQLiteFailure.self) { try connection.execute("SELECT * FROM missing", []) }
        #expect(failure.resultCode & 0xFF == 1 && failure.sql == "SELECT * FROM missing" && failure.message.contains("missing"))
        let wrapped = DiskCacheError.wrapping(failure, operation: .read, path: "/x.sqlite")
        #expect(wrapped.resultCode == failure.resultCode && wrapped.sql == failure.sql && wrapped.operation == .read)
        #expect(throws: SQLiteFailure.self) { try connection.execute("INSERT INTO t (v) VALUES (?)", [1, 2]) }
    }

    @Test func aTransactionThatThrowsLeavesNothing() throws {
        struct Stop: Error {}
        let connection = try memory()
        #expect(throws: Stop.self) {
            try connection.transaction(immediate: true) {
                try connection.execute("INSERT INTO t (v) VALUES (1)")
                throw Stop()
            }
        }
        #expect(connection.isAutocommit)
        #expect(try connection.column("SELECT count(*) FROM t") == [0])
        try connection.transaction(immediate: true) { try connection.execute("INSERT INTO t (v) VALUES (1)") }
        #expect(try connection.column("SELECT count(*) FROM t") == [1])
    }

    @Test func aLengthLimitRefusesLargerValues() throws {
        let connection = try memory()
        connection.limitLength(to: 100)
        #expect(throws: SQLiteFailure.self) { try connection.execute("INSERT INTO t (v) VALUES (?)", [.blob(Data(count: 101))]) }
        #expect(throws: SQLiteFailure.self) { try connection.column("SELECT zeroblob(1000)") }
    }

    @Test func aReadOnlyConnectionCannotWriteAndAMissingFileCannotOpen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        #expect(throws: SQLiteFailure.self) { try SQLiteConnection(path, mode: .readOnly, busyTimeout: 0) }
        try SQLiteConnection(path, mode: .readWrite, busyTimeout: 0).execute("CREATE TABLE t (v)")
        let reader = try SQLiteConnection(path, mode: .readOnly, busyTimeout: 0)
        let failure = try #require(throws: SQLiteFailure.self) { try reader.execute("INSERT INTO t (v) VALUES (1)") }
        #expect(failure.resultCode & 0xFF == 8, "SQLITE_READONLY")
    }
}
