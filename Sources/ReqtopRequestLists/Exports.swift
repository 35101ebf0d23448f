// Request lists resolve to the shared request model (HTTPRequest, HTTPHeader, HTTPURL, JSONValue).
@_exported import ReqtopHTTPModel
