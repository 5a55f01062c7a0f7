import Foundation
import HTTPTypes
import Hummingbird
import RasterKitBatch

/// A request the server refuses, with its status, a stable code and a message for the client;
/// answered as `{"code": "unknown_component", "error": message, "status": 404}` so that scripts
/// and CDNs can tell why: the `code` is stable across releases, the message is for people.
struct RequestError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    /// `unknown_component`, `bad_request`, …: what scripts match on.
    let code: String
    /// Extra headers, such as `Retry-After` on a 503.
    var headers: HTTPFields = [:]
    /// Extra fields of the JSON body: the `parameter` and its `declaration` a value broke.
    var details: [String: String] = [:]

    init(_ status: HTTPResponse.Status, _ message: String, code: String? = nil) {
        self.status = status
        self.message = message
        self.code = code ?? Self.code(for: status)
    }

    /// The code of a refusal no more specific code names: its status, in words.
    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 413: "too_large"
        case 503: "unavailable"
        case 504: "timed_out"
        case 500...599: "internal_error"
        default: "http_\(status.code)"
        }
    }

    /// The JSON response; errors are never cached by a CDN.
    var response: Response {
        var object: [String: Any] = ["error": message, "status": status.code, "code": code]
        for (key, value) in details { object[key] = value }
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func badRequest(_ message: String, code: String = "bad_request") -> RequestError {
        RequestError(.badRequest, message, code: code)
    }

    /// A parameter value the component's declaration refuses, or a parameter it does not declare.
    static func parameter(_ error: ParameterError) -> RequestError {
        var refusal = RequestError(.badRequest, error.description, code: error.declaration == nil && !error.parameter.isEmpty ? "unknown_parameter" : "invalid_parameter")
        if !error.parameter.isEmpty { refusal.details["parameter"] = error.parameter }
        if let declaration = error.declaration { refusal.details["declaration"] = declaration }
        return refusal
    }

    static func notFound(_ message: String, code: String = "not_found") -> RequestError {
        RequestError(.notFound, message, code: code)
    }
}
