import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The built-in `{{$…}}` variables (JetBrains and REST Client); each occurrence gets a fresh value.
enum DynamicVariable: Sendable, Hashable {
    case uuid
    case timestamp
    case isoTimestamp
    /// `{{$randomInt}}` (0..<1000) or `{{$randomInt min max}}` (min..<max).
    case randomInt(lower: Int, upper: Int)
    /// `{{$processEnv NAME}}` (REST Client; `%NAME` looks NAME up as a variable first) or `{{$env.NAME}}` (JetBrains).
    case processEnvironment(name: String)
    /// `{{$dotenv NAME}}`: NAME from the `.env` file beside the list (REST Client).
    case dotenv(name: String)
    /// `{{$datetime rfc1123|iso8601|"format" [offset unit]}}`, UTC; `$localDatetime` in local time (REST Client).
    case datetime(format: String, offset: Int, unit: Calendar.Component?, local: Bool)
    /// Postman's `{{$randomFirstName}}` and the rest of its faker set (`PostmanDynamicVariable`).
    case postman(name: String)

    static let supported = "$uuid, $guid, $timestamp, $isoTimestamp, $randomInt [min max], $processEnv NAME, $env.NAME, "
        + "$dotenv NAME, $datetime FORMAT [offset unit], $localDatetime FORMAT [offset unit], and Postman's $randomFirstName, "
        + "$randomEmail, $randomLoremSentence… (docs/request-lists.md)"

    init?(_ text: String) {
        let words = Self.words(text)
        guard let head = words.first else { return nil }
        switch head {
        case "$uuid", "$guid", "$random.uuid":
            guard words.count == 1 else { return nil }
            self = .uuid
        case "$timestamp":
            guard words.count == 1 else { return nil }
            self = .timestamp
        case "$isoTimestamp":
            guard words.count == 1 else { return nil }
            self = .isoTimestamp
        case "$randomInt", "$random.integer":
            if words.count == 1 { self = .randomInt(lower: 0, upper: 1000); return }
            guard words.count == 3, let lower = Int(words[1]), let upper = Int(words[2]), lower < upper else { return nil }
            self = .randomInt(lower: lower, upper: upper)
        case "$processEnv":
            guard words.count == 2 else { return nil }
            self = .processEnvironment(name: words[1].hasPrefix("%") ? String(words[1].dropFirst()) : words[1])
        case "$dotenv":
            guard words.count == 2 else { return nil }
            self = .dotenv(name: words[1].hasPrefix("%") ? String(words[1].dropFirst()) : words[1])
        case "$datetime", "$localDatetime":
            guard words.count == 2 || words.count == 4 else { return nil }
            var offset = 0
            var unit: Calendar.Component?
            if words.count == 4 {
                guard let amount = Int(words[2]), let component = Self.unit(words[3]),
                      let scaled = Self.offset(amount, words[3]) else { return nil }
                offset = scaled
                unit = component
            }
            self = .datetime(format: words[1], offset: offset, unit: unit, local: head == "$localDatetime")
        default:
            if words.count == 1, PostmanDynamicVariable.names[head] != nil {
                self = .postman(name: head)
                return
            }
            guard head.hasPrefix("$env."), words.count == 1, head.count > 5 else { return nil }
            self = .processEnvironment(name: String(head.dropFirst(5)))
        }
    }

    /// A fresh value; nil when it names an environment variable (or `.env` entry) that is not set.
    func generate(now: Date = Date(), directory: String = ".") -> String? {
        switch self {
        case .uuid:
            return UUID().uuidString.lowercased()
        case .timestamp:
            return String(Int(now.timeIntervalSince1970))
        case .isoTimestamp:
            return DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX").string(from: now)
        case let .randomInt(lower, upper):
            return String(Int.random(in: lower..<upper))
        case let .processEnvironment(name):
            return ProcessInfo.processInfo.environment[name]
        case let .postman(name):
            return PostmanDynamicVariable.generate(name)
        case let .dotenv(name):
            return Self.dotenvValue(name, in: directory)
        case let .datetime(format, offset, unit, local):
            let date = unit.map { Self.adding(offset, $0, to: now, local: local) } ?? now
            return Self.format(date, format, local: local)
        }
    }

    /// `date` moved by `value` units as a Gregorian calendar in UTC or in the local time zone (libc's,
    /// which follows `TZ`; FoundationEssentials has no time zone database) moves it: years, months,
    /// weeks and days on the calendar's fields, a day of the month past the new month's end kept at
    /// that end (31 January + 1 month is the last day of February), so a local day stays a day
    /// across a daylight-saving change; hours and smaller as elapsed time.
    static func adding(_ value: Int, _ unit: Calendar.Component, to date: Date, local: Bool) -> Date {
        switch unit {
        case .hour: return date.addingTimeInterval(Double(value) * 3600)
        case .minute: return date.addingTimeInterval(Double(value) * 60)
        case .second: return date.addingTimeInterval(Double(value))
        case .nanosecond: return date.addingTimeInterval(Double(value) / 1e9)
        default: break
        }
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let fraction = seconds - Double(whole)
        var parts = tm()
        if local { localtime_r(&whole, &parts) } else { gmtime_r(&whole, &parts) }
        switch unit {
        case .year: parts.tm_year += Int32(value)
        case .month: parts.tm_mon += Int32(value)
        case .weekOfYear: parts.tm_mday += Int32(7 * value)
        default: parts.tm_mday += Int32(value)
        }
        if unit == .year || unit == .month {
            let months = Int(parts.tm_year) * 12 + Int(parts.tm_mon)
            let year = Int((Double(months) / 12).rounded(.down)), month = months - year * 12
            let fullYear = year + 1900
            let leap = fullYear % 4 == 0 && (fullYear % 100 != 0 || fullYear % 400 == 0)
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            parts.tm_year = Int32(year)
            parts.tm_mon = Int32(month)
            parts.tm_mday = min(parts.tm_mday, Int32(lengths[month]))
        }
        parts.tm_isdst = -1
        let moved = local ? mktime(&parts) : timegm(&parts)
        return Date(timeIntervalSince1970: Double(moved) + fraction)
    }

    /// Words of `text`, a double-quoted word (a custom date format) kept whole without its quotes.
    private static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for ch in text {
            if ch == "\"" || ch == "'" { quoted.toggle(); continue }
            if (ch == " " || ch == "\t"), !quoted {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func unit(_ text: String) -> Calendar.Component? {
        switch text {
        case "y": .year
        case "M": .month
        case "w": .weekOfYear
        case "d": .day
        case "h": .hour
        case "m": .minute
        case "s": .second
        case "ms": .nanosecond // REST Client's ms, scaled to nanoseconds
        default: nil
        }
    }

    /// The offset of `$datetime FORMAT amount unit` in the unit's terms (milliseconds as nanoseconds),
    /// or nil past ±10,000 years: a date that far is a typo, and its arithmetic would overflow.
    private static func offset(_ amount: Int, _ unit: String) -> Int? {
        let seconds: [String: Double] = ["y": 31_556_952, "M": 2_629_746, "w": 604_800, "d": 86_400, "h": 3_600, "m": 60,
                                         "s": 1, "ms": 0.001]
        guard let each = seconds[unit], abs(Double(amount) * each) <= 10_000 * 31_556_952 else { return nil }
        guard unit == "ms" else { return amount }
        let (nanoseconds, overflow) = amount.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? nil : nanoseconds
    }

    /// Why `text` is not a dynamic variable reqtop knows, for the list's error.
    static func problem(_ text: String) -> String {
        let words = Self.words(text)
        let amount = words.count == 4 ? words[2][...] : ""
        let digits = amount.hasPrefix("-") || amount.hasPrefix("+") ? amount.dropFirst() : amount
        if words.count == 4, words[0] == "$datetime" || words[0] == "$localDatetime", unit(words[3]) != nil,
           !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return "the offset \(words[2]) \(words[3]) of \(quoting: text) is out of range (at most 10,000 years either way)"
        }
        return "unknown dynamic variable \(quoting: text) (supported: \(supported))"
    }

    /// `rfc1123`, `iso8601`, or a day.js-style pattern (`YYYY-MM-DD HH:mm:ss`).
    private static func format(_ date: Date, _ format: String, local: Bool) -> String {
        switch format {
        case "rfc1123":
            return DatePattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'").string(from: date)
        case "iso8601":
            return DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", local: local).string(from: date)
        default:
            var pattern = format
            for (dayjs, unicode) in [("YYYY", "yyyy"), ("YY", "yy"), ("DD", "dd"), ("D", "d"), ("A", "a")] {
                pattern = pattern.replacingEvery(dayjs, with: unicode)
            }
            return DatePattern(pattern, local: local).string(from: date)
        }
    }

    /// `NAME=value` from the `.env` file in `directory` (quotes around the value removed).
    private static func dotenvValue(_ name: String, in directory: String) -> String? {
        let path = directory.appendingPathComponent(".env")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace()
            guard !trimmed.hasPrefix("#"), let eq = trimmed.firstIndex(of: "=") else { continue }
            guard trimmed[..<eq].trimmingWhitespace() == name else { continue }
            var value = trimmed[trimmed.index(after: eq)...].trimmingWhitespace()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}
