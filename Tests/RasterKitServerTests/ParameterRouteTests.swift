import Foundation
import RasterKit
import RasterKitBatch
@testable import RasterKitServer
import RasterKitTestSupport
import Testing

/// `/components/<c>/<state>.png?name=value`: declared parameters in the URL, each checked
/// against its declaration; refusals name the parameter; signatures cover every parameter.
@Suite("Parameters over HTTP") struct ParameterRouteTests {
    static let manifest = """
        components:
          badge:
            sizes: ["90x20"]
            parameters:
              label: {type: string, default: build, maxLength: 16}
              count: {type: int, default: 0, min: 0, max: 999}
              tone: {enum: [green, red], default: green}
            states:
              flat: {radius: 3}
            layers:
              - roundedRect: {radius: "$radius", fill: "$tone"}
              - text: {text: "${label} ${count}", color: white, alignment: center, verticalAlignment: center}
        """

    static func json(_ reply: TestServer.Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    @Test func parametersAreDrawnAndTwoSpellingsShareARender() async throws {
        let server = try await TestServer.start(manifest: Self.manifest)
        let plain = try await server.request("/components/badge/flat.png")
        let given = try await server.request("/components/badge/flat.png?label=deploy&count=7&tone=red")
        #expect(plain.status == 200 && given.status == 200)
        #expect(plain.body != given.body)
        let spelled = try await server.request("/components/badge/flat.png?tone=red&count=007&label=deploy")
        #expect(spelled.body == given.body && spelled.header("ETag") == given.header("ETag"))
        let image = try RGBABitmap(pngData: given.body)
        #expect(image[1, 10] == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        // The same values through the batch give the same bytes.
        let loaded = try Manifest(contentsOf: server.folder.appendingPathComponent("site/manifest.yaml"))
        let plan = try loaded.plan(data: ManifestData(values: ["label": "deploy", "count": "7", "tone": "red"]))
        let output = try #require(plan.outputs.first)
        #expect(try output.encode(output.render(Rasterizer()).image) == given.body)
        try await server.stop()
    }

    @Test func refusalsNameTheParameterAndItsDeclaration() async throws {
        let server = try await TestServer.start(manifest: Self.manifest)
        let cases: [(String, String, String, String?)] = [
            ("count=1000", "invalid_parameter", "count", "int, 0...999"),
            ("count=seven", "invalid_parameter", "count", "int, 0...999"),
            ("label=" + String(repeating: "x", count: 17), "invalid_parameter", "label", "string, maxLength 16"),
            ("label=%3Cscript%3E%00", "invalid_parameter", "label", "string, maxLength 16"),
            ("tone=blue", "invalid_parameter", "tone", "enum [green, red]"),
            ("lable=x", "unknown_parameter", "lable", nil),
            ("label=a&label=b", "bad_request", "", nil),
        ]
        for (query, code, parameter, declaration) in cases {
            let reply = try await server.request("/components/badge/flat.png?" + query)
            let body = try Self.json(reply)
            #expect(reply.status == 400 && body["code"] as? String == code, "\(query): \(body)")
            if !parameter.isEmpty { #expect(body["parameter"] as? String == parameter, "\(query)") }
            #expect(body["declaration"] as? String == declaration, "\(query): \(body)")
        }
        let misspelt = try await server.request("/components/badge/flat.png?lable=x")
        #expect(misspelt.errorMessage?.contains("did you mean \"label\"?") == true)
        // The catalogue lists each parameter with its type, default and limits.
        let catalogue = try Self.json(try await server.request("/components"))
        let badge = try #require((catalogue["components"] as? [[String: Any]])?.first)
        let parameters = try #require(badge["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == ["label", "count", "tone"])
        #expect(parameters[1]["type"] as? String == "int" && parameters[1]["max"] as? Double == 999)
        #expect(parameters[2]["values"] as? [String] == ["green", "red"] && parameters[2]["default"] as? String == "green")
        try await server.stop()
    }

    @Test func aSignatureCoversEveryParameter() async throws {
        let key = Data("a test key of some thirty-two bytes".utf8)
        let server = try await TestServer.start(manifest: Self.manifest) { $0.signingKey = key }
        let signed = URLSigner(key: key).sign("/components/badge/flat.png?label=ok&count=1", expires: Date().addingTimeInterval(60))
        #expect(try await server.request(signed).status == 200)
        let tampered = signed.replacingOccurrences(of: "count=1", with: "count=2")
        #expect(try await server.request(tampered).status == 403)
        let added = signed + "&tone=red"
        #expect(try await server.request(added).status == 403)
        try await server.stop()
    }

    @Test func percentEncodingIsDecodedStrictly() {
        #expect(RasterRenderService.percentDecoded("a%20b%25") == "a b%")
        #expect(RasterRenderService.percentDecoded("%E2%82%AC") == "€")
        #expect(RasterRenderService.percentDecoded("plain+text") == "plain+text")
        for bad in ["%", "%2", "%zz", "%FF", "%C3"] { #expect(RasterRenderService.percentDecoded(Substring(bad)) == nil, "\(bad)") }
    }
}
