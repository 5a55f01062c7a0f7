import Foundation
import HTTPTypes
import Hummingbird
import RasterKit

extension RasterRenderService {
    /// The response for a render request: 304 when the client has it (decided from the key
    /// alone, before any store is read or anything drawn), else its bytes from the encoded cache,
    /// else rendered through the bounded queue and the rasterizer's tiers.
    func serve(_ render: ServedRequest) async throws(RequestError) -> Response {
        let query = render.query, size = render.size, format = render.format
        try query.checkPixels(of: size, configuration: configuration)
        // The component is made (and its key hashed) only when this request was not seen before,
        // and again only when it must be rendered.
        var component: (any Rasterizable)?
        let resolved: RenderIdentity
        if let known = render.catalog.identities.identity(for: render.memoKey) {
            resolved = known
        } else {
            let made = try render.makeComponent()
            component = made
            do {
                resolved = try RenderIdentity(made, size: size, scale: query.scale, rasterizer: rasterizer)
            } catch {
                throw RequestError(.internalServerError, "the component cannot be keyed: \(error)")
            }
            render.catalog.identities.store(resolved, for: render.memoKey)
        }
        let identity = resolved.identity
        var headers = cachingHeaders(identity: identity, keyDigest: resolved.keyDigest, versioned: query.isVersioned)
        if let ifNoneMatch = render.http.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch, tag: EntityTag.quoted(identity)) {
            metrics.countRender(origin: "revalidated")
            return Response(status: .notModified, headers: headers)
        }
        let encodedKey = identity + "." + format.fileExtension
        if let data = encoded.buffer(for: encodedKey) {
            metrics.countRender(origin: "memory")
            return imageResponse(data, format: format, origin: "memory", headers: headers)
        }
        let drawn: any Rasterizable
        if let component { drawn = component } else { drawn = try render.makeComponent() }
        let stretches = resolved.stretches
        let outcome: (data: ByteBuffer, origin: RenderedImage.Origin)?
        do {
            outcome = try await admission.withSlot {
                try await self.render(drawn, size: size, scale: query.scale, stretches: stretches, format: format)
            }
        } catch let error as RequestError {
            throw error
        } catch {
            throw Self.failure(error)
        }
        guard let outcome else {
            var refusal = RequestError(.serviceUnavailable, "the render queue is full (\(configuration.renderQueueLimit) renders); retry shortly")
            refusal.headers[.retryAfter] = String(configuration.retryAfterSeconds)
            throw refusal
        }
        metrics.countRender(origin: outcome.origin.rawValue)
        if outcome.origin == .fallback {
            // Made with a fallback because the real render failed: not to be kept under the
            // real render's tag, and retried by the next request.
            headers[.eTag] = nil
            headers[.cacheControl] = "no-cache"
        } else {
            encoded.store(outcome.data, for: encodedKey)
        }
        return imageResponse(outcome.data, format: format, origin: outcome.origin.rawValue, headers: headers)
    }

    /// Renders (or fetches from the rasterizer's tiers) and encodes; runs inside a queue slot.
    /// Everything that blocks — drawing, a vector document, stretching, encoding — runs on the
    /// rasterizer's render threads, in one bound, never on Swift concurrency's threads, which
    /// stay free for `/health`, revalidations and warm hits.
    private func render<Component: Rasterizable>(_ component: Component, size: Size, scale: Double, stretches: Bool,
                                                 format: ServedFormat) async throws -> (data: ByteBuffer, origin: RenderedImage.Origin) {
        let start = ContinuousClock.now
        let rasterizer = self.rasterizer
        if let vector = format.vector {
            // A document is drawn from the component at the size in points (a nine-slice at its
            // full size), not from a render; the encoded cache keeps it like any response.
            let document = try await rasterizer.onRenderThreads {
                try rasterizer.vectorDocument(of: component, size: size, format: vector)
            }
            metrics.recordDraw(ContinuousClock.now - start)
            return (ByteBuffer(bytes: document), .drawn)
        }
        let rendered = try await rasterizer.render(RenderRequest(component, size: size, scale: scale, priority: .urgent))
        if rendered.origin == .drawn || rendered.origin == .fallback { metrics.recordDraw(ContinuousClock.now - start) }
        guard let encoder = format.encoder else { throw RequestError(.internalServerError, "no encoder for .\(format.fileExtension)") }
        let image = rendered.image
        let data = try await rasterizer.onRenderThreads {
            try encoder.encode(stretches && image.capInsets != nil ? try image.stretched(to: size) : image)
        }
        return (ByteBuffer(bytes: data), rendered.origin)
    }

    private func cachingHeaders(identity: String, keyDigest: String, versioned: Bool) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = EntityTag.quoted(identity)
        headers[.cacheControl] = versioned
            ? "public, max-age=\(configuration.versionedMaxAge), immutable"
            : "public, max-age=\(configuration.maxAge)"
        headers[Self.keyField] = keyDigest
        return headers
    }

    /// The response for encoded bytes: the buffer is shared, never copied, so every client
    /// served one response (fast or slow to read it) holds the same bytes.
    private func imageResponse(_ data: ByteBuffer, format: ServedFormat, origin: String, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = format.contentType
        headers[Self.originField] = origin
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: data))
    }

    /// A render that failed: over a limit or asked for at a size the component cannot take is
    /// the request's fault (400), anything else the server's (500).
    private static func failure(_ error: any Error) -> RequestError {
        var underlying = error
        while case .drawFailed(_, _, let inner)? = underlying as? RenderError { underlying = inner }
        switch underlying as? RenderError {
        case .surfaceTooLarge?, .invalidSize?, .invalidScale?, .limitExceeded?, .memoryBudgetExceeded?, .invalidCapInsets?:
            return .badRequest("the render is over the server's limits, or not possible at this size: \(underlying)")
        default:
            return RequestError(.internalServerError, "the render failed: \(error)")
        }
    }

    /// `X-RasterKit-Origin`: where the image came from (memory, disk, remote, drawn, joined, fallback).
    static let originField = HTTPField.Name("X-RasterKit-Origin")!
    /// `X-RasterKit-Key`: the render's cache key digest.
    static let keyField = HTTPField.Name("X-RasterKit-Key")!
}
