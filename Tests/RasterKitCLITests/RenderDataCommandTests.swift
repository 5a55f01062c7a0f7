import Foundation
import RasterKit
import RasterKitTestSupport
import Testing

/// `rasterkit render MANIFEST --data FILE --names '{slug}' --set name=value`: a template drawn
/// once per record, checked before anything is drawn, incremental like every batch.
@Suite struct RenderDataCommandTests {
    struct Project {
        let root: URL

        init(_ name: String = #function) throws {
            root = TestScratch.path("render-data-" + name.filter(\.isLetter))
            try? FileManager.default.removeItem(at: root)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Data("""
                components:
                  badge:
                    sizes: ["60x20"]
                    scales: [1, 2]
                    parameters:
                      label: {type: string, default: build, maxLength: 12}
                      color: {type: color, default: "#4C1"}
                    layers:
                      - roundedRect: {radius: 3, fill: "$color"}
                      - text: {text: "$label", color: white, alignment: center, verticalAlignment: center}
                  plain:
                    sizes: ["8x8"]
                    layers: [rect: {fill: red}]
                """.utf8).write(to: root.appendingPathComponent("kit.yaml"))
        }

        func write(_ text: String, to name: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }

        func render(_ arguments: String..., out: String = "out") throws -> CLI.Run {
            try CLI.run(["render", "kit.yaml", "--out", out, "--cache", "cache.sqlite"] + arguments, in: root)
        }

        func files(_ folder: String = "out") -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".png") }.sorted()
        }
    }

    @Test func eachRecordIsRenderedUnderItsNameThenLeftAloneWhenUnchanged() throws {
        let project = try Project()
        try project.write("slug,label,color\nnio,NIO,blue\ngrdb,GRDB,\"#F5A524\"\n", to: "packages.csv")
        let cold = try project.render("--data", "packages.csv", "--names", "{slug}")
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(project.files() == ["grdb-default.png", "grdb-default@2x.png", "nio-default.png", "nio-default@2x.png"])
        // The same record as --set gives the same bytes.
        let set = try project.render("--set", "label=NIO", "--set", "color=blue", out: "set")
        #expect(set.status == 0 && project.files("set") == ["badge-default.png", "badge-default@2x.png"], "\(set.stderr)")
        #expect(try Data(contentsOf: project.root.appendingPathComponent("out/nio-default@2x.png"))
                == Data(contentsOf: project.root.appendingPathComponent("set/badge-default@2x.png")))
        // Unchanged: nothing drawn; into a new folder: from the store.
        let warm = try project.render("--data", "packages.csv", "--names", "{slug}", "--json")
        #expect(try warm.json()["drawn"] as? Int == 0)
        let elsewhere = try project.render("--data", "packages.csv", "--names", "{slug}", "--json", out: "other")
        #expect(try elsewhere.json()["drawn"] as? Int == 0 && project.files("other").count == 4)
        // A changed record draws that record again, under the same run otherwise.
        try project.write("slug,label,color\nnio,NIO 2,blue\ngrdb,GRDB,\"#F5A524\"\n", to: "packages.csv")
        let changed = try project.render("--data", "packages.csv", "--names", "{slug}", "--json")
        #expect(try changed.json()["drawn"] as? Int == 2, "\(changed.stdout)")
    }

    @Test func jsonLinesAndYAMLListsWork() throws {
        let project = try Project()
        try project.write(#"{"slug": "a", "label": "A"}"# + "\n" + #"{"slug": "b", "label": 7}"# + "\n", to: "d.jsonl")
        #expect(try project.render("--data", "d.jsonl", "--names", "x-{slug}").status == 0)
        #expect(project.files().first == "x-a-default.png")
        try project.write("- {slug: c, label: C}\n", to: "d.yaml")
        #expect(try project.render("--data", "d.yaml", "--names", "{slug}", out: "yaml").status == 0)
    }

    @Test func badDataIsRefusedBeforeAnythingIsDrawn() throws {
        let project = try Project()
        try project.write("slug,label\na,A\na,B\nb,far too long a label\nc d,C\n", to: "bad.csv")
        let run = try project.render("--data", "bad.csv", "--names", "{slug}")
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.csv:3:1: the name \"a\" is also the name of the record at line 2"), "\(run.stderr)")
        #expect(run.stderr.contains("bad.csv:4:1: parameter label:"))
        #expect(run.stderr.contains("bad.csv:5:1: names \"{slug}\": it makes the name \"c d\""))
        #expect(project.files().isEmpty)
        #expect(try project.render("--names", "{slug}").status == 2)
        #expect(try project.render("--data", "bad.csv", "--names", "{slug").status == 2)
        #expect(try project.render("--set", "nope").status == 2)
        #expect(try project.render("--set", "label=a", "--set", "label=b").status == 2)
        let unknown = try project.render("--set", "colour=red")
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean \"color\"?"), "\(unknown.stderr)")
        #expect(try project.render("--data", "missing.csv", "--names", "{slug}").status == 2)
        let noNames = try project.render("--data", "bad.csv")
        #expect(noNames.status == 2 && noNames.stderr.contains("needs names for its records"), "\(noNames.stderr)")
    }
}
