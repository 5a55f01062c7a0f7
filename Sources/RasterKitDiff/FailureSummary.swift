import Foundation
import RasterKit

/// What `result.json` in a golden failure's artifacts folder records; `GoldenReport` reads it
/// back. Golden assertions in RasterKitTesting write it.
package struct FailureSummary: Codable, Sendable {
    package var identifier: String
    package var golden: String
    package var message: String
    package var differentPixels: Int?
    package var totalPixels: Int?
    package var ratio: Double?
    package var expectedSize: String?
    package var actualSize: String?
    package var recordMode: String
    /// The regions left out of the comparison, as pixel rectangles; absent in older files.
    package var ignoredRegions: [String]?
    /// The smallest rectangle holding every different pixel; absent when none differs (or the
    /// sizes did not match) and in older files.
    package var differenceBounds: ImageDiff.PixelRect?
    /// The different pixel whose colour changed most; absent like `differenceBounds`.
    package var largestDifference: LargestChange?
    /// What failed; absent in older files (which `rasterkit goldens accept` then leaves alone).
    package var kind: Kind?
    /// The goldens folder `golden` lies in, as the assertion resolved it (goldens kept as files).
    package var goldensRoot: String?
    /// The lockfile entry of a golden kept in a golden lockfile.
    package var lock: LockReference?

    /// A locked golden as `rasterkit goldens accept` needs it: where to lock the actual image,
    /// under which key, and which remote cache keeps its PNG.
    package struct LockReference: Codable, Sendable, Equatable {
        /// The lockfile's path.
        package var lockfile: String
        /// The golden's name in it.
        package var name: String
        /// The fingerprint of the actual image's render, which the entry gets when it is accepted.
        package var key: String
        /// The remote cache the check used, when it had one.
        package var remote: String?
        /// The environment the actual image was rendered in, which the entry gets.
        package var environment: RenderEnvironment?
    }

    /// What a golden failure was: `mismatch`, `sizeMismatch`, `missing` and `unreadable` (a
    /// golden that exists and cannot be read or fetched) have an actual image a reviewer may
    /// accept; `nondeterministic` (two fresh renders differed) has none to accept.
    package enum Kind: String, Codable, Sendable {
        case mismatch, sizeMismatch, missing, unreadable, nondeterministic

        /// Whether `rasterkit goldens accept` may copy the actual image over the golden.
        package var isAcceptable: Bool { self != .nondeterministic }
    }

    /// ``ImageDiff/LargestDifference`` as `result.json` spells it: colours as `#RRGGBBAA`.
    package struct LargestChange: Codable, Sendable, Equatable {
        package var x: Int
        package var y: Int
        package var expected: String
        package var actual: String
        package var distance: Double

        /// `(14, 3): #202020FF → #00FF00FF, distance 0.71`.
        package var text: String {
            "(\(x), \(y)): \(expected) → \(actual), distance \(String(format: "%.2f", distance))"
        }
    }

    package init(identifier: String, golden: String, message: String, differentPixels: Int?, totalPixels: Int?,
                 ratio: Double?, expectedSize: String?, actualSize: String?, recordMode: String,
                 ignoredRegions: [String] = [], differenceBounds: ImageDiff.PixelRect? = nil,
                 largestDifference: ImageDiff.LargestDifference? = nil, kind: Kind? = nil, goldensRoot: String? = nil) {
        self.ignoredRegions = ignoredRegions.isEmpty ? nil : ignoredRegions
        self.kind = kind
        self.goldensRoot = goldensRoot
        self.differenceBounds = differenceBounds
        self.largestDifference = largestDifference.map {
            LargestChange(x: $0.x, y: $0.y, expected: ImageDiff.LargestDifference.hex($0.expected),
                          actual: ImageDiff.LargestDifference.hex($0.actual), distance: $0.distance)
        }
        self.identifier = identifier
        self.golden = golden
        self.message = message
        self.differentPixels = differentPixels
        self.totalPixels = totalPixels
        self.ratio = ratio
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.recordMode = recordMode
    }
}
