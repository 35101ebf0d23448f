import Foundation
@testable import ReqtopRequestLists
import XCTest

/// `$datetime` arithmetic and Hurl's `decode "windows-1252"`, done without Foundation in the
/// executable, compared with Foundation's Calendar and decoder here.
final class DatesAndEncodingsTests: XCTestCase {
    private let units: [(Calendar.Component, Int)] = [(.year, 1), (.month, 1), (.month, -13), (.weekOfYear, 2), (.day, 1), (.day, -400),
                                                      (.hour, 5), (.minute, -90), (.second, 3600), (.nanosecond, 1_500_000_000)]
    private let dates = [Date(timeIntervalSince1970: 1_801_354_200.25), // 2027-01-31 22:10 UTC
                         Date(timeIntervalSince1970: 1_711_846_800), // 2024-03-31 01:00 UTC
                         Date(timeIntervalSince1970: 1_774_692_000)] // 2026-03-28 10:00 UTC

    func testDateArithmeticInUTCIsTheGregorianCalendars() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for date in dates {
            for (unit, value) in units {
                XCTAssertEqual(DynamicVariable.adding(value, unit, to: date, local: false).timeIntervalSince1970,
                               calendar.date(byAdding: unit, value: value, to: date)!.timeIntervalSince1970, accuracy: 1e-6, "\(date) + \(value) \(unit)")
            }
        }
    }

    func testLocalDateArithmeticFollowsTheLocalZoneAcrossDaylightSaving() throws {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "Europe/Paris", 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
        for date in dates {
            for (unit, value) in units {
                XCTAssertEqual(DynamicVariable.adding(value, unit, to: date, local: true).timeIntervalSince1970,
                               calendar.date(byAdding: unit, value: value, to: date)!.timeIntervalSince1970, accuracy: 1e-6, "\(date) + \(value) \(unit)")
            }
        }
        // 28 March 2026 11:00 in Paris + 1 day: the clocks moved, the day has 23 hours.
        XCTAssertEqual(DynamicVariable.adding(1, .day, to: dates[2], local: true).timeIntervalSince(dates[2]), 23 * 3600)
    }

    func testWindows1252IsDecodedAsFoundationDecodesIt() {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8.min...UInt8.max where !undefined.contains(byte) {
            XCTAssertEqual(Windows1252.decode(Data([byte])), String(data: Data([byte]), encoding: .windowsCP1252), String(byte, radix: 16))
        }
        XCTAssertEqual(Windows1252.decode(Data([0x80, 0x41, 0xE9, 0x9F])), "€AéŸ")
        XCTAssertEqual(Windows1252.decode(Data([0x81])).unicodeScalars.first?.value, 0x81, "an undefined byte as the C1 control (WHATWG)")
    }
}
