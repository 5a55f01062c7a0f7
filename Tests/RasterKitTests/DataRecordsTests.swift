import Foundation
import Testing
import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

/// Data files for `render --data`, and the components a data batch makes of their records.
@Suite struct DataRecordsTests {
    func parse(_ text: String, _ file: String) throws -> [DataRecord] {
        try DataRecords.parse(Data(text.utf8), file: file)
    }

    @Test func csvFollowsRFC4180() throws {
        let records = try parse("slug,title\r\nnio,\"Swift, NIO\"\r\n\"q\"\"uote\",\"two\nlines\"\n\nlast,\n", "d.csv")
        #expect(records == [
            DataRecord(line: 2, fields: ["slug": "nio", "title": "Swift, NIO"]),
            DataRecord(line: 3, fields: ["slug": "q\"uote", "title": "two\nlines"]),
            DataRecord(line: 6, fields: ["slug": "last", "title": ""]),
        ])
    }

    @Test func jsonLinesAndListsGiveTextFields() throws {
        let lines = try parse(#"{"slug": "a", "count": 12, "on": true}"# + "\n\n" + #"{"slug": "b", "count": 1.5}"#, "d.jsonl")
        #expect(lines == [DataRecord(line: 1, fields: ["slug": "a", "count": "12", "on": "true"]),
                          DataRecord(line: 3, fields: ["slug": "b", "count": "1.5"])])
        let yaml = try parse("- {slug: a, count: 12}\n- slug: b\n  count: 3\n", "d.yaml")
        #expect(yaml == [DataRecord(line: 1, fields: ["slug": "a", "count": "12"]), DataRecord(line: 2, fields: ["slug": "b", "count": "3"])])
        let json = try parse(#"[{"slug": "a"}]"#, "d.json")
        #expect(json.map(\.fields) == [["slug": "a"]])
    }

    static let badFiles: [(String, String, Int, String)] = [
        ("a,b\n1,2,3\n", "d.csv", 2, "a row has 3 fields, the header 2"),
        ("a,a\n1,2\n", "d.csv", 1, "names the field \"a\" twice"),
        ("a\n\"open\n", "d.csv", 2, "a quoted field is not closed"),
        ("a\nx\"y\n", "d.csv", 2, "a quote inside an unquoted field"),
        ("", "d.csv", 1, "no header row"),
        ("{\"a\": 1}\n[1]\n", "d.jsonl", 2, "each line must be one JSON object"),
        ("{\"a\": {\"b\": 1}}\n", "d.jsonl", 1, "text, numbers or booleans"),
        ("{a: 1}", "d.yaml", 1, "must be a list of records"),
        ("- [1, 2]\n", "d.yaml", 1, "must be a mapping"),
        ("- {a: [1]}\n", "d.yaml", 1, "text, numbers or booleans"),
        ("x", "d.txt", 1, "must be .csv, .jsonl"),
    ]

    @Test(arguments: badFiles)
    func aBadDataFileIsAProblemAtItsLine(text: String, file: String, line: Int, message: String) throws {
        #expect {
            try parse(text, file)
        } throws: { error in
            guard let problem = (error as? ManifestError)?.problems.first else { return false }
            return problem.file == file && problem.line == line && problem.message.contains(message)
        }
    }

    @Test func dataFilesAreBoundedBeforeTheyAreParsed() throws {
        var limits = ResourceLimits.default
        limits.maximumInputBytes = 64
        #expect(throws: ManifestError.self) { try DataRecords.parse(Data(String(repeating: "a,b\n", count: 20).utf8), file: "d.csv", limits: limits) }
        let rows = "a\n" + String(repeating: "1\n", count: DataRecords.maximumRecords + 1)
        #expect { try parse(rows, "d.csv") } throws: { "\($0)".contains("more than \(DataRecords.maximumRecords) records") }
        let wide = (0...DataRecords.maximumFields).map { "f\($0)" }.joined(separator: ",") + "\n"
        #expect { try parse(wide, "d.csv") } throws: { "\($0)".contains("more than \(DataRecords.maximumFields) fields") }
    }

    static let cards = """
        components:
          card:
            sizes: ["40x20"]
            names: "card-{slug}"
            parameters:
              title: {type: string, default: Hello, maxLength: 10}
            layers: [text: {text: "$title"}]
          plain:
            sizes: ["10x10"]
            layers: [rect: {fill: red}]
        """

    @Test func aDataBatchPlansEachRecordUnderItsName() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.cards)
        let data = ManifestData(records: [DataRecord(line: 2, fields: ["slug": "a", "title": "One"]),
                                          DataRecord(line: 3, fields: ["slug": "b", "title": "Two"])], file: "d.csv")
        let plan = try manifest.plan(data: data)
        #expect(plan.outputs.map(\.path).sorted() == ["card-a-default.png", "card-b-default.png"])
        // --set wins over the records; without records, each parameterised component once.
        let set = try manifest.plan(data: ManifestData(values: ["title": "Set"]))
        #expect(set.outputs.map(\.path) == ["card-default.png"])
    }

    @Test func namesAndFieldsAreCheckedBeforeAnythingIsDrawn() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.cards)
        func problems(_ records: [[String: String]], names: String? = nil, values: [String: String] = [:]) -> [String] {
            let data = ManifestData(records: records.enumerated().map { DataRecord(line: $0.offset + 2, fields: $0.element) },
                                    file: "d.csv", names: names, values: values)
            do {
                _ = try manifest.components(with: data)
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }
        #expect(problems([["slug": "a", "title": "T"], ["slug": "a", "title": "T"]]) == [#"d.csv:3:1: the name "card-a" is also the name of the record at line 2"#])
        #expect(problems([["slug": "../x", "title": "T"]]).first?.contains("which may only contain letters") == true)
        #expect(problems([["slug": "a b", "title": "T"]]).first?.contains("d.csv:2:1: names \"card-{slug}\": it makes the name") == true)
        #expect(problems([["title": "x"]]) == [#"d.csv:2:1: names "card-{slug}": the record has no field slug"#])
        #expect(problems([["slug": "a", "titel": "x"]]).contains { $0.contains(#"field "titel" is neither a parameter nor used in names (did you mean "title"?)"#) })
        #expect(problems([["slug": "a", "title": "far too long a title"]]).first?.contains("parameter title") == true)
        #expect(problems([["slug": "a", "title": "T"]], values: ["color": "red"]).first?.contains("--set color: no component declares") == true)
        #expect(problems([["slug": "a"]]) == ["d.csv:1:1: no field of the data and no --set names a parameter; the components declare title"])
        #expect(problems([["slug": "a", "title": "T"]], names: "{slug") == [#"d.csv:1:1: names "{slug": a { is not closed"#])
        let plain = try fixture.load("components:\n  plain:\n    sizes: [\"1x1\"]\n    layers: [rect: {fill: red}]\n", as: "plain.yaml")
        #expect(throws: ManifestError.self) { try plain.components(with: ManifestData(values: [:])) }
    }
}
