// The request model (HTTPRequest, HTTPHeader, HTTPURL, heads, PhaseTimings) is part of this library's API.
@_exported import ReqtopHTTPModel
