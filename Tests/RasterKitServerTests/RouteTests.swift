import Foundation
import RasterKit
import RasterKitBatch
@testable import RasterKitServer
import Testing

@Suite("Routes") struct RouteTests {
    @Test func componentPNGIsDrawnThenServedFromMemory() async throws {
        let server = try await TestServer.start()
        let first = try await server.request("/components/badge/normal.png?scale=2")
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "image/png")
        #expect(first.body.prefix(8) == pngSignature)
        let image = try RasterImage(pngData: first.body)
        #expect(image.pixelWidth == 80 && image.pixelHeight == 40)
        #expect(first.header("X-RasterKit-Origin") == "drawn")
        let key = try #require(first.header("X-RasterKit-Key"))
        #expect(key.count == 32)
        #expect(first.header("ETag") == "\"\(key)\"")
        #expect(first.header("Cache-Control") == "public, max-age=3600")
        let second = try await server.request("/components/badge/normal.png?scale=2")
        #expect(second.header("X-RasterKit-Origin") == "memory")
        #expect(second.body == first.body)
        // Another state is another render with another key.
        let alert = try await server.request("/components/badge/alert.png?scale=2")
        #expect(alert.status == 200 && alert.header("X-RasterKit-Key") != key)
        #expect(server.service.rasterizer.statistics.draws == 2)
        try await server.stop()
    }

    @Test func explicitSizeAndNineSliceStretching() async throws {
        let server = try await TestServer.start()
        let badge = try await server.request("/components/badge/normal.png?size=100x30")
        #expect(try RasterImage(pngData: badge.body).pixelWidth == 100)
        let small = try await server.request("/components/panel/default.png?size=64x48")
        let large = try await server.request("/components/panel/default.png?size=200x100")
        #expect(try RasterImage(pngData: large.body).pixelWidth == 200)
        #expect(try RasterImage(pngData: large.body).pixelHeight == 100)
        // One render serves both sizes (the key leaves the size out), but the tags differ.
        #expect(small.header("X-RasterKit-Key") == large.header("X-RasterKit-Key"))
        #expect(small.header("ETag") != large.header("ETag"))
        #expect(server.service.rasterizer.statistics.draws == 2)
        try await server.stop()
    }

    @Test func iconsWithTintAndNestedPaths() async throws {
        let server = try await TestServer.start()
        let plain = try await server.request("/icons/star.png?size=24&scale=2")
        #expect(plain.status == 200)
        #expect(try RasterImage(pngData: plain.body).pixelWidth == 48)
        let tinted = try await server.request("/icons/star.png?size=24&scale=2&tint=D93B3B")
        #expect(tinted.status == 200 && tinted.header("ETag") != plain.header("ETag"))
        let pixel = try RasterImage(pngData: tinted.body).pixel(x: 24, y: 24)
        #expect(pixel.red == 0xD9 && pixel.green == 0x3B && pixel.alpha == 255)
        // One colour vocabulary: the name, and the digits with `#` (encoded), draw what the digits do.
        let named = try await server.request("/icons/star.png?size=24&scale=2&tint=orange")
        let digits = try await server.request("/icons/star.png?size=24&scale=2&tint=%23FFA500")
        #expect(named.status == 200 && digits.status == 200 && named.body == digits.body && named.header("ETag") == digits.header("ETag"))
        #expect(try RasterImage(pngData: named.body).pixel(x: 24, y: 24).green == 0xA5)
        let misspelt = try await server.request("/icons/star.png?size=24&tint=bleu")
        #expect(misspelt.status == 400 && misspelt.errorMessage?.contains("did you mean \"blue\"") == true, "\(misspelt.errorMessage ?? "")")
        let nested = try await server.request("/icons/nested/dot.png?size=16")
        #expect(nested.status == 200)
        try await server.stop()
    }

    @Test func webpPDFAndSVG() async throws {
        let server = try await TestServer.start()
        let webp = try await server.request("/components/badge/normal.webp")
        #expect(webp.status == 200 && webp.header("Content-Type") == "image/webp")
        let bitmap = try WebPBatchEncoder.decode(webp.body)
        #expect(bitmap.width == 40)
        let pdf = try await server.request("/components/badge/normal.pdf")
        #expect(pdf.status == 200 && pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.body.starts(with: Data("%PDF-".utf8)))
        #expect(pdf.header("ETag") != nil, "a document is tagged like an image")
        let svg = try await server.request("/icons/nested/dot.svg?size=16")
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml")
        #expect(String(decoding: svg.body, as: UTF8.self).contains("<svg"))
        let gif = try await server.request("/components/badge/normal.gif")
        #expect(gif.status == 404)
        #expect(gif.errorMessage?.contains(".pdf, .png, .svg, .webp") == true)
        try await server.stop()
    }

    @Test func componentsInTheirAppearances() async throws {
        let server = try await TestServer.start()
        let light = try await server.request("/components/badge/normal.png")
        let dark = try await server.request("/components/badge/normal.png?appearance=dark")
        #expect(light.status == 200 && dark.status == 200)
        #expect(light.header("ETag") != dark.header("ETag"), "another render, another tag")
        let pixel = try RasterImage(pngData: dark.body).pixel(x: 20, y: 10)
        #expect(pixel == RGBA8(red: 0x0F, green: 0x17, blue: 0x2A, alpha: 255))
        // The alert state has no override of its own: its dark render keeps its light fill.
        let alert = try await server.request("/components/badge/alert.png?appearance=dark")
        #expect(try RasterImage(pngData: alert.body).pixel(x: 20, y: 10) == RGBA8(red: 0xD9, green: 0x3B, blue: 0x3B, alpha: 255))
        let unknown = try await server.request("/components/badge/normal.png?appearance=sepia")
        #expect(unknown.status == 400 && unknown.errorMessage?.contains("light, dark, highContrast") == true)
        let missing = try await server.request("/components/badge/normal.png?appearance=highContrast")
        #expect(missing.status == 404 && missing.errorMessage?.contains("no highContrast appearance") == true)
        let icon = try await server.request("/icons/nested/dot.png?size=16&appearance=dark")
        #expect(icon.status == 400, "icons have no appearances")
        try await server.stop()
    }

    @Test func healthAndMetrics() async throws {
        let server = try await TestServer.start()
        let health = try await server.request("/health")
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "{\"status\":\"ok\"}")
        _ = try await server.request("/components/badge/normal.png")
        _ = try await server.request("/components/badge/normal.png")
        _ = try await server.request("/components/badge/nope.png")
        let text = String(decoding: try await server.request("/metrics").body, as: UTF8.self)
        #expect(text.contains(#"rasterkit_http_requests_total{route="components",status="200"} 2"#))
        #expect(text.contains(#"rasterkit_http_requests_total{route="components",status="404"} 1"#))
        #expect(text.contains(#"rasterkit_renders_total{origin="drawn"} 1"#))
        #expect(text.contains(#"rasterkit_renders_total{origin="memory"} 1"#))
        #expect(text.contains("rasterkit_rasterizer_draws 1"))
        #expect(text.contains("rasterkit_draw_seconds_count 1"))
        #expect(text.contains("rasterkit_cache_memory_bytes "))
        #expect(!text.contains("rasterkit_cache_memory_bytes 0\n"))
        try await server.stop()
    }
}

@Suite("Measured sizes over HTTP") struct MeasuredSizeRouteTests {
    static let manifest = """
        components:
          chip:
            sizes: [{height: 20, width: auto, maxWidth: 400}]
            parameters: {label: {type: string, maxLength: 40, default: OK}}
            states: {short: {}}
            layers:
              - stack:
                  axis: horizontal
                  padding: [0, 6, 0, 6]
                  children: [text: {text: "$label", font: DejaVu Sans Mono 10, maxLines: 1}]
        """

    /// Without size=, a component measured from its layers is served at its state's measured
    /// size, and with parameters at the size their text makes.
    @Test func aMeasuredComponentIsServedAtItsOwnSize() async throws {
        let server = try await TestServer.start(manifest: Self.manifest)
        let listed = try await server.request("/components/chip/short.png")
        #expect(listed.status == 200)
        #expect(try RasterImage(pngData: listed.body).pixelWidth == 25)        // 12 + 2 × 6.02, rounded up
        let longer = try await server.request("/components/chip/short.png?label=ABCDEFGHIJ")
        #expect(longer.status == 200)
        #expect(try RasterImage(pngData: longer.body).pixelWidth == 73)        // 12 + 10 × 6.02, rounded up
        try await server.stop()
    }
}
