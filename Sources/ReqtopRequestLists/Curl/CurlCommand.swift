import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The words of a `-F` value as curl reads them: a word is quoted (`"…"`, `\\` escaping `"` and
/// `\\`) or runs to the next `;`; attributes follow as `;key=word`.
struct FormParameter {
    var text: Substring

    mutating func word() -> String {
        text = text.drop { $0 == " " || $0 == "\t" }
        var out = ""
        if text.first == "\"" {
            text = text.dropFirst()
            while let c = text.first, c != "\"" {
                text = text.dropFirst()
                if c == "\\", let next = text.first, next == "\"" || next == "\\" {
                    out.append(next)
                    text = text.dropFirst()
                } else {
                    out.append(c)
                }
            }
            text = text.dropFirst()
            text = text.drop { $0 != ";" } // after the closing quote, up to the next attribute
        } else {
            out = String(text.prefix { $0 != ";" })
            text = text.dropFirst(out.count)
        }
        return out
    }

    /// The next `;key=value`, or nil at the end.
    mutating func attribute() -> (key: String, value: String)? {
        guard text.first == ";" else { return nil }
        text = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        let key = String(text.prefix { $0 != "=" && $0 != ";" })
        text = text.dropFirst(key.count)
        guard text.first == "=" else { return (key, "") }
        text = text.dropFirst()
        return (key, word())
    }
}

/// One curl request's options (a command, or the part of one between `--next`s), collected word by
/// word with curl 7.88's semantics and turned into specs (one per URL).
struct CurlCommand {
    let location: SourceLocation
    let directory: String
    let lines: [String]
    /// The command's standard input (`< file`, a heredoc, a herestring), for `@-`.
    let stdin: Data?
    var urls: [String] = []
    var method: String?
    var head = false
    var get = false
    var headers: [HTTPHeader] = []
    /// Headers removed with `-H 'Name:'`, lower case: curl does not add them.
    var removedHeaders: Set<String> = []
    /// `-d`-family pieces, joined with `&` as curl joins them (not before a `--json` piece: curl
    /// appends those as they are).
    var data: [(bytes: Data, isJSON: Bool)] = []
    var urlQueries: [String] = []
    /// `-F` parts, each exactly as curl writes it: delimiter, part header fields, blank line, content.
    var formParts: [Data] = []
    /// `-b name=value` strings (joined with `; `) and `-b FILE` / `-b @FILE` Netscape cookie files.
    var cookieStrings: [String] = []
    var cookieFiles: [(path: String, word: ShellWords.Word)] = []
    var user: String?
    var bearer: String?
    /// `--digest` and friends: curl sends no credentials until challenged, and reqtop does not do those schemes.
    var nonBasicAuth = false
    var json = false
    /// The request waits for `100 Continue` before its body, as curl's does (`-T`, a body over 1 MiB).
    var expectContinue = false
    /// `-T FILE` in order: curl pairs the first with the first URL, the second with the second…
    var uploads: [(path: String, fromStdin: Bool, word: ShellWords.Word)] = []
    /// curl follows redirects only with -L, so a command without it does not either.
    var options = HTTPRequest.Options(followRedirects: false)
    var ignored: [String] = []
    /// `-g`: `{}` and `[]` in URLs are sent as written, not expanded (curl's URL globbing).
    var globoff = false
    var warnings: [RequestListWarning] = []
    /// As long as curl's (24 dashes and 16 characters), so bodies have curl's length.
    private let boundary = "------------------------reqtop" + String(UUID().uuidString.replacingEvery("-", with: "").prefix(10)).lowercased()

    init(location: SourceLocation, directory: String, lines: [String], stdin: Data?) {
        self.location = location
        self.directory = directory
        self.lines = lines
        self.stdin = stdin
    }

    func error(_ message: String, at word: ShellWords.Word) -> RequestListError {
        RequestListError(file: location.file, line: word.line, column: word.column, message: message,
                         lineText: word.line <= lines.count ? lines[word.line - 1] : "")
    }

    mutating func apply(_ words: [ShellWords.Word]) throws(RequestListError) {
        var i = 0
        var optionsEnded = false
        while i < words.count {
            let word = words[i]
            i += 1
            if optionsEnded || !word.text.hasPrefix("-") || word.text == "-" {
                urls.append(word.text)
                continue
            }
            if word.text == "--" { optionsEnded = true; continue }
            if word.text.hasPrefix("--") {
                let name = String(word.text.dropFirst(2))
                var value: String?
                if CurlOptions.longWithArgument.contains(name) {
                    guard i < words.count else { throw error("option \(quoting: word.text) needs a value", at: word) }
                    value = words[i].text
                    i += 1
                }
                try option(name, value: value, word: word)
                continue
            }
            // A cluster of short options: -sSL, -XPOST, -H 'a: b'.
            let letters = Array(word.text.dropFirst())
            var next = 0 // an index, not removeFirst(): a 200,000-letter cluster was quadratic
            while next < letters.count {
                let letter = letters[next]
                next += 1
                let name = CurlOptions.longNameOfShort[letter] ?? "-" + String(letter)
                var value: String?
                if CurlOptions.shortWithArgument.contains(letter) {
                    if next < letters.count {
                        value = String(letters[next...])
                        next = letters.count
                    } else {
                        guard i < words.count else { throw error("option '-\(letter)' needs a value", at: word) }
                        value = words[i].text
                        i += 1
                    }
                }
                try option(name, value: value, word: word, shown: "-" + String(letter))
            }
        }
    }

    mutating func option(_ name: String, value: String?, word: ShellWords.Word, shown: String? = nil) throws(RequestListError) {
        let v = value ?? ""
        let flag = shown ?? "--" + name
        switch name {
        case "request": method = v
        case "header": try header(v, word: word)
        case "data", "data-ascii":
            // From a file (or stdin), curl strips carriage returns and newlines.
            data.append((v.hasPrefix("@") ? try contents(String(v.dropFirst()), word: word).filter { $0 != 0x0D && $0 != 0x0A } : Data(v.utf8), false))
        case "data-binary": data.append((v.hasPrefix("@") ? try contents(String(v.dropFirst()), word: word) : Data(v.utf8), false))
        case "data-raw": data.append((Data(v.utf8), false))
        case "data-urlencode": data.append((Data(try urlencoded(v, word: word).utf8), false))
        case "json":
            json = true
            data.append((v.hasPrefix("@") ? try contents(String(v.dropFirst()), word: word) : Data(v.utf8), true))
        case "url-query":
            urlQueries.append(v.hasPrefix("+") ? String(v.dropFirst()) : try urlencoded(v, word: word))
        case "form", "form-string": try form(v, literal: name == "form-string", word: word)
        case "upload-file": uploads.append((v, v == "-", word))
        case "get": get = true
        case "head": head = true
        case "user": user = v.containsBytes(":") ? v : v + ":"
        case "oauth2-bearer": bearer = v
        case "digest", "ntlm", "negotiate", "anyauth", "no-basic", "ntlm-wb", "aws-sigv4":
            nonBasicAuth = true
            ignored.append(value.map { "\(flag) \($0)" } ?? flag)
        case "basic": nonBasicAuth = false
        case "range": headers.append(HTTPHeader(name: "Range", value: "bytes=" + (v.containsBytes("-") ? v : v + "-")))
        case "cookie":
            // As curl: `@FILE` and a word without `=` name a cookie file; anything else is cookies.
            if v.hasPrefix("@") { cookieFiles.append((String(v.dropFirst()), word)) } else if v.containsBytes("=") { cookieStrings.append(v) } else { cookieFiles.append((v, word)) }
        case "user-agent": headers.append(HTTPHeader(name: "User-Agent", value: v))
        case "referer":
            let referer = v.hasSuffix(";auto") ? String(v.dropLast(5)) : v
            if !referer.isEmpty { headers.append(HTTPHeader(name: "Referer", value: referer)) }
        case "compressed": options.compressed = true
        case "http1.1", "http2", "http2-prior-knowledge": options.httpVersion = HTTPRequest.HTTPVersion(flag: name)
        case "insecure": options.insecure = true
        case "location": options.followRedirects = true
        case "location-trusted":
            options.followRedirects = true
            options.trustedRedirects = true
        case "max-redirs":
            guard let hops = Int(v), hops >= -1 else { throw error("\(quoting: flag) needs a number, not \(quoting: v)", at: word) }
            options.maxRedirects = hops < 0 ? Int.max : hops
        case "url": urls.append(v)
        case "globoff": globoff = true
        case "max-time":
            guard let seconds = Double(v), seconds > 0 else { throw error("\(quoting: flag) needs a number of seconds, not \(quoting: v)", at: word) }
            options.timeout = seconds
        default:
            if CurlOptions.noEffectOnTheRequest.contains(name) { return }
            ignored.append(value.map { "\(flag) \($0)" } ?? flag)
        }
    }

    mutating func header(_ line: String, word: ShellWords.Word) throws(RequestListError) {
        if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingWhitespace()
            // Leading blanks are not part of the value; trailing ones are sent as written, as curl does.
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            guard !name.isEmpty else { throw error("header \(quoting: line) has no name", at: word) }
            if value.trimmingWhitespace().isEmpty {
                // "Name:" removes a header curl would add (Accept, User-Agent, Host…); one the command sets itself stays.
                // (Content-Type and Expect: reqtop never adds them, so there is nothing to leave out.)
                if removedHeaders.insert(name.lowercased()).inserted, !["content-type", "expect"].contains(name.lowercased()) {
                    options.omittedHeaders = (options.omittedHeaders ?? []) + [name]
                }
            } else {
                headers.append(HTTPHeader(name: name, value: value))
            }
        } else if line.hasSuffix(";") {
            headers.append(HTTPHeader(name: String(line.dropLast()).trimmingWhitespace(), value: ""))
        } else {
            throw error("header \(quoting: line) is not 'Name: value'", at: word)
        }
    }

    /// A file's contents, or standard input for `-`, read now (relative paths: to the list's folder).
    func contents(_ path: String, word: ShellWords.Word) throws(RequestListError) -> Data {
        if path == "-" {
            guard let stdin else {
                throw error("'@-' reads standard input, which this command does not redirect (add '< file' or a heredoc)", at: word)
            }
            return stdin
        }
        let full = RequestBody.absolutePath(path, relativeTo: directory)
        guard let data = FileManager.default.contents(atPath: full) else {
            throw error("cannot read \(quoting: path) (looked for \(full))", at: word)
        }
        return data
    }

    /// `--data-urlencode` (and `--url-query`) in its five forms: `content`, `=content`,
    /// `name=content`, `@file`, `name@file`.
    func urlencoded(_ value: String, word: ShellWords.Word) throws(RequestListError) -> String {
        if let eq = value.firstIndex(of: "="), !value[..<eq].containsBytes("@") {
            let name = String(value[..<eq])
            let content = FormEncoding.encodeComponent(String(value[value.index(after: eq)...]))
            return name.isEmpty ? content : name + "=" + content
        }
        if let at = value.firstIndex(of: "@") {
            let name = String(value[..<at])
            let file = String(decoding: try contents(String(value[value.index(after: at)...]), word: word), as: UTF8.self)
            let content = FormEncoding.encodeComponent(file)
            return name.isEmpty ? content : name + "=" + content
        }
        return FormEncoding.encodeComponent(value)
    }

    /// One `-F name=value` / `name=@file;type=…;filename=…;headers=…` / `name=<file` (or
    /// `--form-string name=value`), read as curl 7.88's `get_param_part` reads it: the value (or file
    /// name) up to the first `;` unless quoted, then `type=`, `filename=`, `headers=` (a field of the
    /// part, or `@FILE` of them) and `encoder=` attributes; others are skipped with a warning.
    mutating func form(_ text: String, literal: Bool, word: ShellWords.Word) throws(RequestListError) {
        guard let eq = text.firstIndex(of: "=") else { throw error("'-F \(text)' is not 'name=value'", at: word) }
        let name = String(text[..<eq])
        let value = String(text[text.index(after: eq)...])
        var disposition = "Content-Disposition: form-data; name=\"\(name)\""
        if literal {
            formParts.append(formPart(disposition: disposition, contentType: nil, fields: [], content: Data(value.utf8)))
            return
        }
        let kind = value.first.flatMap { $0 == "@" || $0 == "<" ? $0 : nil }
        var reader = FormParameter(text: kind == nil ? Substring(value) : value.dropFirst())
        let main = reader.word()
        var contentType: String?
        var fileName: String?
        var fields: [String] = []
        while let attribute = reader.attribute() {
            switch attribute.key {
            case "type": contentType = attribute.value
            case "filename": fileName = attribute.value
            case "headers":
                if attribute.value.hasPrefix("@") {
                    let lines = String(decoding: try contents(String(attribute.value.dropFirst()), word: word), as: UTF8.self)
                    fields += lines.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
                } else {
                    fields.append(attribute.value)
                }
            case "encoder":
                ignored.append("-F \(name)=…;encoder=\(attribute.value) (parts are sent unencoded)")
            default:
                warnings.append(RequestListWarning(location: location, message: "-F \(name): curl skips the unknown form field \(quoting: attribute.key)"))
            }
        }
        if let kind {
            if kind == "@" {
                let shown = fileName ?? main.lastPathComponent
                disposition += "; filename=\"\(shown)\""
                contentType = contentType ?? Self.guessedContentType(shown)
            } else if let fileName {
                disposition += "; filename=\"\(fileName)\""
            }
            // The file's bytes as they are: no line ends changed, nothing decoded.
            formParts.append(formPart(disposition: disposition, contentType: contentType, fields: fields, content: try contents(main, word: word)))
            return
        }
        if let fileName { disposition += "; filename=\"\(fileName)\"" }
        formParts.append(formPart(disposition: disposition, contentType: contentType, fields: fields, content: Data(main.utf8)))
    }

    /// One part as curl writes it, CRLF line ends: `--boundary`, the part's header fields, a blank
    /// line, the content, and the line end before the next delimiter.
    private func formPart(disposition: String, contentType: String?, fields: [String], content: Data) -> Data {
        var part = Data("--\(boundary)\r\n\(disposition)\r\n".utf8)
        if let contentType { part.append(Data("Content-Type: \(contentType)\r\n".utf8)) }
        for field in fields { part.append(Data("\(field)\r\n".utf8)) }
        part.append(Data("\r\n".utf8))
        part.append(content)
        part.append(Data("\r\n".utf8))
        return part
    }

    /// The type curl gives an uploaded file by its name's extension (any case), else
    /// `application/octet-stream` (curl's `Curl_mime_contenttype`).
    static func guessedContentType(_ fileName: String) -> String {
        let types = [".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".svg": "image/svg+xml",
                     ".txt": "text/plain", ".htm": "text/html", ".html": "text/html", ".pdf": "application/pdf", ".xml": "application/xml"]
        let lowered = fileName.lowercased()
        return types.first { lowered.hasSuffix($0.key) }?.value ?? "application/octet-stream"
    }

    /// One spec per URL.
    mutating func specs() throws(RequestListError) -> [RequestSpec] {
        if !ignored.isEmpty {
            warnings.append(RequestListWarning(location: location, message: "ignored curl options: " + ignored.joined(separator: ", ")))
        }
        guard !urls.isEmpty else {
            let word = ShellWords.Word(text: "curl", line: location.line, column: location.column)
            throw error("curl command has no URL", at: word)
        }
        if !nonBasicAuth, !headers.contains(name: "Authorization") {
            if let user {
                headers.insert(HTTPHeader(name: "Authorization", value: "Basic " + Data(user.utf8).base64EncodedString()), at: 0)
            } else if let bearer {
                headers.insert(HTTPHeader(name: "Authorization", value: "Bearer " + bearer), at: 0)
            }
        }
        let jar = try cookieJar()
        var body: RequestBody?
        var queryAddition = urlQueries
        var defaultMethod = "GET"
        if !formParts.isEmpty {
            body = .bytes(formParts.reduce(into: Data()) { $0.append($1) } + Data("--\(boundary)--\r\n".utf8))
            if let i = headers.firstIndex(where: { HTTPHeader.namesMatch($0.name, "Content-Type") }) {
                // As curl does, a multipart Content-Type of the command's own gets the boundary.
                if !headers[i].value.containsBytes("boundary=") { headers[i].value += "; boundary=\(boundary)" }
            } else {
                headers.append(HTTPHeader(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)"))
            }
            defaultMethod = "POST"
        } else if !data.isEmpty {
            let joined = data.reduce(into: Data()) { all, piece in
                if !all.isEmpty, !piece.isJSON { all.append(UInt8(ascii: "&")) }
                all.append(piece.bytes)
            }
            if get {
                queryAddition.append(String(decoding: joined, as: UTF8.self))
            } else {
                body = String(data: joined, encoding: .utf8).map(RequestBody.text) ?? .bytes(joined)
                defaultMethod = "POST"
                if json {
                    if !headers.contains(name: "Content-Type") { headers.append(HTTPHeader(name: "Content-Type", value: "application/json")) }
                    if !headers.contains(name: "Accept") { headers.append(HTTPHeader(name: "Accept", value: "application/json")) }
                } else if !headers.contains(name: "Content-Type"), !removedHeaders.contains("content-type") {
                    headers.append(HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"))
                }
            }
        }
        if let upload = uploads.first, body != nil {
            // curl: "You can only select one HTTP request method! You asked for both PUT (-T) and POST (-d)", exit 2.
            throw error("curl refuses -T (a PUT) with -d or -F (a POST) in one command: only one method can be chosen", at: upload.word)
        }
        for extra in uploads.dropFirst(urls.count) {
            warnings.append(RequestListWarning(location: location, message: "-T \(extra.path) has no URL of its own to go to: curl skips it"))
        }
        var specs: [RequestSpec] = []
        for (index, written) in urls.enumerated() {
            // The URL's own -T, if it has one: its file as the body of a PUT.
            let upload = index < uploads.count ? uploads[index] : nil
            var body = body, expectContinue = expectContinue, defaultMethod = defaultMethod
            if let upload {
                let bytes = try contents(upload.fromStdin ? "-" : upload.path, word: upload.word)
                body = .bytes(bytes)
                defaultMethod = "PUT"
                // curl 7.88 asks before it uploads a file that is not empty.
                if !bytes.isEmpty { expectContinue = true }
            }
            if let size = body?.inlineData?.count, size > Self.expectThreshold { expectContinue = true }
            var urlHeaders = headers
            if expectContinue, !headers.contains(name: "Expect"), !removedHeaders.contains("expect") {
                urlHeaders.append(HTTPHeader(name: "Expect", value: "100-continue"))
            }
            let resolvedMethod = method ?? (head ? "HEAD" : defaultMethod)
            for url in try globbed(written) {
                var full = url
                if let upload, !upload.fromStdin { full = Self.appendingFileName(upload.path.lastPathComponent, to: full) }
                if !queryAddition.isEmpty { full += (url.containsBytes("?") ? "&" : "?") + queryAddition.joined(separator: "&") }
                full = try curlsReading(of: full)
                var fields = urlHeaders
                if let cookie = cookieHeader(jar, url: full) {
                    if fields.contains(name: "Cookie") {
                        warnings.append(RequestListWarning(location: location,
                                                           message: "-b \(cookie) is not sent: the -H Cookie header replaces it, as in curl"))
                    } else {
                        fields.append(HTTPHeader(name: "Cookie", value: cookie))
                    }
                }
                specs.append(RequestSpec(method: resolvedMethod, url: full, headers: fields, body: body, options: options, location: location))
            }
        }
        return specs
    }

    /// Over this many bytes, curl 7.88 sends a POST body only after `Expect: 100-continue`.
    static let expectThreshold = 1024 * 1024

    /// `-T FILE` to a URL whose path ends in `/`: curl puts the file's name there (before the query).
    static func appendingFileName(_ name: String, to url: String) -> String {
        let end = url.firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[..<end]
        let afterScheme = path.byteRange(of: "://").map { path[$0.upperBound...] } ?? path[...]
        // A URL without a path (`http://host`) gets `/NAME`, as curl sends it.
        if !afterScheme.containsBytes("/") { return path + "/" + name + url[end...] }
        return path.hasSuffix("/") ? path + name + url[end...] : url
    }

    /// The cookies of the command's cookie files (read now), for `cookieHeader`.
    private mutating func cookieJar() throws(RequestListError) -> [NetscapeCookie] {
        var jar: [NetscapeCookie] = []
        for (path, word) in cookieFiles {
            let full = RequestBody.absolutePath(path, relativeTo: directory)
            guard let data = FileManager.default.contents(atPath: full) else {
                warnings.append(RequestListWarning(location: location, message: "cookie file \(quoting: path) (\(full)) is not there: "
                                                       + "no cookies from it, as curl sends none"))
                continue
            }
            jar += NetscapeCookie.parse(String(decoding: data, as: UTF8.self))
            _ = word
        }
        return jar
    }

    /// The `Cookie` field curl sends to `url`: the cookie files' cookies that match it (longest path
    /// first, then longest domain, then name), then the `-b name=value` strings.
    private func cookieHeader(_ jar: [NetscapeCookie], url: String) -> String? {
        var pairs = NetscapeCookie.matching(jar, url: url).map { "\($0.name)=\($0.value)" }
        pairs += cookieStrings
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// The URLs curl's globbing makes of `url` (just `url` with `-g`, or when it has no pattern).
    private mutating func globbed(_ url: String) throws(RequestListError) -> [String] {
        guard !globoff, url.contains(where: { "{}[]".contains($0) }) else { return [url] }
        // `{{name}}` is a placeholder someone left, not a set: curl refuses it, so reqtop sends it as written with a warning.
        if url.containsBytes("{{") { return [url] }
        switch CurlURL.glob(url) {
        case let .failure(refused):
            throw error("\(refused.message): \(quoting: url)", at: ShellWords.Word(text: url, line: location.line, column: location.column))
        case let .success(urls):
            if urls.count > 1 {
                warnings.append(RequestListWarning(location: location,
                                                   message: "curl's URL globbing makes \(urls.count) URLs of \(quoting: url): "
                                                       + "one request each, as curl sends them (-g turns it off)"))
            } else if urls.first != url {
                warnings.append(RequestListWarning(location: location, message: "curl's URL globbing reads \(quoting: url) as \(quoting: urls[0]) (-g turns it off)"))
            }
            return urls
        }
    }

    /// `url` as libcurl reads it (`CurlURL`): unchanged when curl reads it as written (but for the
    /// `/` of an empty path), else curl's reading with a warning saying so, or curl's refusal.
    private mutating func curlsReading(of url: String) throws(RequestListError) -> String {
        let word = ShellWords.Word(text: url, line: location.line, column: location.column)
        switch CurlURL.normalized(url) {
        case let .failure(refused):
            throw error("\(refused.message): \(quoting: url)", at: word)
        case let .success(normalized):
            if normalized == url || normalized == url + "/" { return url }
            // A `{{placeholder}}` is left as written (with its own warning).
            if url.containsBytes("{{") { return url }
            warnings.append(RequestListWarning(location: location, message: "curl reads the URL \(quoting: url) as \(quoting: normalized); sent as curl sends it"))
            return normalized
        }
    }
}
