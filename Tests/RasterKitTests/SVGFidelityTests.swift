import Foundation
import RasterKitTestSupport
import Synchronization
import Testing
import RasterKitTesting
@testable import RasterKit

/// Real icons from Debian's icon themes, drawn by ``SVGImage`` (`.stretch`) and by
/// `rsvg-convert -w N -h N`, must match within pixelmatch's threshold 0.1 on at least 99.9% of
/// the pixels of every icon.
///
/// The icons are fetched at test time by `Scripts/fetch-icons.sh` into `.build/icons` (or
/// `$RASTERKIT_ICON_DIR`), never committed. Locally the test is skipped when they cannot be
/// had; on CI (`CI=true`) missing icons or a missing `rsvg-convert` fail it.
@Suite struct SVGFidelityTests {
    static let sizes = [48, 96]
    static let requiredIdenticalFraction = 0.999

    @Test(.enabled(if: FidelityIcons.shouldRun,
                   "no Debian icon sets: run Scripts/fetch-icons.sh (needs apt-get) and install librsvg2-bin"))
    func matchesRsvgConvertOnRealIconSets() throws {
        let rsvgConvert = try #require(FidelityIcons.rsvgConvert, "rsvg-convert is missing: install Debian's librsvg2-bin")
        let sets = FidelityIcons.sets()
        try #require(!sets.isEmpty, "no icon sets in \(FidelityIcons.directory.path): run Scripts/fetch-icons.sh")
        for set in sets {
            let results = try FidelityIcons.compare(set, sizes: Self.sizes, rsvgConvert: rsvgConvert)
            #expect(results.count >= 100, "\(set.lastPathComponent): only \(results.count) icons compared")
            for result in results where result.identicalFraction < Self.requiredIdenticalFraction {
                Issue.record("""
                    \(set.lastPathComponent)/\(result.icon) at \(result.size): \
                    \(String(format: "%.3f", result.identicalFraction * 100))% of pixels match rsvg-convert \
                    (\(result.detail)); at least \(Self.requiredIdenticalFraction * 100)% must
                    """)
            }
            let worst = results.min { ($0.identicalFraction, $0.isByteIdentical ? 1 : 0) < ($1.identicalFraction, $1.isByteIdentical ? 1 : 0) }
            let exact = results.filter(\.isByteIdentical).count
            print("SVG fidelity \(set.lastPathComponent): \(results.count / Self.sizes.count) icons × \(Self.sizes), "
                  + "\(exact)/\(results.count) byte-identical, worst "
                  + String(format: "%.3f%%", (worst?.identicalFraction ?? 1) * 100) + " (\(worst?.icon ?? "-"))")
        }
    }
}

/// Finds, fetches and compares the icon sets.
enum FidelityIcons {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var directory: URL {
        if let custom = ProcessInfo.processInfo.environment["RASTERKIT_ICON_DIR"], !custom.isEmpty {
            return URL(fileURLWithPath: custom)
        }
        return packageRoot.appendingPathComponent(".build/icons")
    }

    static var isCI: Bool { ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "") }

    static let rsvgConvert: URL? = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"]
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Always on CI (where missing icons must fail); locally only when icons and rsvg-convert
    /// are there or can be fetched.
    static var shouldRun: Bool {
        if isCI { return true }
        return rsvgConvert != nil && !sets().isEmpty
    }

    /// Each folder of the icon directory holding SVGs, fetching them first when there are none.
    static func sets() -> [URL] {
        fetchOnce.withLock { fetched in
            if !fetched, listSets().isEmpty, ProcessInfo.processInfo.environment["RASTERKIT_FETCH_ICONS"] != "0" {
                runFetchScript()
            }
            fetched = true
        }
        return listSets()
    }

    private static let fetchOnce = Lock(false)

    private static func listSets() -> [URL] {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return folders.sorted().map { directory.appendingPathComponent($0) }.filter { !svgFiles(in: $0).isEmpty }
    }

    static func svgFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".svg") }.sorted()
    }

    private static func runFetchScript() {
        do {
            try ChildProcess("/bin/bash", [packageRoot.appendingPathComponent("Scripts/fetch-icons.sh").path, directory.path],
                             output: .inherit, error: .inherit).waitUntilExit(timeout: .seconds(600))
        } catch {
            print("SVG fidelity: cannot run Scripts/fetch-icons.sh: \(error)")
        }
    }

    struct Result: Sendable {
        var icon: String
        var size: Int
        var identicalFraction: Double
        var isByteIdentical: Bool
        var detail: String
    }

    /// Renders every icon of `set` both ways at every size, two icons at a time.
    static func compare(_ set: URL, sizes: [Int], rsvgConvert: URL) throws -> [Result] {
        let icons = svgFiles(in: set)
        let scratch = try TestSupport.temporaryDirectory("fidelity-\(set.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let results = LockedResults()
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 0))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < icons.count else { return }
                let icon = icons[index]
                for size in sizes {
                    let result = compareOne(set.appendingPathComponent(icon), size: size, rasterizer: rasterizer,
                                            rsvgConvert: rsvgConvert,
                                            scratch: scratch.appendingPathComponent("\(worker)-\(size).png"))
                    if let result { results.append(result) }
                }
            }
        }
        return results.all
    }

    /// Results gathered from two threads, behind a lock ThreadSanitizer understands.
    final class LockedResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result] = []

        func append(_ result: Result) { lock.withLock { results.append(result) } }
        var all: [Result] { lock.withLock { results } }
    }

    /// nil when rsvg-convert itself cannot draw the icon: there is nothing to compare with.
    private static func compareOne(_ file: URL, size: Int, rasterizer: Rasterizer, rsvgConvert: URL,
                                   scratch: URL) -> Result? {
        let name = file.lastPathComponent
        guard let converted = try? ChildProcess(rsvgConvert.path, ["-w", "\(size)", "-h", "\(size)", file.path, "-o", scratch.path],
                                                output: .null, error: .null).waitUntilExit(),
              converted == .success, let data = try? Data(contentsOf: scratch),
              let expected = try? RGBABitmap(pngData: data) else { return nil }
        do {
            let document = try SVGDocument(contentsOf: file)
            let image = try rasterizer.image(for: SVGImage(document, contentMode: .stretch), size: Size(Double(size)))
            let actual = RGBABitmap(image)
            let diff = try ImageDiff.compare(expected, actual, options: ImageDiff.Options(threshold: 0.1), makeDiffImage: false)
            return Result(icon: name, size: size, identicalFraction: 1 - diff.ratio, isByteIdentical: diff.isIdentical,
                          detail: "\(diff.differentPixels) of \(diff.totalPixels) pixels differ")
        } catch {
            return Result(icon: name, size: size, identicalFraction: 0, isByteIdentical: false,
                          detail: "RasterKit failed where rsvg-convert did not: \(error)")
        }
    }
}
