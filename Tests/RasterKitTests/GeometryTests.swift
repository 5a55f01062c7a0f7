import Testing
@testable import RasterKit

@Suite struct ColorTests {
    @Test(arguments: [
        ("#F00", RGBA8(red: 255, green: 0, blue: 0, alpha: 255)),
        ("#0f08", RGBA8(red: 0, green: 255, blue: 0, alpha: 136)),
        ("#2F6FEB", RGBA8(red: 47, green: 111, blue: 235, alpha: 255)),
        ("#2f6feb80", RGBA8(red: 47, green: 111, blue: 235, alpha: 128)),
        ("#00000000", RGBA8(red: 0, green: 0, blue: 0, alpha: 0)),
    ])
    func parsesEveryHexForm(text: String, expected: RGBA8) throws {
        #expect(RGBA8(try Color(hex: text)) == expected)
    }

    @Test(arguments: ["", "#", "F00", "#F0", "#F00F0", "#GGGGGG", "#12345", "#1234567", "#123456789", " #FFF", "#FFF ", "#ＦＦＦ"])
    func rejectsMalformedHex(text: String) {
        #expect(throws: ColorError.self) { try Color(hex: text) }
    }

    @Test func errorExplainsWhatIsExpected() {
        let error = #expect(throws: ColorError.self) { try Color(hex: "#12") }
        #expect(error?.description.contains("#RRGGBB") == true)
        #expect(error?.input == "#12")
    }

    @Test func hexStringRoundTrips() throws {
        for text in ["#2F6FEB", "#2F6FEB80", "#000000", "#FFFFFF00"] {
            #expect(try Color(hex: text).hexString == text)
        }
    }

    @Test func componentsOutsideRangeAreClampedWhenConverted() {
        #expect(RGBA8(Color(red: 2, green: -1, blue: .nan, alpha: 1)) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
    }
}

@Suite struct GeometryTests {
    @Test func rectEdgesAndInsets() {
        let rect = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(rect.maxX == 110 && rect.maxY == 70 && rect.midX == 60 && rect.midY == 45)
        #expect(rect.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)) == Rect(x: 12, y: 21, width: 94, height: 46))
        #expect(rect.insetBy(dx: 5, dy: 5) == Rect(x: 15, y: 25, width: 90, height: 40))
        #expect(rect.intersection(Rect(x: 100, y: 60, width: 50, height: 50)) == Rect(x: 100, y: 60, width: 10, height: 10))
        #expect(rect.intersection(Rect(x: 200, y: 0, width: 1, height: 1)) == nil)
        #expect(rect.contains(Point(x: 10, y: 20)) && !rect.contains(Point(x: 110, y: 20)))
    }

    @Test func sizeValidity() {
        #expect(Size(width: 1, height: 1).isDrawable)
        for size in [Size(width: 0, height: 1), Size(width: -1, height: 1), Size(width: .nan, height: 1),
                     Size(width: .infinity, height: 1)] {
            #expect(!size.isDrawable)
        }
    }

    @Test func insetValidity() {
        #expect(EdgeInsets(all: 4).isValid)
        #expect(!EdgeInsets(top: -1, left: 0, bottom: 0, right: 0).isValid)
        #expect(!EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0).isValid)
        #expect(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4).horizontal == 6)
    }

    @Test func transformsComposeAndInvert() throws {
        let transform = Transform.identity.translatedBy(x: 10, y: 5).scaledBy(x: 2, y: 3)
        // Scale first, then translate.
        #expect(transform.apply(to: Point(x: 1, y: 1)) == Point(x: 12, y: 8))
        let inverse = try #require(transform.inverted())
        let back = inverse.apply(to: Point(x: 12, y: 8))
        #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
        #expect(Transform(scaleX: 0, y: 1).inverted() == nil)
        let quarter = Transform(rotationAngle: .pi / 2).apply(to: Point(x: 1, y: 0))
        #expect(abs(quarter.x) < 1e-12 && abs(quarter.y - 1) < 1e-12)
    }
}
