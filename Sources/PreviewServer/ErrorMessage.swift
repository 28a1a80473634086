import Foundation
import Hummingbird

/// Error responses with a one-line reason: JSON `{"error": "..."}` and the matching status.
enum ErrorMessage {
    static func response(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        let json = "{\"error\":\(JSONString.quoted(message))}"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}

/// Turns the router's own errors (no route: 404, and any other `HTTPError`) into a
/// `{"error": ...}` body that says what was asked for.
struct ErrorMessageMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound {
                return ErrorMessage.response(.notFound, "no such page: \(request.method) \(request.uri.path.prefix(200))")
            }
            return ErrorMessage.response(error.status, error.body ?? error.status.reasonPhrase)
        }
    }
}
