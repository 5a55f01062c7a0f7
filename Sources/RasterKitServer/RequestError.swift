import Foundation
import HTTPTypes
import Hummingbird

/// A request the server refuses, with its status and a message for the client; answered as
/// `{"error": message, "status": code}` so that scripts and CDNs can read why.
struct RequestError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    /// Extra headers, such as `Retry-After` on a 503.
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The JSON response; errors are never cached by a CDN.
    var response: Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": message, "status": status.code] as [String: Any],
                                                options: [.sortedKeys])) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func badRequest(_ message: String) -> RequestError { RequestError(.badRequest, message) }
    static func notFound(_ message: String) -> RequestError { RequestError(.notFound, message) }
}
