import CJavaScriptCore
import CTLS
import FoundationEssentials
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
    /// `__reqtop.begin` and `__reqtop.take`, called for every script (protected from the collector).
    private let begin: JSObjectRef
    private let take: JSObjectRef
    /// Each script compiled once, as a function (a list's handler file, or a `--repeat`, runs one many times).
    private var compiled: [Script: JSObjectRef] = [:]
    private static let compiledLimit = 512

    /// Why JavaScriptCore cannot be loaded (it is loaded when this is first asked, not at start-up);
    /// nil when scripts can run. A runtime must not be made when it is not nil.
    public static var loadError: String? {
        reqtop_javascriptcore_load_error().map { String(cString: $0) }
    }

    /// - Parameter timeLimit: seconds one script may run before it is stopped (`--script-timeout`).
    ///   JavaScriptCore must load (`loadError` is nil).
    public init(timeLimit: Double = 5) {
        precondition(Self.loadError == nil, "JavaScriptCore is not loaded: check ScriptRuntime.loadError first")
        self.timeLimit = timeLimit
        group = JSContextGroupCreate()
        let context = JSGlobalContextCreateInGroup(group, nil)!
        self.context = context
        Self.install(digest: context)
        let prelude = try? Self.evaluate(ScriptPrelude.source, file: "reqtop-prelude.js", line: 1, in: context)
        precondition(prelude != nil, "the script prelude does not evaluate")
        func function(_ source: String) -> JSObjectRef {
            let value = try? Self.evaluate(source, file: "reqtop", line: 1, in: context)
            guard let value, let object = JSValueToObject(context, value, nil), JSObjectIsFunction(context, object) else {
                preconditionFailure("the prelude has no \(source)")
            }
            JSValueProtect(context, object)
            return object
        }
        begin = function("__reqtop.begin")
        take = function("__reqtop.take")
    }

    deinit {
        for function in compiled.values { JSValueUnprotect(context, function) }
        JSValueUnprotect(context, begin)
        JSValueUnprotect(context, take)
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// The global variables scripts have set so far (`client.global`).
    public var globals: [String: String] {
        lock.withLock { ((try? call(take, with: nil)).map(ScriptOutcome.init(json:)))?.globals ?? [:] }
    }

    /// Sets global variables before any script runs (a run that starts from an earlier one's).
    public func setGlobals(_ values: [String: String]) {
        lock.withLock {
            let json = "{" + values.map { JSONEscaping.quoted($0.key) + ":" + JSONEscaping.quoted($0.value) }.joined(separator: ",") + "}"
            _ = try? Self.evaluate("__reqtop.setGlobals(\(Self.quoted(json)))", file: "reqtop", line: 1, in: context)
        }
    }

    /// Runs `script` with what it may read, and returns what it did (the global variables after it included).
    public func run(_ script: Script, with input: ScriptInput) -> ScriptOutcome {
        lock.withLock {
            do {
                _ = try call(begin, with: input.json)
                let function = try compile(script)
                let started = Date()
                do {
                    _ = try call(function, with: nil, limited: true, file: script.file, line: script.line)
                } catch let error as ScriptError where error.timedOut {
                    var error = error
                    error.message = "the script ran for \(Self.seconds(Date().timeIntervalSince(started))) s, over its \(Self.seconds(timeLimit)) s limit (--script-timeout): stopped"
                    throw error
                }
                return ScriptOutcome(json: try call(take, with: nil))
            } catch let error as ScriptError {
                var outcome = (try? call(take, with: nil)).map(ScriptOutcome.init(json:)) ?? ScriptOutcome()
                outcome.error = error
                return outcome
            } catch {
                return ScriptOutcome(error: ScriptError(message: "\(error)", file: script.file, line: script.line, column: script.column))
            }
        }
    }

    /// The value of an httpyac `{{ expression }}` as text, with `variables` in scope as names (and
    /// the run's globals, `$random`, `crypto` there too), within the time limit.
    public func evaluate(expression: String, variables: [String: String]) -> Result<String, ScriptError> {
        lock.withLock {
            var scope: [UInt8] = Array("{".utf8)
            for (index, (name, value)) in variables.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { scope.append(UInt8(ascii: ",")) }
                JSONEscaping.appendQuoted(name, to: &scope)
                scope.append(UInt8(ascii: ":"))
                JSONEscaping.appendQuoted(value, to: &scope)
            }
            scope.append(UInt8(ascii: "}"))
            // `with` puts the variables in scope as names (sloppy-mode code, as httpyac's is).
            let source = "(function (scope) { with (scope) { return (" + expression + "\n); } })"
            do {
                let value = try Self.evaluate(source, file: "{{ \(expression) }}", line: 1, in: context)
                guard let value, let function = JSValueToObject(context, value, nil) else {
                    return .failure(ScriptError(message: "not an expression", file: "{{ }}", line: 1, column: 1))
                }
                // Called with the scope object (the variables as JSON), within the time limit.
                let scopeText = JSStringCreateWithUTF8CString(String(decoding: scope, as: UTF8.self))
                defer { JSStringRelease(scopeText) }
                let result = try call(function, arguments: [JSValueMakeFromJSONString(context, scopeText)], limited: true,
                                      file: "{{ \(expression) }}", line: 1)
                guard let result else { return .success("") }
                if JSValueIsObject(context, result), !JSValueIsNull(context, result),
                   let json = JSValueCreateJSONString(context, result, 0, nil) {
                    defer { JSStringRelease(json) }
                    return .success(Self.string(JSValueMakeString(context, json), in: context))
                }
                return .success(Self.string(result, in: context))
            } catch let error as ScriptError {
                return .failure(error)
            } catch {
                return .failure(ScriptError(message: "\(error)", file: "{{ }}", line: 1, column: 1))
            }
        }
    }

    /// The script as a function of its own scope (two handlers may both say `const token`), compiled
    /// once; errors it throws are settled by the prelude: client.exit() ends it, a failed
    /// client.assert outside a test is a failed test. A syntax error is located in its file.
    private func compile(_ script: Script) throws -> JSObjectRef {
        if let function = compiled[script] { return function }
        let wrapped = "(function () { try { " + script.source + "\n} catch (e) { __reqtop.settle(e); } })"
        let value = try Self.evaluate(wrapped, file: script.file, line: script.line, in: context)
        guard let value, let function = JSValueToObject(context, value, nil) else {
            throw ScriptError(message: "the script is not a function", file: script.file, line: script.line, column: script.column)
        }
        if compiled.count >= Self.compiledLimit {
            for old in compiled.values { JSValueUnprotect(context, old) }
            compiled.removeAll()
        }
        JSValueProtect(context, function)
        compiled[script] = function
        return function
    }

    /// Calls `function` with one string argument (or none), returning its value as text; within the
    /// time limit when `limited`; a thrown exception is a `ScriptError` located at its line.
    private func call(_ function: JSObjectRef, with argument: String?, limited: Bool = false, file: String = "reqtop", line: Int = 1) throws -> String {
        var arguments: [JSValueRef?] = []
        if let argument {
            let string = JSStringCreateWithUTF8CString(argument)
            defer { JSStringRelease(string) }
            arguments.append(JSValueMakeString(context, string))
        }
        return try call(function, arguments: arguments, limited: limited, file: file, line: line).map { Self.string($0, in: context) } ?? "undefined"
    }

    /// Calls `function` with `arguments`, returning its value.
    private func call(_ function: JSObjectRef, arguments: [JSValueRef?], limited: Bool, file: String, line: Int) throws -> JSValueRef? {
        var exception: JSValueRef?
        if limited { JSContextGroupSetExecutionTimeLimit(group, timeLimit, { _, _ in true }, nil) }
        let value = arguments.withUnsafeBufferPointer { JSObjectCallAsFunction(context, function, nil, $0.count, $0.baseAddress, &exception) }
        if limited { JSContextGroupClearExecutionTimeLimit(group) }
        if let exception { throw Self.located(exception, file: file, line: line, in: context) }
        return value
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
            let hex = JSStringCreateWithUTF8CString(out.prefix(Int(length)).map { String(printf: "%02x", $0) }.joined())
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

    /// Evaluates `source` in `context`, returning its value; a thrown exception is a located `ScriptError`.
    private static func evaluate(_ source: String, file: String, line: Int, in context: JSGlobalContextRef) throws -> JSValueRef? {
        let script = JSStringCreateWithUTF8CString(source)
        let url = JSStringCreateWithUTF8CString(file)
        defer {
            JSStringRelease(script)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        let value = JSEvaluateScript(context, script, nil, url, Int32(clamping: line), &exception)
        if let exception { throw located(exception, file: file, line: line, in: context) }
        return value
    }

    /// A thrown exception as an error at its line and column (the start of the script when it has none).
    private static func located(_ exception: JSValueRef, file: String, line: Int, in context: JSGlobalContextRef) -> ScriptError {
        let message = string(exception, in: context)
        var located = ScriptError(message: message, file: file, line: line, column: 1, timedOut: message == "JavaScript execution terminated.")
        if let object = JSValueToObject(context, exception, nil) {
            if let errorLine = number(object, "line", in: context), errorLine.isFinite { located.line = Int(errorLine) }
            if let column = number(object, "column", in: context), column.isFinite { located.column = Int(column) }
            // Thrown inside the prelude on the script's behalf (a capped `repeat`): the script's own
            // frame in the stack (`name@file:line:column`) is where it happened.
            if property(object, "sourceURL", in: context) != file, let stack = property(object, "stack", in: context),
               let frame = stack.split(separator: "\n").first(where: { $0.containsBytes("@\(file):") || $0.hasPrefix("\(file):") }) {
                let numbers = frame.split(separator: ":").suffix(2).compactMap { Int($0) }
                if numbers.count == 2 {
                    located.line = numbers[0]
                    located.column = numbers[1]
                }
            }
        }
        return located
    }

    private static func property(_ object: JSObjectRef, _ name: String, in context: JSGlobalContextRef) -> String? {
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, object, key, nil), JSValueIsString(context, value) else { return nil }
        return string(value, in: context)
    }

    private static func number(_ object: JSObjectRef, _ name: String, in context: JSGlobalContextRef) -> Double? {
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, object, key, nil), JSValueIsNumber(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    private static func string(_ value: JSValueRef, in context: JSGlobalContextRef) -> String {
        guard let text = JSValueToStringCopy(context, value, nil) else { return "?" }
        defer { JSStringRelease(text) }
        let size = JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `text` as a JavaScript string literal (JSON's quoting is JavaScript's).
    static func quoted(_ text: String) -> String {
        JSONEscaping.quoted(text)
    }

    private static func seconds(_ value: Double) -> String { String(printf: "%.1f", value) }
}
