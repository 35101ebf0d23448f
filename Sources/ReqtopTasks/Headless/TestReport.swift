import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// `--report FORMAT=FILE`: which report, where.
package struct TestReportRequest: Sendable, Hashable {
    package enum Format: String, Sendable, CaseIterable {
        case junit, tap
    }
    package var format: Format
    package var path: String

    package init(format: Format, path: String) {
        self.format = format
        self.path = path
    }
}

/// The results of a run as CI systems read them: JUnit XML (GitLab, Jenkins, GitHub actions that
/// read JUnit) and TAP 13. One test case per script test (`client.test`, `client.assert`), named
/// after its request; a request without tests is one case of its own (passed when it completed);
/// a request that failed or was not sent, and a script that failed, are errors.
package enum TestReport {
    /// One case of a report.
    struct Case {
        var suite: Int
        var className: String
        var name: String
        var seconds: Double
        enum Outcome { case passed, failed(String), error(String) }
        var outcome: Outcome
    }

    static func cases(_ results: [RunResult]) -> [Case] {
        var cases: [Case] = []
        for result in results.sorted(by: { ($0.item.iteration, $0.item.list, $0.item.spec) < ($1.item.iteration, $1.item.list, $1.item.spec) }) {
            let request = "\(result.method) \(result.url)"
            let className = result.name ?? request
            let seconds = (result.durationMilliseconds ?? 0) / 1000
            let transfer: String? = switch result.status {
            case .completed: nil
            case .failed(let error): "\(error.code.rawValue): \(error.message)"
            case .cancelled: "cancelled"
            case .notSent(let reason): "not sent: \(reason)"
            case .interrupted: "not sent: the run was interrupted"
            }
            for test in result.tests {
                cases.append(Case(suite: result.item.list, className: className, name: test.name, seconds: seconds,
                                  outcome: test.passed ? .passed : .failed(test.message ?? "failed")))
            }
            if let error = result.scriptError {
                cases.append(Case(suite: result.item.list, className: className, name: "script", seconds: seconds, outcome: .error(error)))
            }
            if let transfer {
                cases.append(Case(suite: result.item.list, className: className, name: request, seconds: seconds, outcome: .error(transfer)))
            } else if result.tests.isEmpty, result.scriptError == nil {
                cases.append(Case(suite: result.item.list, className: className, name: request, seconds: seconds, outcome: .passed))
            }
        }
        return cases
    }

    /// JUnit XML: a `testsuite` per list (named by `lists`), inside one `testsuites`.
    package static func junit(_ results: [RunResult], lists: [String]) -> Data {
        let all = cases(results)
        func counts(_ cases: [Case]) -> (failures: Int, errors: Int) {
            cases.reduce(into: (0, 0)) { counts, c in
                if case .failed = c.outcome { counts.0 += 1 }
                if case .error = c.outcome { counts.1 += 1 }
            }
        }
        func time(_ cases: [Case]) -> String { String(printf: "%.3f", cases.reduce(0) { $0 + $1.seconds }) }
        let total = counts(all)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="reqtop" tests="\#(all.count)" failures="\#(total.failures)" errors="\#(total.errors)" time="\#(time(all))">"# + "\n"
        let suites = Dictionary(grouping: all, by: \.suite)
        for suite in suites.keys.sorted() {
            let cases = suites[suite] ?? []
            let c = counts(cases)
            let name = suite < lists.count ? lists[suite] : "list \(suite + 1)"
            xml += #"  <testsuite name="\#(escape(name))" tests="\#(cases.count)" failures="\#(c.failures)" errors="\#(c.errors)" "#
                + #"skipped="0" time="\#(time(cases))">"# + "\n"
            for c in cases {
                let open = #"    <testcase classname="\#(escape(c.className))" name="\#(escape(c.name))" time="\#(String(printf: "%.3f", c.seconds))""#
                switch c.outcome {
                case .passed:
                    xml += open + "/>\n"
                case .failed(let message):
                    xml += open + ">\n" + #"      <failure message="\#(escape(message))" type="assertion">\#(escape(message))</failure>"# + "\n    </testcase>\n"
                case .error(let message):
                    xml += open + ">\n" + #"      <error message="\#(escape(message))" type="error">\#(escape(message))</error>"# + "\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return Data(xml.utf8)
    }

    /// TAP version 13: one line per case, `not ok` with a YAML block saying why.
    package static func tap(_ results: [RunResult]) -> Data {
        let all = cases(results)
        var text = "TAP version 13\n1..\(all.count)\n"
        for (index, c) in all.enumerated() {
            let title = "\(c.className) - \(c.name)".replacingEvery("#", with: "\\#").replacingEvery("\n", with: " ")
            switch c.outcome {
            case .passed:
                text += "ok \(index + 1) \(title)\n"
            case .failed(let message), .error(let message):
                text += "not ok \(index + 1) \(title)\n  ---\n  message: \(yamlQuoted(message))\n"
                if case .error = c.outcome { text += "  severity: error\n" } else { text += "  severity: fail\n" }
                text += "  ...\n"
            }
        }
        return Data(text.utf8)
    }

    /// Text for an XML attribute or element: the five entities escaped, and characters XML 1.0
    /// cannot hold (controls other than tab and line breaks) written as `\u{…}`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func yamlQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 { out += "\\x" + String(printf: "%02x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
