import CCurl

extension TransferError {
    /// Maps a libcurl result to a typed error.
    init(curlCode: CURLcode, detail: String) {
        let code: Code = switch curlCode {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotResolveHost
        case CURLE_COULDNT_CONNECT: .cannotConnect
        case CURLE_RECV_ERROR: .connectionReset
        case CURLE_SEND_ERROR: .sendFailed
        case CURLE_PARTIAL_FILE: .truncatedBody
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING: .badServerResponse
        case CURLE_GOT_NOTHING: .emptyResponse
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            .tlsFailure
        // libcurl also says "unsupported protocol" for a response whose status line names no HTTP version it knows.
        case CURLE_UNSUPPORTED_PROTOCOL where detail.containsBytes("in response"): .badServerResponse
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .badURL
        case CURLE_WRITE_ERROR, CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE: .fileIO
        case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3: .protocolError
        case CURLE_ABORTED_BY_CALLBACK: .cancelled
        default: .other
        }
        let summary = String(cString: curl_easy_strerror(curlCode))
        let message = detail.isEmpty || detail == summary ? summary : detail
        self.init(code: code, message: message, curlCode: Int(curlCode.rawValue))
    }
}
