import CJavaScriptCore
import CTLS
import Foundation
import ReqtopHTTPModel
import ReqtopSync

/// Runs the scripts of a request list in JavaScriptCore: one context for the whole run (global
/// variables live in it from one script to the next), one script at a time, each within a time
/// limit. A script that throws, loops or runs out of time fails with a located error; the process
/// and the context go on.
public final class ScriptRuntime: @unchecked Sendable {
    // Safety: every use of `group` and `context` is inside `lock`.
    private let lock = Lock()
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    /// Seconds a script may run.
    public let timeLimit: Double

    /// - Parameter timeLimit: seconds one script may run before it is stopped (`--script-timeout`).
    public init(timeLimit: Double = 5) {
        self.timeLimit = timeLimit
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        Self.install(digest: context)
        let prelude = try? evaluate(ScriptPrelude.source, file: "reqtop-prelude.js", line: 1)
        precondition(prelude != nil, "the script prelude does not evaluate")
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// The global variables scripts have set so far (`client.global`).
    public var globals: [String: String] {
        lock.withLock {
            guard let text = try? evaluate("__reqtop.take()", file: "reqtop", line: 1),
                  let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
            return object["globals"] as? [String: String] ?? [:]
        }
    }

    /// Sets global variables before any script runs (a run that starts from an earlier one's).
    public func setGlobals(_ values: [String: String]) {
        lock.withLock {
            let json = String(decoding: (try? JSONSerialization.data(withJSONObject: values)) ?? Data("{}".utf8), as: UTF8.self)
            _ = try? evaluate("__reqtop.setGlobals(\(Self.quoted(json)))", file: "reqtop", line: 1)
        }
    }

    /// Runs `script` with what it may read, and returns what it did.
    public func run(_ script: Script, with input: ScriptInput) -> ScriptOutcome {
        lock.withLock {
            do {
                _ = try evaluate("__reqtop.begin(\(Self.quoted(input.json)))", file: "reqtop", line: 1)
                // Its own scope (two handlers may both say `const token`); errors it throws are settled:
                // client.exit() ends it, a failed client.assert outside a test is a failed test.
                let wrapped = "(function () { try { " + script.source + "\n} catch (e) { __reqtop.settle(e); } })();"
                let started = Date()
                do {
                    _ = try evaluate(wrapped, file: script.file, line: script.line, limited: true)
                } catch let error as ScriptError where error.timedOut {
                    var error = error
                    error.message = "the script ran for \(Self.seconds(Date().timeIntervalSince(started))) s, over its \(Self.seconds(timeLimit)) s limit (--script-timeout): stopped"
                    throw error
                }
                let outcome = try evaluate("__reqtop.take()", file: "reqtop", line: 1)
                return ScriptOutcome(json: outcome)
            } catch let error as ScriptError {
                var outcome = (try? evaluate("__reqtop.take()", file: "reqtop", line: 1)).map(ScriptOutcome.init(json:)) ?? ScriptOutcome()
                outcome.error = error
                return outcome
            } catch {
                return ScriptOutcome(error: ScriptError(message: "\(error)", file: script.file, line: script.line, column: script.column))
            }
        }
    }

    // MARK: JavaScriptCore

    /// `__reqtopDigest(algorithm, keyHex | null, dataHex)` → hex: the one native function, for
    /// `crypto` (OpenSSL's digests and HMAC); the prelude hides it behind `crypto`.
    private static func install(digest context: JSGlobalContextRef) {
        let name = JSStringCreateWithUTF8CString("__reqtopDigest")
        defer { JSStringRelease(name) }
        let function = JSObjectMakeFunctionWithCallback(context, name) { context, _, _, count, arguments, exception in
            guard let context, let arguments, count == 3 else { return JSValueMakeUndefined(context) }
            func text(_ value: JSValueRef?) -> String? {
                guard let value, JSValueIsString(context, value), let string = JSValueToStringCopy(context, value, nil) else { return nil }
                defer { JSStringRelease(string) }
                let size = JSStringGetMaximumUTF8CStringSize(string)
                var buffer = [CChar](repeating: 0, count: size)
                JSStringGetUTF8CString(string, &buffer, size)
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            guard let algorithm = text(arguments[0]), let data = text(arguments[2]).flatMap(ScriptRuntime.bytes(hex:)) else {
                return JSValueMakeUndefined(context)
            }
            let key = text(arguments[1]).flatMap(ScriptRuntime.bytes(hex:))
            var out = [UInt8](repeating: 0, count: 64)
            let length = data.withUnsafeBufferPointer { data in
                if let key {
                    return key.withUnsafeBufferPointer { ctls_digest(algorithm, $0.baseAddress, $0.count, data.baseAddress, data.count, &out) }
                }
                return ctls_digest(algorithm, nil, 0, data.baseAddress, data.count, &out)
            }
            guard length > 0 else {
                let message = JSStringCreateWithUTF8CString("unknown digest algorithm \(algorithm)")
                defer { JSStringRelease(message) }
                exception?.pointee = JSValueMakeString(context, message)
                return JSValueMakeUndefined(context)
            }
            let hex = JSStringCreateWithUTF8CString(out.prefix(Int(length)).map { String(format: "%02x", $0) }.joined())
            defer { JSStringRelease(hex) }
            return JSValueMakeString(context, hex)
        }
        JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, function,
                            JSPropertyAttributes(kJSPropertyAttributeDontEnum | kJSPropertyAttributeReadOnly), nil)
    }

    /// Bytes from lowercase or uppercase hex (nil for anything else).
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Evaluates `source` (under `lock`), returning its value as text; a thrown exception is a located `ScriptError`.
    private func evaluate(_ source: String, file: String, line: Int, limited: Bool = false) throws -> String {
        let script = JSStringCreateWithUTF8CString(source)
        let url = JSStringCreateWithUTF8CString(file)
        defer {
            JSStringRelease(script)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        if limited { JSContextGroupSetExecutionTimeLimit(group, timeLimit, { _, _ in true }, nil) }
        let value = JSEvaluateScript(context, script, nil, url, Int32(clamping: line), &exception)
        if limited { JSContextGroupClearExecutionTimeLimit(group) }
        if let exception {
            let message = string(exception)
            let terminated = message == "JavaScript execution terminated."
            var located = ScriptError(message: message, file: file, line: line, column: 1, timedOut: terminated)
            if let object = JSValueToObject(context, exception, nil) {
                if let errorLine = number(object, "line"), errorLine.isFinite { located.line = Int(errorLine) }
                if let column = number(object, "column"), column.isFinite { located.column = Int(column) }
            }
            throw located
        }
        return value.map(string) ?? "undefined"
    }

    private func number(_ object: JSObjectRef, _ name: String) -> Double? {
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, object, key, nil), JSValueIsNumber(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    private func string(_ value: JSValueRef) -> String {
        guard let text = JSValueToStringCopy(context, value, nil) else { return "?" }
        defer { JSStringRelease(text) }
        let size = JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `text` as a JavaScript string literal (JSON's quoting is JavaScript's).
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8),
               as: UTF8.self).dropFirst().dropLast().description
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
}
