import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments

extension CacheCommand {
    /// `rasterkit cache remove --type NAME | --older-than DURATION | --key DIGEST`: removes the
    /// entries of one component type, those written more than a duration ago, or the one entry
    /// whose key has a digest. Exactly one of the three is given; every value is checked before
    /// the store is opened.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the entries of one type, those older than a duration, or one key.",
            discussion: """
                DURATION is a number followed by s, m, h, d or w (seconds, minutes, hours, days, \
                weeks), such as 90s, 36h or 2w; a plain number is seconds. DIGEST is the 32 \
                hexadecimal digits of a cache key, as `CacheKey.digest` prints them.
                """)

        @OptionGroup var store: CacheStoreOptions

        @Option(name: .customLong("type"),
                help: ArgumentHelp("Remove every entry of this component type: MyApp.Badge, or Badge when one module's type has the name.",
                                   valueName: "name"))
        var typeName: String?

        @Option(name: .customLong("older-than"),
                help: ArgumentHelp("Remove every entry written more than this long ago.", valueName: "duration"))
        var olderThan: String?

        @Option(name: .customLong("key"),
                help: ArgumentHelp("Remove the entry whose key has this digest.", valueName: "digest"))
        var digest: String?

        func validate() throws {
            let given = [typeName, olderThan, digest].compactMap { $0 }.count
            guard given == 1 else {
                throw ValidationError(given == 0 ? "give one of --type, --older-than or --key"
                                      : "--type, --older-than and --key cannot be used together")
            }
            if let typeName, typeName.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--type must name a component type")
            }
            if let olderThan { _ = try Self.seconds(olderThan) }
            if let digest {
                do { _ = try CacheKeyDigest(digest) } catch { throw ValidationError("--key: \(error)") }
            }
        }

        func run() throws {
            let removed = store.withStore(byteLimit: nil) { disk in
                let count: Int
                if let typeName {
                    count = try disk.removeAll(where: .typeName(typeName))
                    if count == 0 { Self.noteNoEntries(of: typeName, storedTypes: try disk.typeSummaries().map(\.typeName)) }
                } else if let olderThan {
                    count = try disk.removeAll(where: .olderThan(try Self.seconds(olderThan)))
                } else {
                    count = try disk.remove(digest: digest ?? "") ? 1 : 0
                }
                let statistics = try disk.statistics
                var report = CacheReport(path: store.url.path, entries: statistics.count, bytes: statistics.totalBytes,
                                         expired: statistics.expiredCount)
                report.removed = count
                return report
            } ?? CacheReport(path: store.url.path, missing: true, removed: 0)
            store.print(removed)
        }

        /// Says on standard error that no entry has the type asked for, with the stored type it
        /// most likely meant: a misspelt name otherwise removes nothing without a word.
        static func noteNoEntries(of typeName: String, storedTypes: [String]) {
            let names = storedTypes.flatMap { name in [name, name.split(separator: ".", maxSplits: 1).last.map(String.init) ?? name] }
            FileHandle.standardError.write(Data("rasterkit cache remove: no entries of type \(typeName)\(Suggestion.hint(for: typeName, in: names))\n".utf8))
        }

        /// Seconds in a duration such as `90s`, `36h` or `2w` (a plain number is seconds).
        static func seconds(_ text: String) throws -> TimeInterval {
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            var number = Substring(trimmed)
            var unit = 1.0
            if let last = trimmed.last, let factor = units[last] {
                number = number.dropLast()
                unit = factor
            }
            // Only digits and one point: no sign, exponent, "inf" or "nan" gets through Double's parser.
            let isPlainNumber = !number.isEmpty && number.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
                && number.filter { $0 == "." }.count <= 1 && number != "."
            guard isPlainNumber, let value = Double(number), (value * unit).isFinite else {
                throw ValidationError("--older-than '\(text)' is not a duration: use a number of seconds, or a number "
                                      + "followed by s, m, h, d or w (such as 90s, 36h, 2w)")
            }
            return value * unit
        }
    }
}

/// A digest checked the way the library checks it, so a bad one is a usage error before the
/// store is opened.
private struct CacheKeyDigest {
    init(_ text: String) throws {
        let isHex = text.utf8.count == 32 && text.allSatisfy { $0.isHexDigit && $0.isASCII }
        guard isHex else { throw CacheRemovalError.invalidDigest(text) }
    }
}
