import Foundation
import Testing
@testable import RasterKit

/// The chunk types of a PNG, in order.
private func chunkTypes(_ data: Data) -> [String] {
    var types: [String] = []
    var offset = 8
    let bytes = [UInt8](data)
    while offset + 8 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
        offset += 12 + length
    }
    return types
}

private func sample() throws -> RasterImage {
    try RasterImage(size: Size(width: 30, height: 20), scale: 2) { canvas in
        canvas.fill(Path(roundedRect: Rect(x: 2, y: 2, width: 26, height: 16), cornerRadius: 5),
                    with: .linearGradient(LinearGradient(gradient: Gradient(colors: [.red, Color.blue.withAlpha(0.3)]),
                                                         start: .zero, end: Point(x: 30, y: 0))))
    }
}

@Suite struct PNGEncodingTests {
    @Test func roundTripKeepsPixelsScaleAndInsets() throws {
        let image = try sample().withCapInsets(EdgeInsets(top: 4, left: 6, bottom: 4, right: 6.5))
        let decoded = try RasterImage(pngData: image.pngData())
        #expect(decoded.scale == 2)
        #expect(decoded.capInsets == EdgeInsets(top: 4, left: 6, bottom: 4, right: 6.5))
        #expect(decoded.pixelWidth == 60 && decoded.pixelHeight == 40)
        for (a, b) in zip(decoded.allPixels, image.allPixels) { #expect(a.isClose(to: b, tolerance: 1)) }
    }

    @Test func opaqueImagesRoundTripExactlyAsRGB() throws {
        let image = try RasterImage(size: Size(width: 16, height: 16)) { canvas in
            canvas.fillAll(with: .linearGradient(LinearGradient(gradient: Gradient(colors: [.red, .green]), start: .zero,
                                                                end: Point(x: 16, y: 16))))
        }
        let data = try image.pngData()
        #expect(data[25] == 2, "colour type RGB")
        #expect(try RasterImage(pngData: data) == image)
    }

    @Test func encodingIsDeterministicAndHasNoTimeChunk() throws {
        let first = try sample().pngData(), second = try sample().pngData()
        #expect(first == second)
        let types = chunkTypes(first)
        #expect(!types.contains("tIME"))
        #expect(types.first == "IHDR" && types.last == "IEND")
        #expect(types.contains("tEXt") && types.contains("pHYs"))
    }

    @Test func everyCompressionSettingDecodesToTheSamePixels() throws {
        let image = try sample()
        let sizes = try PNGCompression.allCases.map { compression -> Int in
            let data = try image.pngData(compression: compression)
            #expect(try RasterImage(pngData: data) == RasterImage(pngData: image.pngData()))
            return data.count
        }
        #expect(sizes[2] <= sizes[1])
    }

    @Test func plainPNGsGetScaleOneAndNoInsets() throws {
        let data = try RGBABitmap(width: 2, height: 2, bytes: [UInt8](repeating: 200, count: 16)).pngData()
        let image = try RasterImage(pngData: data)
        #expect(image.scale == 1 && image.capInsets == nil)
        #expect(image.pixel(x: 0, y: 0) == RGBA8(red: 200, green: 200, blue: 200, alpha: 200))
    }
}

@Suite struct PNGDecodingTests {
    struct Expected: Decodable {
        var width: Int
        var height: Int
        var pixels: [String: [[Int]]]
    }

    static let expected: Expected = {
        let url = TestSupport.fixtures.appendingPathComponent("png/expected.json")
        do { return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url)) }
        catch { return Expected(width: 0, height: 0, pixels: [:]) }
    }()

    static let names = expected.pixels.keys.sorted()

    @Test func fixturesArePresent() {
        #expect(Self.names.count == 23)
    }

    @Test(arguments: names)
    func decodesEveryColourTypeAndDepth(name: String) throws {
        let data = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("png/\(name).png"))
        let bitmap = try RGBABitmap(pngData: data)
        let pixels = try #require(Self.expected.pixels[name])
        #expect(bitmap.width == Self.expected.width && bitmap.height == Self.expected.height)
        for (index, rgba) in pixels.enumerated() {
            let pixel = bitmap[index % bitmap.width, index / bitmap.width]
            #expect([Int(pixel.red), Int(pixel.green), Int(pixel.blue), Int(pixel.alpha)] == rgba, "\(name) pixel \(index)")
        }
        // The same file as a premultiplied image gives the same straight colours back.
        let image = try RasterImage(pngData: data)
        for (index, rgba) in pixels.enumerated() where rgba[3] == 255 {
            let pixel = image.pixel(x: index % image.pixelWidth, y: index / image.pixelWidth)
            #expect([Int(pixel.red), Int(pixel.green), Int(pixel.blue), 255] == rgba)
        }
    }

    @Test func emptyAndForeignDataAreNotPNG() {
        #expect(throws: PNGError.notPNG(byteCount: 0)) { try RasterImage(pngData: Data()) }
        #expect(throws: PNGError.notPNG(byteCount: 5)) { try RasterImage(pngData: Data("hello".utf8)) }
        #expect(throws: PNGError.self) { try RasterImage(pngData: Data("GIF89a-and-more-bytes".utf8)) }
    }

    @Test func truncatedDataIsCorrupt() throws {
        let data = try sample().pngData()
        for length in [8, 20, 33, data.count / 2, data.count - 13] {
            let error = #expect(throws: PNGError.self) { try RasterImage(pngData: data.prefix(length)) }
            guard case .corrupt = error else { Issue.record("length \(length): \(String(describing: error))"); continue }
        }
    }

    @Test func badChecksumsAreCorrupt() throws {
        var data = try sample().pngData()
        data[30] ^= 0xFF   // inside IHDR's CRC-protected data
        #expect(throws: PNGError.self) { try RasterImage(pngData: data) }
        var payload = try sample().pngData()
        payload[payload.count / 2] ^= 0x55  // inside the compressed image data
        #expect(throws: PNGError.self) { try RasterImage(pngData: payload) }
    }

    @Test func hugeDimensionsAreRefusedBeforeAllocating() throws {
        // A valid header claiming 100000 × 100000 pixels, with no image data behind it.
        var data = try RGBABitmap(width: 1, height: 1).pngData()
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { data[offset + index] = UInt8(value >> (24 - 8 * UInt32(index)) & 0xFF) }
        }
        put(100_000, at: 16)
        put(100_000, at: 20)
        let crc = crc32(Array(data[12..<29]))
        put(crc, at: 29)
        let error = #expect(throws: PNGError.self) { try RasterImage(pngData: data) }
        guard case .tooLarge(100_000, 100_000, _) = error else { Issue.record("\(String(describing: error))"); return }
        let small = PixelLimits(maximumSide: 4, maximumPixelCount: 16)
        #expect(throws: PNGError.self) { try RasterImage(pngData: try sample().pngData(), limits: small) }
    }

    /// Issue 24, finding 10: a 131-byte PNG whose tEXt chunk claims 0x7FFFFFFF bytes made libpng
    /// allocate gigabytes before it noticed the data was cut short. The chunk limit makes it
    /// fail on the length field, with a typed error, before any allocation.
    @Test(arguments: ["tEXt", "zTXt", "iTXt"])
    func aTextChunkClaimingGigabytesFailsOnItsLength(type: String) throws {
        var bytes = [UInt8](try RGBABitmap(width: 1, height: 1).pngData().prefix(33))  // signature and IHDR
        bytes += [0x7F, 0xFF, 0xFF, 0xFF] + Array(type.utf8)
        bytes += Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: 131 - bytes.count - 8)
        #expect(bytes.count == 131)
        let error = #expect(throws: PNGError.self) { try RGBABitmap(pngData: Data(bytes)) }
        guard case .corrupt = error else { Issue.record("\(String(describing: error))"); return }
        #expect(throws: PNGError.self) { try RasterImage(pngData: Data(bytes)) }
    }

    /// A small file whose header claims 16000 × 16000 pixels, within the pixel limits, with a few
    /// bytes of image data: deflate cannot expand them that far, so it is refused as truncated
    /// before a gigabyte of rows is allocated.
    @Test func imageDataTooShortForTheClaimedSizeIsRefusedBeforeAllocating() throws {
        var data = try RGBABitmap(width: 1, height: 1).pngData()
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { data[offset + index] = UInt8(value >> (24 - 8 * UInt32(index)) & 0xFF) }
        }
        put(16_000, at: 16)
        put(16_000, at: 20)
        put(crc32(Array(data[12..<29])), at: 29)
        let error = #expect(throws: PNGError.self) { try RasterImage(pngData: data) }
        guard case .corrupt(let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("cannot hold"), "\(reason)")
        // Real images, however well they compress, still decode.
        let flat = try RasterImage(size: Size(1_000), scale: 1) { $0.fillAll(with: .color(.white)) }
        #expect(try RasterImage(pngData: try flat.pngData(compression: .best)).pixelWidth == 1_000)
    }

    /// Found by `make fuzz` (FuzzPNGDecode): a damaged signature in front of an IHDR with an
    /// invalid bit depth and a 117 million × 1.1 billion size trapped on an overflow in the
    /// chunk scan. It is not a PNG, and says so.
    @Test func aDamagedSignatureWithAnAbsurdHeaderIsNotAPNG() {
        let bytes = Data(base64Encoded: "iVBORw0KGgUAAAANSUhEUgcA7CBEUkgHSQDsIAC7BCrh")!
        #expect(throws: PNGError.notPNG(byteCount: bytes.count)) { try RasterImage(pngData: bytes) }
        // The same header behind a good signature is refused on its size.
        var good = bytes
        good[7] = 0x0A
        let error = #expect(throws: PNGError.self) { try RasterImage(pngData: good) }
        guard case .tooLarge = error else { Issue.record("\(String(describing: error))"); return }
    }

    /// A chunk under the limit still decodes; the limit is ResourceLimits.maximumPNGChunkBytes.
    @Test func chunksWithinTheLimitDecodeAndAStricterLimitRefusesThem() throws {
        let image = try RasterImage(size: Size(4), scale: 2) { $0.fillAll(with: .color(.red)) }
        let data = try image.pngData()
        #expect(try RasterImage(pngData: data).scale == 2)
        let error = #expect(throws: PNGError.self) {
            try data.withUnsafeBytes { _ = try PNGCodec.decode($0, limits: .default, maximumChunkBytes: 10) }
        }
        guard case .chunkTooLarge("tEXt", _, 10) = error else { Issue.record("\(String(describing: error))"); return }
    }

    /// Issue 24, finding 11: the size is known from the header alone, so an image too large to
    /// decode can still be measured (and compared by size).
    @Test func theHeaderGivesTheSizeWithoutDecoding() throws {
        var data = try RGBABitmap(width: 1, height: 1).pngData()
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { data[offset + index] = UInt8(value >> (24 - 8 * UInt32(index)) & 0xFF) }
        }
        put(16_000, at: 16)
        put(12_000, at: 20)
        #expect(try PNGHeader(data.prefix(33)) == PNGHeader(width: 16_000, height: 12_000))
        #expect(throws: PNGError.notPNG(byteCount: 9)) { try PNGHeader(Data("not a png".utf8)) }
        #expect(throws: PNGError.self) { try PNGHeader(data.prefix(20)) }
    }

    @Test(arguments: [("10 10 10 10", "1"), ("1 1 1", "1"), ("a b c d", "1"), ("-1 0 0 0", "1"), ("1 1 1 1", "-2"),
                      ("1 1 1 1", "nan"), ("1 1 1 1", "x")])
    func metadataThatDoesNotFitIsIgnored(insets: String, scale: String) throws {
        // Text chunks are input too: a PNG claiming impossible caps or scale keeps neither.
        let bytes = try PNGCodec.encode(width: 4, height: 4, hasAlpha: true, settings: PNGCompression.default.settings,
                                        pixelsPerMeter: 0, texts: [(RasterImage.PNGKeys.capInsets, insets),
                                                                    (RasterImage.PNGKeys.scale, scale)]) { _, row in
            row.update(repeating: 255, count: 16)
        }
        let image = try RasterImage(pngData: Data(bytes))
        #expect(image.capInsets == nil || insets == "1 1 1 1")
        #expect(image.scale == 1)
    }
}

/// CRC-32 as PNG uses it.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}
