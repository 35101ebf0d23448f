import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Dates written with a Unicode date pattern (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, `EEE, dd MMM yyyy`)
/// in English, in UTC or the process's local time zone (libc's `localtime_r`, which follows `TZ`):
/// Foundation's `DateFormatter` with the `en_US_POSIX` locale, without ICU. Letters it does not
/// know are written as they are.
public struct DatePattern: Sendable {
    public let pattern: String
    public let local: Bool

    public init(_ pattern: String, local: Bool = false) {
        self.pattern = pattern
        self.local = local
    }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                 "October", "November", "December"]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `date` written with the pattern.
    public func string(from date: Date) -> String {
        // Clamped to what libc's broken-down time holds (years fit an Int32): never a trapping conversion.
        let seconds = date.timeIntervalSince1970.isNaN ? 0 : min(max(date.timeIntervalSince1970, -1e16), 1e16)
        var whole = time_t(seconds.rounded(.down))
        let fraction = seconds - Double(whole)
        var parts = tm()
        if local { localtime_r(&whole, &parts) } else { gmtime_r(&whole, &parts) }
        let offset = local ? Int(parts.tm_gmtoff) : 0
        var out = ""
        let letters = Array(pattern)
        var i = 0
        while i < letters.count {
            let letter = letters[i]
            if letter == "'" {
                // 'quoted text', '' is a quote
                if i + 1 < letters.count, letters[i + 1] == "'" { out.append("'"); i += 2; continue }
                i += 1
                while i < letters.count {
                    if letters[i] == "'" {
                        if i + 1 < letters.count, letters[i + 1] == "'" { out.append("'"); i += 2; continue }
                        break
                    }
                    out.append(letters[i])
                    i += 1
                }
                i += 1
                continue
            }
            guard letter.isASCII, letter.isLetter else { out.append(letter); i += 1; continue }
            var count = 1
            while i + count < letters.count, letters[i + count] == letter { count += 1 }
            i += count
            func number(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
            }
            let year = Int(parts.tm_year) + 1900, month = Int(parts.tm_mon), hour = Int(parts.tm_hour)
            switch letter {
            case "y", "u", "Y": out += count == 2 ? number(year % 100, 2) : number(year, count) // Y: the week's year, taken as the year
            case "M", "L":
                switch count {
                case 1, 2: out += number(month + 1, count)
                case 3: out += String(Self.months[month].prefix(3))
                case 4: out += Self.months[month]
                default: out += String(Self.months[month].prefix(1))
                }
            case "d": out += number(Int(parts.tm_mday), count)
            case "D": out += number(Int(parts.tm_yday) + 1, count)
            case "E":
                let name = Self.weekdays[Int(parts.tm_wday)]
                out += count == 4 ? name : String(name.prefix(count == 5 ? 1 : count == 6 ? 2 : 3))
            case "a": out += hour < 12 ? "AM" : "PM"
            case "H": out += number(hour, count)
            case "k": out += number(hour == 0 ? 24 : hour, count)
            case "h": out += number(hour % 12 == 0 ? 12 : hour % 12, count)
            case "K": out += number(hour % 12, count)
            case "m": out += number(Int(parts.tm_min), count)
            case "s": out += number(Int(parts.tm_sec), count)
            case "S":
                // Nanoseconds are the finest the clock gives: digits past the ninth are zeros (and
                // scaling by 10^count for a long run of S would overflow Int).
                let digits = min(count, 9)
                out += number(Int((fraction * pow(10, Double(digits))).rounded(.down)), digits)
                out += String(repeating: "0", count: count - digits)
            case "A": out += String(Int(parts.tm_hour) * 3_600_000 + Int(parts.tm_min) * 60_000 + Int(parts.tm_sec) * 1000 + Int(fraction * 1000))
            case "z": out += offset == 0 ? "GMT" : Self.zone(offset, letter: "O", count: count)
            case "O": out += offset == 0 ? "GMT" : Self.zone(offset, letter: "O", count: count)
            case "Z", "X", "x":
                out += Self.zone(offset, letter: letter, count: count)
            default: out += String(repeating: letter, count: count)
            }
        }
        return out
    }

    /// `Z` `+0100`, `ZZZZZ` / `XXX` `+01:00`, `X` `+01`; `X…` writes `Z` for UTC.
    private static func zone(_ offset: Int, letter: Character, count: Int) -> String {
        if letter == "X", offset == 0 { return "Z" }
        let sign = offset < 0 ? "-" : "+", minutes = abs(offset) / 60
        let hours = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)", rest = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
        if letter == "O" { // GMT+1, GMT+5:30 (z, O); GMT+01:00 (zzzz, OOOO)
            if count == 4 { return "GMT\(sign)\(hours):\(rest)" }
            return "GMT\(sign)\(minutes / 60)" + (rest == "00" ? "" : ":\(rest)")
        }
        if letter == "Z" {
            if count == 4 { return offset == 0 ? "GMT" : "GMT\(sign)\(hours):\(rest)" }
            return count >= 5 ? (offset == 0 ? "Z" : "\(sign)\(hours):\(rest)") : "\(sign)\(hours)\(rest)"
        }
        switch count {
        case 1: return rest == "00" ? "\(sign)\(hours)" : "\(sign)\(hours)\(rest)"
        case 2, 4: return "\(sign)\(hours)\(rest)"
        default: return "\(sign)\(hours):\(rest)"
        }
    }
}
