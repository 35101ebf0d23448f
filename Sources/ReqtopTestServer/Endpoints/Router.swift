/// Maps a request path to its endpoint. Every endpoint is listed in ``EndpointIndex``.
enum Router {
    static func respond(to exchange: Exchange) throws -> Disposition {
        let segments = exchange.request.path.split(separator: "/").map(String.init)
        switch (segments.first ?? "", segments.count) {
        case ("", 0):
            return try exchange.respondText(EndpointIndex.text)
        case ("get", 1):
            return try allow(["GET", "HEAD"], exchange) { try EchoEndpoints.get(exchange) }
        case ("echo", 2) where segments[1] == "head":
            return try EchoEndpoints.rawHead(exchange)
        case ("headers", 1):
            return try exchange.respondJSON(["headers": EchoFields.headers(exchange.request)])
        case ("post", 1), ("put", 1), ("patch", 1), ("delete", 1):
            return try allow([segments[0].uppercased()], exchange) {
                try EchoEndpoints.bodyEcho(exchange)
            }
        case ("anything", _):
            return try EchoEndpoints.bodyEcho(exchange)
        case ("delay", 2):
            return try EchoEndpoints.delay(exchange, seconds: segments[1])
        case ("sse", 1):
            return try allow(["GET", "HEAD"], exchange) { try StreamEndpoints.sse(exchange) }
        case ("ndjson", 1):
            return try allow(["GET", "HEAD"], exchange) { try StreamEndpoints.ndjson(exchange) }
        case ("html", 1), ("xml", 1), ("json", 1):
            return try allow(["GET", "HEAD"], exchange) { try DocumentEndpoints.respond(exchange, segments[0]) }
        case ("gzip", 1):
            return try EchoEndpoints.gzip(exchange)
        case ("status", 2):
            return try RedirectEndpoints.status(exchange, code: segments[1])
        case ("redirect", 2), ("relative-redirect", 2):
            return try RedirectEndpoints.redirect(exchange, count: segments[1])
        case ("redirect-to", 1):
            return try RedirectEndpoints.redirectTo(exchange)
        case ("bytes", 2):
            return try ByteEndpoints.bytes(exchange, count: segments[1])
        case ("stream-bytes", 2):
            return try ByteEndpoints.streamBytes(exchange, count: segments[1])
        case ("drip", 1):
            return try ByteEndpoints.drip(exchange)
        case ("basic-auth", 3):
            return try CookieAndAuthEndpoints.basicAuth(exchange, user: segments[1], password: segments[2])
        case ("cookies", 1):
            return try CookieAndAuthEndpoints.cookies(exchange)
        case ("cookies", 2) where segments[1] == "set":
            return try CookieAndAuthEndpoints.setCookies(exchange)
        case ("cookies", 2) where segments[1] == "delete":
            return try CookieAndAuthEndpoints.deleteCookies(exchange)
        case ("fault", 2):
            return try FaultEndpoints.respond(to: exchange, fault: segments[1])
        default:
            return try notFound(exchange)
        }
    }

    static func notFound(_ exchange: Exchange) throws -> Disposition {
        try exchange.respondText("no endpoint at \(exchange.request.path); GET / lists them\n", status: 404)
    }

    static func badRequest(_ exchange: Exchange, _ message: String) throws -> Disposition {
        try exchange.respondText(message + "\n", status: 400)
    }

    private static func allow(
        _ methods: [String], _ exchange: Exchange, _ body: () throws -> Disposition
    ) throws -> Disposition {
        guard methods.contains(exchange.request.method) else {
            return try exchange.respondText(
                "method \(exchange.request.method) not allowed here; use \(methods.joined(separator: ", "))\n",
                status: 405, headers: [("Allow", methods.joined(separator: ", "))]
            )
        }
        return try body()
    }
}
