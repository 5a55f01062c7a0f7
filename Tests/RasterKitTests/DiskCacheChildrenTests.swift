import Foundation
import Testing
@testable import RasterKit

/// The children list stored with an entry: JSON that `encode` writes and `decode` reads back with
/// `JSONDecoder` (decoded once per distinct text), and nil for anything else.
@Suite struct DiskCacheChildrenTests {
    static let awkwardNames = [
        "RasterKitBatch.DeclarativeComponent", "App.Outer<App.Inner, Swift.Array<Swift.Int>>", "quote \" and \\ slash /",
        "tab\tnewline\nreturn\rbell\u{07}nul\u{00}", "é, 漢字, 🧩 and \u{1F1EB}\u{1F1F7}", "", "\u{7F}\u{FEFF}\u{2028}",
    ]

    @Test(arguments: awkwardNames)
    func whatEncodeWritesReadsBack(_ name: String) throws {
        let children = [ComponentVersion(typeName: name, renderVersion: 3), ComponentVersion(typeName: "B", renderVersion: -12)]
        let text = try #require(DiskCacheChildren.encode(children))
        #expect(DiskCacheChildren.decode(text) == children)
        // Read again: from the memo now, the same answer.
        #expect(DiskCacheChildren.decode(text) == children)
    }

    @Test func noChildrenIsNoText() {
        #expect(DiskCacheChildren.encode([]) == nil)
        #expect(DiskCacheChildren.decode(nil) == [])
    }

    @Test(arguments: [
        "", "[", "]", "{}", "[{}]", "null", #"[{"typeName":"A"}]"#, #"[{"renderVersion":1}]"#,
        #"[{"renderVersion":1.5,"typeName":"A"}]"#, #"[{"renderVersion":"1","typeName":"A"}]"#,
        #"[{"renderVersion":1,"typeName":"A"}] x"#,
    ])
    func whatIsNotAListOfChildrenReadsAsNil(_ text: String) {
        #expect(DiskCacheChildren.decode(text) == nil)
    }
}
