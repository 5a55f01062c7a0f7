import Foundation
import RasterKit

/// Processed and fallback components with fixed states and parameters, whose keys must be the
/// same in every process: `processed-digests` prints them, one "name digest" line each.
enum ProcessedSamples {
    struct Invert: RasterProcessor {
        var strength: Double
        var identifier: String { "probe.invert.v1" }
        func process(_ image: RasterImage) throws -> RasterImage { image }
    }

    static func keys() throws -> [(String, CacheKey)] {
        let rasterizer = Rasterizer()
        let chip = ProbeSamples.Chip(title: "Déjà vu", count: 42, enabled: true, badge: .count(3),
                                     tint: ProbeSamples.Tint(red: 0.1, green: 0.2, blue: 0.3, alpha: 1), subtitle: "s")
        let size = Size(width: 120, height: 32)
        let rounded = chip.processed(RasterProcessors.RoundedCorners(radius: 8))
        let chain = chip.processed(RasterProcessors.Resize(size: Size(48), contentMode: .aspectFill),
                                   RasterProcessors.Crop(rect: Rect(x: 1, y: 2, width: 30, height: 20)),
                                   RasterProcessors.Circle(), RasterProcessors.Tint(color: Color(red: 0.2, green: 0.4, blue: 0.9)),
                                   RasterProcessors.Opacity(0.5), RasterProcessors.GaussianBlur(radius: 2),
                                   RasterProcessors.Padding(EdgeInsets(all: 3)),
                                   RasterProcessors.DropShadow(Shadow(color: .black.withAlpha(0.3))),
                                   RasterProcessors.Anonymous(identifier: "probe.anonymous.v1") { $0 },
                                   Invert(strength: 0.25))
        let tinted = ProbeSamples.Panel(style: 2).processed(RasterProcessors.Tint(color: .red))
        let fallback = ProbeSamples.Panel(style: 1).fallback(chip)
        return [
            ("processed-rounded", try rasterizer.cacheKey(for: rounded, size: size, scale: 2)),
            ("processed-chain", try rasterizer.cacheKey(for: chain, size: size, scale: 2)),
            ("processed-ninesliced", try rasterizer.cacheKey(for: tinted, size: size, scale: 3)),
            ("fallback", try rasterizer.cacheKey(for: fallback, size: size, scale: 1)),
        ]
    }
}
