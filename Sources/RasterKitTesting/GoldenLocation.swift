import Foundation
import RasterKit
import Synchronization

/// Where a golden lives and where its failure artifacts go:
/// `<package root>/Goldens/<TestFile>/<test>[.<name>]@<scale>x.png`, with the package root found
/// by walking up from the test file to `Package.swift`.
struct GoldenLocation {
    let goldenURL: URL
    /// The goldens folder `goldenURL` lies in.
    let goldensDirectory: URL
    let artifactsDirectory: URL
    /// Where the run records of `rasterkit goldens unused` go (see ``GoldenRunLog``).
    let runsDirectory: URL
    /// `<TestFile>/<test>[.<name>]@<scale>x`, for messages and reports.
    let identifier: String

    init(filePath: String, function: String, name: String?, scale: Double, goldensDirectory: URL?,
         environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let testFile = URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent
        // "primaryButton()" or "testPrimaryButton()"; parameters are dropped, names must be explicit.
        let test = String(function.prefix { $0 != "(" })
        if let name, !GoldenLocation.isSafe(name) { throw GoldenError.invalidName(name) }
        let scaleText = scale.rounded() == scale ? String(Int(scale)) : String(scale)
        let fileName = test + (name.map { "." + $0 } ?? "") + "@\(scaleText)x"
        identifier = testFile + "/" + fileName

        let root = try? GoldenLocation.packageRoot(above: filePath)
        let goldens: URL
        if let goldensDirectory {
            goldens = goldensDirectory
        } else if let custom = environment["RASTERKIT_GOLDENS"], !custom.isEmpty {
            goldens = URL(fileURLWithPath: custom, isDirectory: true)
        } else if let root {
            goldens = root.appendingPathComponent("Goldens", isDirectory: true)
        } else {
            throw GoldenError.packageRootNotFound(searchedFrom: filePath)
        }
        self.goldensDirectory = goldens
        goldenURL = goldens.appendingPathComponent(testFile, isDirectory: true).appendingPathComponent(fileName + ".png")

        let artifacts: URL
        if let custom = environment["RASTERKIT_ARTIFACTS"], !custom.isEmpty {
            artifacts = URL(fileURLWithPath: custom, isDirectory: true)
        } else {
            artifacts = (root ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .appendingPathComponent(".build/rasterkit-artifacts", isDirectory: true)
        }
        artifactsDirectory = artifacts.appendingPathComponent(testFile + "." + fileName, isDirectory: true)
        if let custom = environment["RASTERKIT_GOLDEN_RUNS"], !custom.isEmpty {
            runsDirectory = URL(fileURLWithPath: custom, isDirectory: true)
        } else {
            runsDirectory = (root ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .appendingPathComponent(".build/rasterkit-golden-runs", isDirectory: true)
        }
    }

    /// Letters, digits, `-`, `_` and `.` only: names become file names.
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
        }
    }

    static func packageRoot(above filePath: String) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        throw GoldenError.packageRootNotFound(searchedFrom: filePath)
    }

    /// Golden files asserted in this process: a second assertion of one file in a run means two
    /// calls in one test share a name, which would make them overwrite each other.
    private static let used = Lock<Set<String>>([])

    /// Claims the golden for this run; false when it was already asserted.
    func claim() -> Bool {
        GoldenLocation.used.withLock { $0.insert(goldenURL.standardizedFileURL.path).inserted }
    }
}
