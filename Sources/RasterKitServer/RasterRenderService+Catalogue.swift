import Foundation
import Hummingbird
import RasterKit
import RasterKitBatch

extension RasterRenderService {
    /// `GET /components`: what this server can render, as JSON: each component's states, sizes,
    /// scales, appearances and the URL of a render; the formats; how many icons there are.
    ///
    /// ```json
    /// {"components": [{"appearances": ["light", "dark"], "name": "badge", "scales": [1, 2, 3],
    ///   "sizes": ["22x22"], "states": ["one", "three"], "url": "/components/badge/{state}.png"}],
    ///  "formats": ["pdf", "png", "svg", "webp"], "icons": 14}
    /// ```
    func catalogue(request: Request) async -> Response {
        await answering(route: "catalogue", request: request) { () async throws(RequestError) -> Response in
            let catalog = currentCatalog
            let components: [[String: Any]] = catalog.components.values.sorted { $0.name < $1.name }.map { component in
                [
                    "name": component.name,
                    "states": component.states.map(\.name),
                    "sizes": component.sizes.map { RenderQuery.format($0.size) },
                    "scales": component.scales,
                    "appearances": component.appearances.map(\.rawValue),
                    "parameters": component.parameters.map(Self.catalogueEntry),
                    // Component names are letters, digits, `-`, `_` and `.`: nothing to encode.
                    "url": "/components/\(component.name)/{state}.png",
                ]
            }
            let object: [String: Any] = [
                "components": components,
                "formats": ServedFormat.all.keys.sorted(),
                "icons": catalog.icons?.files.count ?? 0,
            ]
            guard let body = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                throw RequestError(.internalServerError, "the catalogue could not be written as JSON")
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// A parameter as the catalogue lists it: name, type, default and limits.
    static func catalogueEntry(_ parameter: Manifest.Parameter) -> [String: Any] {
        var entry: [String: Any] = ["name": parameter.name, "type": parameter.kind.name, "default": parameter.defaultValue,
                                    "declaration": parameter.declaration]
        switch parameter.kind {
        case .string:
            entry["maxLength"] = parameter.maximumLength
            if let pattern = parameter.pattern { entry["pattern"] = pattern }
        case .int, .number:
            if let minimum = parameter.minimum { entry["min"] = minimum }
            if let maximum = parameter.maximum { entry["max"] = maximum }
        case .choice(let words): entry["values"] = words
        case .svg:
            // The icons a value may name, when they are few enough to list.
            if let folder = parameter.folder {
                entry["folder"] = folder
                if parameter.icons.count <= 1_000 { entry["values"] = parameter.icons.sorted() }
            }
        case .bool, .color: break
        }
        return entry
    }
}
