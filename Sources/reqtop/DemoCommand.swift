import Foundation
import ReqtopInspector
import ReqtopTestServer

/// `reqtop demo [--headless]`: the embedded test server plus Resources/demo.http, concurrency 4.
func runDemoCommand(_ arguments: [String]) -> Int32 {
    let parsed: ParsedCommandLine
    do throws(UsageError) {
        parsed = try CommandLineParser(options: [.flag("headless")]).parse(arguments)
        if parsed.has("help") {
            print(HelpText.demo)
            return 0
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
    } catch {
        return usageFailure("demo", error)
    }
    let path: String
    switch ResourceLocator.find("demo.http") {
    case .success(let found): path = found
    case .failure(let error):
        printToStandardError("reqtop demo: \(error.description)")
        return 2
    }
    let server: TestServer
    do {
        server = try TestServer()
    } catch {
        printToStandardError("reqtop demo: cannot start the test server: \(error)")
        return 1
    }
    server.start()
    defer { server.stop() }
    let base = server.baseURL.absoluteString
    printToStandardError("reqtop demo: test server on \(base), replaying \(path)")
    let inputs: [RunnerInput]
    do {
        inputs = try loadInputs(files: [path], environment: nil, variables: ["base": base])
    } catch {
        printToStandardError(error.description)
        return 2
    }
    var options = RunOptions()
    options.files = [path]
    options.concurrency = 4
    options.headless = parsed.has("headless")
    // The demo fails some requests on purpose (a timeout, a refused connection): that is not an error.
    let code = replay(inputs, options: options)
    return code == 1 ? 0 : code
}
