import Testing
@testable import RasterKit

/// One parser per word a user writes, shared by manifests, `rasterkit` flags and the server:
/// colours and content modes.
@Suite struct VocabularyTests {
    @Test(arguments: [
        ("#2F6FEB", RGBA8(red: 47, green: 111, blue: 235, alpha: 255)),
        ("2f6feb", RGBA8(red: 47, green: 111, blue: 235, alpha: 255)),
        ("F00", RGBA8(red: 255, green: 0, blue: 0, alpha: 255)),
        ("2F6FEB80", RGBA8(red: 47, green: 111, blue: 235, alpha: 128)),
        ("orange", RGBA8(red: 255, green: 165, blue: 0, alpha: 255)),
        ("Green", RGBA8(red: 0, green: 128, blue: 0, alpha: 255)),
        ("GREY", RGBA8(red: 128, green: 128, blue: 128, alpha: 255)),
        ("transparent", RGBA8(red: 0, green: 0, blue: 0, alpha: 0)),
    ])
    func coloursAreReadByDigitsOrName(text: String, expected: RGBA8) throws {
        #expect(RGBA8(try Color(parsing: text)) == expected)
    }

    @Test(arguments: ["", "#", "F0", "#F00F0", "12345", "1234567", "GGGGGG", " red", "red ", "rouge", "#red", "ｒｅｄ"])
    func otherColourTextIsATypedError(text: String) {
        let error = #expect(throws: ColorError.self) { try Color(parsing: text) }
        #expect(error?.input == text)
    }

    @Test func aMisspeltColourNameSuggestsTheName() {
        let error = #expect(throws: ColorError.self) { try Color(parsing: "bleu") }
        #expect(error?.description.contains("did you mean \"blue\"") == true, "\(String(describing: error))")
        let digits = #expect(throws: ColorError.self) { try Color(parsing: "12345") }
        #expect(digits?.reason.contains("3, 4, 6 or 8 hexadecimal digits") == true)
    }

    /// A long hostile text costs the suggestion little: names are short.
    @Test func aLongUnknownColourIsRefusedQuickly() {
        #expect(throws: ColorError.self) { try Color(parsing: String(repeating: "z", count: 100_000)) }
    }

    @Test func contentModesAreReadInEitherSpelling() {
        for mode in ContentMode.allCases {
            #expect(ContentMode(parsing: mode.rawValue) == mode)
            #expect(ContentMode(parsing: mode.rawValue.uppercased()) == mode)
        }
        #expect(ContentMode(parsing: "aspect-fit") == .aspectFit)
        #expect(ContentMode(parsing: "Aspect-Fill") == .aspectFill)
        for text in ["", "fit", "aspect fit", "aspect_fit", "stretched", "centre"] {
            #expect(ContentMode(parsing: text) == nil, "\(text)")
        }
    }
}
