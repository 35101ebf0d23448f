import ReqtopRequestLists
import ReqtopTasks
import FoundationEssentials

/// The demo list: `$REQTOP_RESOURCES/demo.http` when that folder has one (to try a changed copy),
/// else the list built into the program.
enum DemoSource {
    static func load(base: String, secrets: SecretPolicy) throws(RequestListError) -> (input: RunnerInput, path: String) {
        if let folder = ProcessInfo.processInfo.environment["REQTOP_RESOURCES"], !folder.isEmpty {
            let path = folder.appendingPathComponent("demo.http")
            if FileManager.default.isReadableFile(atPath: path) {
                return (try loadInputs(files: [path], environment: nil, variables: ["base": base], secrets: secrets)[0], path)
            }
        }
        let list = try RequestListLoader.load(text: DemoList.text, path: "demo.http (built in)", format: .http)
        return (RunnerInput(list: list, variables: VariableContext(commandLine: ["base": base])), "the built-in demo.http")
    }
}
