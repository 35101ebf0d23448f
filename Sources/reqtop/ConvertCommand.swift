import Foundation
import ReqtopInspector
import ReqtopRequestLists

/// `reqtop convert IN --to http|har|curl [-o OUT]`.
func runConvertCommand(_ arguments: [String]) -> Int32 {
    let parsed: ParsedCommandLine
    let format: RequestListFormat
    let input: String
    do throws(UsageError) {
        parsed = try CommandLineParser(options: [.value("to"), .value("output", short: "o")]).parse(arguments)
        if parsed.has("help") {
            print(HelpText.convert)
            return 0
        }
        guard parsed.positionals.count == 1 else {
            throw UsageError(parsed.positionals.isEmpty ? "no input file given" : "give exactly one input file")
        }
        input = parsed.positionals[0]
        guard let target = parsed.value("to") else { throw UsageError("--to http|har|curl is required") }
        guard let found = RequestListFormat(rawValue: target) else {
            throw UsageError("--to must be http, har or curl, got '\(target)'")
        }
        format = found
    } catch {
        return usageFailure("convert", error)
    }
    do {
        let list = try RequestListLoader.load(path: input)
        for warning in list.warnings { printToStandardError(warning.description) }
        let data = try RequestListLoader.convert(list, to: format, creator: (name: "reqtop", version: ReqtopVersion.string))
        if let output = parsed.value("output") {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileDescriptorSink.standardOutput.write(String(decoding: data, as: UTF8.self))
        }
        return 0
    } catch let error as RequestListError {
        printToStandardError(error.description)
        return 2
    } catch {
        printToStandardError("reqtop convert: \(error.localizedDescription)")
        return 1
    }
}
