import Foundation
import RasterKit

/// A component with noisy pixels, so its PNG is as large as real artwork's and a batch of them
/// keeps the store's writer busy long enough to be killed in the middle of one.
struct StoreSample: Rasterizable {
    var label: String
    var side: Double = 96

    static let stateKeyPaths: [PartialKeyPath<StoreSample> & Sendable] = [\.label, \.side]

    func draw(in canvas: Canvas, size: Size) throws {
        // FNV-1a of the label seeds a small generator: the same label draws the same pixels.
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let cell = 4.0
        var y = 0.0
        while y < size.height {
            var x = 0.0
            while x < size.width {
                canvas.fill(Path(rect: Rect(x: x, y: y, width: cell, height: cell)),
                            with: .color(Color(red: next(), green: next(), blue: next(), alpha: 1)))
                x += cell
            }
            y += cell
        }
    }
}

/// The probe's store subcommands: several of them run at once against one store file.
enum StoreCommands {
    static let size = Size(width: 96, height: 96)

    /// Runs `store-…` with its arguments; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        do {
            switch arguments.first {
            case "store-write": return try write(rest)
            case "store-render": return try render(rest)
            case "store-verify": return try verify(rest)
            case "store-flood": return try flood(rest)
            case "store-remove":
                // `store-remove <path> <digest>`: removes one key's entry; prints `removed=0|1`.
                guard rest.count == 2 else { return usage() }
                let disk = try DiskCache(at: URL(fileURLWithPath: rest[0]))
                print("removed=\(try disk.remove(digest: rest[1]) ? 1 : 0)")
                try disk.close()
                return 0
            case "store-default":
                // Opens (creating) the default store, and prints where it is.
                let disk = try DiskCache.default
                print(disk.url.path)
                try disk.flush()
                return 0
            default: return usage()
            }
        } catch {
            FileHandle.standardError.write(Data("RasterKitProbe \(arguments.first ?? ""): \(error)\n".utf8))
            return 1
        }
    }

    /// `store-write <path> <count> <prefix> [flush-every]`: renders `prefix-0` … through a
    /// rasterizer backed by the store, flushing every `flush-every` renders and printing
    /// `committed N` once the first N are on disk.
    static func write(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 3, let count = Int(arguments[1]) else { return usage() }
        let every = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64
        let disk = try DiskCache(at: URL(fileURLWithPath: arguments[0]))
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 4 << 20, disk: disk))
        for index in 0..<count {
            _ = try rasterizer.image(for: StoreSample(label: "\(arguments[2])-\(index)"), size: size, scale: 2)
            if (index + 1) % every == 0 || index + 1 == count {
                try disk.flush()
                // Unbuffered, so a test reading the pipe sees each line as soon as it is true.
                FileHandle.standardOutput.write(Data("committed \(index + 1)\n".utf8))
            }
        }
        let statistics = try disk.statistics
        print("done writes=\(statistics.writes) failures=\(statistics.writeFailures)")
        try disk.close()
        return 0
    }

    /// `store-flood <path> <count> <prefix> <flush-every> <side>`: stores one incompressible
    /// `side`×`side` image under the keys of `prefix-0` …, flushing and printing `committed N`
    /// every `flush-every`: large transactions, which spill pages into the WAL before they
    /// commit, for a test to kill the process in the middle of one.
    static func flood(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 5, let count = Int(arguments[1]), let every = Int(arguments[3]),
              let side = Int(arguments[4]) else { return usage() }
        var generator = SystemRandomNumberGenerator()
        let bitmap = RGBABitmap.make(width: side, height: side) { bytes in
            for index in bytes.indices { bytes[index] = index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &generator) }
        }
        let image = try RasterImage(pngData: bitmap.pngData(compression: .fast))
        let disk = try DiskCache(at: URL(fileURLWithPath: arguments[0]))
        let rasterizer = Rasterizer()
        for index in 0..<count {
            disk.store(image, for: try rasterizer.cacheKey(for: StoreSample(label: "\(arguments[2])-\(index)"), size: size, scale: 2))
            if (index + 1) % every == 0 || index + 1 == count {
                try disk.flush()
                FileHandle.standardOutput.write(Data("committed \(index + 1)\n".utf8))
            }
        }
        try disk.close()
        return 0
    }

    /// `store-render <path> <count> <prefix>`: requests `prefix-0` … and prints
    /// `draws=D disk=H`: how many had to be drawn and how many came from the store.
    static func render(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 3, let count = Int(arguments[1]) else { return usage() }
        let disk = try DiskCache(at: URL(fileURLWithPath: arguments[0]))
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 4 << 20, disk: disk))
        for index in 0..<count {
            _ = try rasterizer.image(for: StoreSample(label: "\(arguments[2])-\(index)"), size: size, scale: 2)
        }
        let statistics = rasterizer.statistics
        print("draws=\(statistics.draws) disk=\(statistics.diskHits)")
        try disk.close()
        return 0
    }

    /// `store-verify <path> <count> <prefix>`: prints `present=P missing=M undecodable=U` for
    /// `prefix-0` …, reading PNG bytes without drawing or repairing anything.
    static func verify(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 3, let count = Int(arguments[1]) else { return usage() }
        let disk = try DiskCache(at: URL(fileURLWithPath: arguments[0]))
        let rasterizer = Rasterizer()
        var present = 0, missing = 0, undecodable = 0
        for index in 0..<count {
            let key = try rasterizer.cacheKey(for: StoreSample(label: "\(arguments[2])-\(index)"), size: size, scale: 2)
            guard let data = disk.pngData(for: key) else { missing += 1; continue }
            if (try? RasterImage(pngData: data)) == nil { undecodable += 1 } else { present += 1 }
        }
        print("present=\(present) missing=\(missing) undecodable=\(undecodable)")
        try disk.close()
        return 0
    }

    private static func usage() -> Int32 {
        FileHandle.standardError.write(Data("usage: RasterKitProbe store-write|store-render|store-verify <path> <count> <prefix> [flush-every] | store-flood <path> <count> <prefix> <flush-every> <side> | store-remove <path> <digest> | store-default\n".utf8))
        return 2
    }
}
