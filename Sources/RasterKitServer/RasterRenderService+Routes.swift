import Foundation
import Hummingbird
import RasterKit
import RasterKitBatch

extension RasterRenderService {
    /// `GET /components/<component>/<state>.<ext>`: a manifest component in one of its states,
    /// in the appearance `appearance=` names (light by default).
    func component(_ rawComponent: Substring, file rawFile: Substring, request: Request) async -> Response {
        await answering(route: "components", request: request) { () async throws(RequestError) -> Response in
            let name = try PathSegment.decoded(rawComponent)
            let (stateName, format) = try ServedFormat.split(try PathSegment.decoded(rawFile))
            let catalog = currentCatalog
            guard let component = catalog.components[name] else {
                // The signature is checked before anything is said about the catalogue.
                _ = try checkedQuery(request, extraKeys: ["appearance"])
                throw .notFound("no component named '\(name)'" + Self.hint(for: name, in: catalog.components.keys)
                                + "; GET /components lists them", code: "unknown_component")
            }
            let query = try checkedQuery(request, extraKeys: ["appearance"], component: component)
            guard component.appearances.contains(query.appearance) else {
                throw .notFound("component '\(name)' has no \(query.appearance) appearance; it has "
                                + component.appearances.map(\.rawValue).joined(separator: ", "), code: "unknown_appearance")
            }
            guard let state = component.states(in: query.appearance).first(where: { $0.name == stateName }) else {
                let states = component.states.map(\.name)
                throw .notFound("component '\(name)' has no state '\(stateName)'" + Self.hint(for: stateName, in: states)
                                + "; it has \(states.joined(separator: ", "))", code: "unknown_state")
            }
            // A size the manifest lists keeps its caps; another size is drawn with the first's caps.
            // A size measured from the layers (`width: auto`) is the state's own: with parameters,
            // the state they make is resolved first, since its text decides the size.
            var measured = state.measuredSizes
            if query.size == nil, measured != nil, !query.parameters.isEmpty, let manifest = catalog.manifest {
                do throws(ParameterError) {
                    measured = try manifest.state(stateName, of: component, in: query.appearance,
                                                  parameters: query.parameters).measuredSizes
                } catch {
                    throw .parameter(error)
                }
            }
            let size = query.size ?? (measured?.first ?? component.sizes.first)?.size
            guard let size else { throw .badRequest("component '\(name)' has no size in the manifest: add size=WxH") }
            // The values as given, as a digest: the memo holds only requests whose values were
            // checked (and rendered) before, so a repeated request skips checking them again, and
            // a new spelling is checked before its component is made. A value outside its
            // declaration is never drawn and never remembered.
            let parameterKey = query.parameters.isEmpty ? "" : Self.digest(query.parameters)
            let request = ServedRequest(catalog: catalog, memoKey: "c/\(name)/\(stateName)/\(query.appearance)/\(RenderQuery.format(size))@\(query.scale)/\(parameterKey)",
                                        size: size, query: query, format: format, http: request) { () throws(RequestError) -> any Rasterizable in
                let spec = component.sizes.first { $0.size == size }
                    ?? Manifest.ComponentSize(size: size, capInsets: component.sizes.first?.capInsets)
                guard !query.parameters.isEmpty, let manifest = catalog.manifest else { return component.renderable(state, at: spec) }
                do throws(ParameterError) {
                    return component.renderable(try manifest.state(stateName, of: component, in: query.appearance,
                                                                   parameters: query.parameters), at: spec)
                } catch {
                    throw .parameter(error)
                }
            }
            return try await serve(request)
        }
    }

    /// `GET /icons/<path>.<ext>?size=N`: an SVG of the icon folder.
    func icon(_ rawSegments: [Substring], request: Request) async -> Response {
        await answering(route: "icons", request: request) { () async throws(RequestError) -> Response in
            var segments: [String] = []
            for raw in rawSegments { segments.append(try PathSegment.decoded(raw)) }
            guard let last = segments.popLast() else { throw .notFound("name an icon: /icons/<path>.png?size=N") }
            let (file, format) = try ServedFormat.split(last)
            let name = (segments + [file]).joined(separator: "/")
            let query = try checkedQuery(request, extraKeys: ["tint"])
            let catalog = currentCatalog
            guard let icons = catalog.icons else { throw .notFound("this server serves no icon folder") }
            guard icons.files[name] != nil else {
                throw .notFound("no icon named '\(name)'" + Self.hint(for: name, in: icons.files.keys), code: "unknown_icon")
            }
            guard let size = query.size else { throw .badRequest("give the icon's size: size=N or size=WxH") }
            let tint = query.tint.map { "\($0)" } ?? "-"
            let request = ServedRequest(catalog: catalog, memoKey: "i/\(name)/\(RenderQuery.format(size))@\(query.scale)/\(tint)",
                                        size: size, query: query, format: format, http: request) { () throws(RequestError) -> any Rasterizable in
                let document: SVGDocument?
                do { document = try icons.document(named: name) } catch {
                    throw RequestError(.internalServerError, "icon '\(name)' cannot be read: \(error)")
                }
                guard let document else { throw .notFound("no icon named '\(name)'") }
                // Stretched like `rasterkit svg`, so the two share renders in one store.
                return SVGImage(document, contentMode: .stretch, tint: query.tint)
            }
            return try await serve(request)
        }
    }

    /// 32 hexadecimal digits standing for parameter values.
    static func digest(_ values: [String: String]) -> String {
        var hasher = SipHash128()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            for text in [key, value] {
                hasher.write(UInt64(text.utf8.count))
                for byte in text.utf8 { hasher.write(byte) }
            }
        }
        return hasher.finalize().hex
    }

    /// ` (did you mean "button"?)` for a name a client got wrong, or nothing. Bounded, since
    /// anyone can ask: no suggestion for a name over 64 characters or among over 4,096 names.
    static func hint(for name: String, in candidates: some Collection<String>) -> String {
        guard name.count <= 64, candidates.count <= 4_096 else { return "" }
        return Suggestion.hint(for: name, in: candidates)
    }

    /// Checks the signature (when the server has a key), then parses the query.
    private func checkedQuery(_ request: Request, extraKeys: Set<String>,
                              component: Manifest.Component? = nil) throws(RequestError) -> RenderQuery {
        let rawQuery = request.uri.query ?? ""
        if let signer { try signer.verify(path: request.uri.path, rawQuery: rawQuery, now: Date()) }
        var items: [(key: String, value: String)] = []
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.percentDecoded(parts[0]), let value = Self.percentDecoded(parts.count == 2 ? parts[1] : "") else {
                throw .badRequest("the query is not valid percent-encoding")
            }
            items.append((key, value))
        }
        return try RenderQuery(items, extraKeys: extraKeys, component: component, configuration: configuration)
    }

    /// `text` with its percent escapes decoded; nil when they are malformed.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        // Bytes, then one UTF-8 check: Foundation's decoder went through CFString and cost a
        // warm hit with parameters a fifth of its time.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigits.value(of:)), let low = iterator.next().flatMap(HexDigits.value(of:)) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Runs `body`, turning a refused request into its JSON error, and counts the response.
    func answering(route: String, request: Request,
                           _ body: () async throws(RequestError) -> Response) async -> Response {
        let response: Response
        do { response = try await body() } catch { response = error.response }
        metrics.countRequest(route: route, status: response.status.code)
        return response
    }
}
