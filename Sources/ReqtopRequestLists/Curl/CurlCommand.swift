import Foundation

/// One curl command's options, collected word by word and turned into specs.
struct CurlCommand {
    enum DataPiece {
        case text(String)
        case file(String)
        case field(name: String, value: String)
    }

    let location: SourceLocation
    let directory: String
    let lines: [String]
    var urls: [String] = []
    var method: String?
    var head = false
    var get = false
    var headers: [HTTPHeader] = []
    /// Headers removed with `-H 'Name:'`, lower case: curl does not add them.
    var removedHeaders: Set<String> = []
    var data: [DataPiece] = []
    /// curl follows redirects only with -L, so a command without it does not either.
    var options = HTTPRequest.Options(followRedirects: false)
    var ignored: [String] = []
    var warnings: [RequestListWarning] = []

    init(location: SourceLocation, directory: String, lines: [String]) {
        self.location = location
        self.directory = directory
        self.lines = lines
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
                    guard i < words.count else { throw error("option '\(word.text)' needs a value", at: word) }
                    value = words[i].text
                    i += 1
                }
                try option(name, value: value, word: word)
                continue
            }
            // A cluster of short options: -sSL, -XPOST, -H 'a: b'.
            var letters = Array(word.text.dropFirst())
            while !letters.isEmpty {
                let letter = letters.removeFirst()
                let name = CurlOptions.longNameOfShort[letter] ?? "-" + String(letter)
                var value: String?
                if CurlOptions.shortWithArgument.contains(letter) {
                    if !letters.isEmpty {
                        value = String(letters)
                        letters = []
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
        switch name {
        case "request": method = v
        case "header": try header(v, word: word)
        case "data", "data-ascii": data.append(v.hasPrefix("@") ? .file(String(v.dropFirst())) : .text(v))
        case "data-binary": data.append(v.hasPrefix("@") ? .file(String(v.dropFirst())) : .text(v))
        case "data-raw": data.append(.text(v))
        case "data-urlencode": urlencoded(v, word: word)
        case "get": get = true
        case "head": head = true
        case "user":
            let credentials = v.contains(":") ? v : v + ":"
            headers.append(HTTPHeader(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString()))
        case "cookie":
            if v.contains("=") {
                headers.append(HTTPHeader(name: "Cookie", value: v))
            } else {
                ignored.append("\(shown ?? "--cookie") \(v) (cookie files are not read)")
            }
        case "user-agent": headers.append(HTTPHeader(name: "User-Agent", value: v))
        case "referer":
            let referer = v.hasSuffix(";auto") ? String(v.dropLast(5)) : v
            if !referer.isEmpty { headers.append(HTTPHeader(name: "Referer", value: referer)) }
        case "compressed": options.compressed = true
        case "insecure": options.insecure = true
        case "globoff": break // reqtop never globs: the URL is sent as written
        case "location": options.followRedirects = true
        case "location-trusted":
            options.followRedirects = true
            options.trustedRedirects = true
        case "max-redirs":
            guard let hops = Int(v), hops >= -1 else { throw error("'\(shown ?? "--max-redirs")' needs a number, not '\(v)'", at: word) }
            options.maxRedirects = hops < 0 ? Int.max : hops
        case "url": urls.append(v)
        case "max-time":
            guard let seconds = Double(v), seconds > 0 else { throw error("'\(shown ?? "--max-time")' needs a number of seconds, not '\(v)'", at: word) }
            options.timeout = seconds
        default:
            let flag = shown ?? "--" + name
            ignored.append(value.map { "\(flag) \($0)" } ?? flag)
        }
    }

    mutating func header(_ line: String, word: ShellWords.Word) throws(RequestListError) {
        if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            guard !name.isEmpty else { throw error("header '\(line)' has no name", at: word) }
            if value.isEmpty {
                removedHeaders.insert(name.lowercased()) // "Name:" removes a header curl would add
                if name.lowercased() != "content-type" { ignored.append("-H '\(line)' (removing a default header)") }
            } else {
                headers.append(HTTPHeader(name: name, value: value))
            }
        } else if line.hasSuffix(";") {
            headers.append(HTTPHeader(name: String(line.dropLast()).trimmingWhitespace(), value: ""))
        } else {
            throw error("header '\(line)' is not 'Name: value'", at: word)
        }
    }

    mutating func urlencoded(_ value: String, word: ShellWords.Word) {
        if let eq = value.firstIndex(of: "=") {
            let name = String(value[..<eq])
            let content = String(value[value.index(after: eq)...])
            data.append(name.isEmpty ? .text(FormEncoding.encodeComponent(content)) : .field(name: name, value: content))
        } else if value.contains("@") {
            ignored.append("--data-urlencode \(value) (file contents are not read)")
        } else {
            data.append(.text(FormEncoding.encodeComponent(value)))
        }
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
        var body: RequestBody?
        var queryAddition: String?
        if !data.isEmpty {
            if data.allSatisfy({ if case .field = $0 { true } else { false } }) {
                body = .form(data.compactMap { if case let .field(n, v) = $0 { FormField(name: n, value: v) } else { nil } })
            } else if data.count == 1, case let .file(file) = data[0] {
                body = .file(path: file, resolvedAgainst: directory)
            } else {
                let parts = data.map { piece -> String in
                    switch piece {
                    case let .text(t): return t
                    case let .field(n, v): return n + "=" + FormEncoding.encodeComponent(v)
                    case let .file(f): return "@" + f
                    }
                }
                if data.contains(where: { if case .file = $0 { true } else { false } }) {
                    warnings.append(RequestListWarning(location: location,
                                                       message: "'@file' data mixed with other data is sent literally"))
                }
                body = .text(parts.joined(separator: "&"))
            }
            if get {
                if case let .form(fields)? = body { queryAddition = FormEncoding.encode(fields) }
                else if case let .text(t)? = body { queryAddition = t }
                body = nil
            } else if headers.value(for: "Content-Type") == nil, !removedHeaders.contains("content-type") {
                headers.append(HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"))
            }
        }
        let resolvedMethod = method ?? (head ? "HEAD" : (body != nil ? "POST" : "GET"))
        return urls.map { url in
            var full = url
            if let query = queryAddition { full += (url.contains("?") ? "&" : "?") + query }
            return RequestSpec(method: resolvedMethod, url: full, headers: headers, body: body, options: options, location: location)
        }
    }
}
