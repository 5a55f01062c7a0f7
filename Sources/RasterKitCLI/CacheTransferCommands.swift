import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments

/// `rasterkit cache export FILE` and `rasterkit cache import FILE`: move a render store between
/// machines (a CI cache, an artifact) as one file, checked entry by entry when it comes back in.
extension CacheCommand {
    /// `rasterkit cache export FILE`: a compact, consistent copy of the store.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a compact copy of the render store to a file, to move it to another machine.")

        @Argument(help: ArgumentHelp("The file to write (replaced if it is a file).", valueName: "file"))
        var file: String

        @OptionGroup var store: CacheStoreOptions

        func validate() throws {
            try PathChecks.requireNonEmpty(file, "the export file")
            try PathChecks.requireReplaceable(file, "the export file")
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: folder) else {
                throw ValidationError("the export file \(file): the folder \(folder) does not exist")
            }
            guard !PathChecks.sameFile(file, store.url.path) else {
                throw ValidationError("the export file \(file) is the store itself")
            }
        }

        func run() throws {
            let report = store.withStore(byteLimit: nil) { disk in
                try disk.export(to: URL(fileURLWithPath: file))
                let statistics = try disk.statistics
                var report = CacheReport(path: store.url.path, entries: statistics.count, bytes: statistics.totalBytes)
                report.exportedTo = file
                return report
            }
            guard let report else { store.fail("there is no store at '\(store.url.path)' to export") }
            store.print(report)
        }
    }

    /// `rasterkit cache import FILE`: adds a file's checked entries to the store.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the renders of an exported store file to the render store, checking each one.",
            discussion: """
                The file must be a RasterKit store that passes SQLite's integrity check; each entry must \
                match its checksum, or it is left out and counted as damaged. Entries the store already \
                holds are kept. The store is created if it does not exist, and pruned to its byte limit.
                """)

        @Argument(help: ArgumentHelp("The exported store file to read.", valueName: "file"))
        var file: String

        @OptionGroup var store: CacheStoreOptions

        func validate() throws {
            try PathChecks.requireNonEmpty(file, "the import file")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                throw ValidationError("the import file \(file) does not exist")
            }
            guard !isDirectory.boolValue else { throw ValidationError("the import file \(file) is a folder") }
            guard !PathChecks.sameFile(file, store.url.path) else {
                throw ValidationError("the import file \(file) is the store itself")
            }
        }

        func run() throws {
            store.checkDirectory()
            let url = store.url
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let disk = try DiskCache(at: url)
                let imported = try disk.importEntries(from: URL(fileURLWithPath: file))
                let statistics = try disk.statistics
                try disk.close()
                var report = CacheReport(path: url.path, entries: statistics.count, bytes: statistics.totalBytes)
                report.imported = imported
                store.print(report)
                if imported.damaged > 0 { throw ExitStatus.partialFailure }
            } catch let status as ExitCode {
                throw status
            } catch {
                store.fail(error)
            }
        }
    }
}
