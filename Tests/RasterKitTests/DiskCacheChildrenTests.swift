import Foundation
import Testing
@testable import RasterKit

/// The children list stored with an entry is read without JSONDecoder, and must read exactly as
/// JSONDecoder would: everything `encode` writes, and nil for what it cannot decode.
@Suite struct DiskCacheChildrenTests {
    private static func decodedByFoundation(_ text: String) -> [ComponentVersion]? {
        try? JSONDecoder().decode([ComponentVersion].self, from: Data(text.utf8))
    }

    static let awkwardNames = [
        "RasterKitBatch.DeclarativeComponent", "App.Outer<App.Inner, Swift.Array<Swift.Int>>", "quote \" and \\ slash /",
        "tab\tnewline\nreturn\rbell\u{07}nul\u{00}", "é, 漢字, 🧩 and \u{1F1EB}\u{1F1F7}", "", "\u{7F}\u{FEFF}\u{2028}",
    ]

    @Test(arguments: awkwardNames)
    func whatEncodeWritesReadsBack(_ name: String) throws {
        let children = [ComponentVersion(typeName: name, renderVersion: 3), ComponentVersion(typeName: "B", renderVersion: -12)]
        let text = try #require(DiskCacheChildren.encode(children))
        #expect(DiskCacheChildren.parse(text) == children)
        #expect(Self.decodedByFoundation(text) == children)
    }

    @Test func manyListsReadBackAsFoundationReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 1...4, using: &generator)
            let children = (0..<count).map { _ in
                let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x1F680, using: &generator))
                }
                return ComponentVersion(typeName: String(String.UnicodeScalarView(scalars)),
                                        renderVersion: Int.random(in: Int.min...Int.max, using: &generator))
            }
            let text = try #require(DiskCacheChildren.encode(children))
            #expect(DiskCacheChildren.parse(text) == children, "\(text)")
        }
    }

    @Test(arguments: [
        #"[{"renderVersion":1,"typeName":"A"}]"#,
        #" [ { "typeName" : "A\u00e9\ud83e\udde9" , "renderVersion" : 7 } , {"renderVersion":0,"typeName":"\/"} ] "#,
        "[]",
    ])
    func otherValidJSONReadsAsFoundationReadsIt(_ text: String) {
        #expect(DiskCacheChildren.parse(text) != nil)
        #expect(DiskCacheChildren.parse(text) == Self.decodedByFoundation(text))
    }

    /// What the fast reader does not take is left to JSONDecoder, so `decode` answers the same
    /// either way: nil for what neither reads.
    @Test(arguments: [
        "", "[", "]", "{}", "[{}]", "null", #"[{"typeName":"A"}]"#, #"[{"renderVersion":1}]"#,
        #"[{"renderVersion":1,"typeName":"A","extra":2}]"#, #"[{"renderVersion":1,"typeName":"A","typeName":"B"}]"#,
        #"[{"renderVersion":1.5,"typeName":"A"}]"#, #"[{"renderVersion":1e2,"typeName":"A"}]"#,
        #"[{"renderVersion":01,"typeName":"A"}]"#, #"[{"renderVersion":99999999999999999999,"typeName":"A"}]"#,
        #"[{"renderVersion":"1","typeName":"A"}]"#, #"[{"renderVersion":1,"typeName":"A\q"}]"#,
        #"[{"renderVersion":1,"typeName":"\ud83e"}]"#, #"[{"renderVersion":1,"typeName":"\udde9"}]"#,
        #"[{"renderVersion":1,"typeName":"A"},]"#, #"[{"renderVersion":1,"typeName":"A"}] x"#,
        "[{\"renderVersion\":1,\"typeName\":\"tab\tinside\"}]", #"[{"renderVersion":-,"typeName":"A"}]"#,
    ])
    func whatItDoesNotReadIsLeftToFoundation(_ text: String) {
        #expect(DiskCacheChildren.parse(text) == nil)
        #expect(DiskCacheChildren.decode(text) == Self.decodedByFoundation(text))
    }
}
