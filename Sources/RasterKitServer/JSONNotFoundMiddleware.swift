import Hummingbird

/// Answers a path no route matches with the same JSON error body as every other refusal, so a
/// client of `rasterkit serve` reads one error format (Hummingbird's own 404 has no body).
struct JSONNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return RequestError.notFound("no route for \(request.uri.path); see /components, /components/…, /icons/…, /health, /metrics",
                                         code: "unknown_route").response
        }
    }
}
