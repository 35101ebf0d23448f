import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists

/// `reqtop convert IN --to http|har|curl [-o OUT]`.
func runConvertCommand(_ arguments: [String]) -> Int32 {
    let parsed: ParsedCommandLine
    let format: RequestListFormat
    let input: String
    do throws(UsageError) {
        parsed = try CommandLineParser(options: [.value("to"), .value("output", short: "o"), .value("env"), .value("var")])
            .parse(arguments)
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
        var variables: [String: String] = [:]
        for argument in parsed.allValues("var") {
            guard let (name, value) = VariableContext.parseCommandLineVariable(argument) else {
                return usageFailure("convert", UsageError("--var needs NAME=VALUE, got '\(argument)'"))
            }
            variables[name] = value
        }
        let inputs = try loadInputs(files: [input], environment: parsed.value("env"), variables: variables)
        let output = parsed.value("output")
        // Body files go beside the output (into the current directory when writing to stdout), named
        // by absolute path so the list reads back from anywhere.
        let prefix = RequestBody.absolutePath((output ?? (input as NSString).lastPathComponent) + ".body", relativeTo: "")
        let converted = try RequestListLoader.convert(inputs[0].list, variables: inputs[0].variables, to: format,
                                                      creator: (name: "reqtop", version: ReqtopVersion.string),
                                                      bodyFilePrefix: prefix)
        for warning in converted.warnings { printToStandardError(warning.description) }
        for file in converted.bodyFiles.files {
            try file.data.write(to: URL(fileURLWithPath: file.name))
            printToStandardError("wrote a request body to \(file.name)")
        }
        if let output {
            try converted.data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileDescriptorSink.standardOutput.write(String(decoding: converted.data, as: UTF8.self))
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
