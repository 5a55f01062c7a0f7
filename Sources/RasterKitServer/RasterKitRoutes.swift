import Foundation
import Hummingbird

/// Mounts RasterKit's routes on a Hummingbird router, in your own application or in
/// `rasterkit serve`: `/components/<component>/<state>.png`, `/icons/<path>.png`, the same with
/// `.webp`, `.pdf` and `.svg`, the catalogue at `/components`, `/health` and `/metrics`. `HEAD` is
/// answered for each, without a body.
///
/// ```swift
/// let router = Router()
/// RasterKitRoutes(service: service).register(on: router)
/// ```
public struct RasterKitRoutes: Sendable {
    /// The service answering the routes.
    public let service: RasterRenderService
    /// Whether `/health` and `/metrics` are mounted too.
    public var includesOperationalRoutes = true

    /// Routes answered by `service`.
    public init(service: RasterRenderService) {
        self.service = service
    }

    /// Adds the routes to `router`.
    public func register<Context: RequestContext>(on router: Router<Context>) {
        let service = service
        let component: @Sendable (Request, Context) async -> Response = { request, context in
            await service.component((context.parameters.get("component") ?? "")[...],
                                    file: (context.parameters.get("file") ?? "")[...], request: request)
        }
        let icon: @Sendable (Request, Context) async -> Response = { request, context in
            await service.icon(context.parameters.getCatchAll(), request: request)
        }
        let catalogue: @Sendable (Request, Context) async -> Response = { request, _ in await service.catalogue(request: request) }
        router.get("/components", use: catalogue)
        router.head("/components") { request, context in await catalogue(request, context).createHeadResponse() }
        router.get("/components/:component/:file", use: component)
        router.get("/icons/**", use: icon)
        // HEAD: the GET response's status and headers (Content-Length included), without its body.
        router.head("/components/:component/:file") { request, context in await component(request, context).createHeadResponse() }
        router.head("/icons/**") { request, context in await icon(request, context).createHeadResponse() }
        guard includesOperationalRoutes else { return }
        let health: @Sendable (Request, Context) async -> Response = { _, _ in
            service.metrics.countRequest(route: "health", status: 200)
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}")))
        }
        let metrics: @Sendable (Request, Context) async -> Response = { _, _ in
            service.metrics.countRequest(route: "metrics", status: 200)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: service.metricsText())))
        }
        router.get("/health", use: health)
        router.get("/metrics", use: metrics)
        // HEAD wherever GET answers.
        router.head("/health") { request, context in await health(request, context).createHeadResponse() }
        router.head("/metrics") { request, context in await metrics(request, context).createHeadResponse() }
    }
}
