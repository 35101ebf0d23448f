import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopRequestLists
import ReqtopTasks

/// `reqtop completion bash|zsh|fish`: a completion script generated from the commands'
/// declarations (their names, options, the values they take), so it never drifts from `--help`.
/// Request-list arguments complete to the files reqtop reads (and folders: Bruno collections);
/// `--env` to the environment names of the lists already on the line (`reqtop completion
/// env-names FILE…`, which the scripts call).
enum CompletionCommand: Command {
    static let name = "completion"
    static let arguments = "bash|zsh|fish"
    static let abstract = "print a shell completion script (source it, or install it where your shell looks)"
    static let discussion = """
        Prints the completion script for bash, zsh or fish, made from the same declarations as
        --help: subcommands, their options, the values options take (--to, --events), request
        list files and folders, and --env names read from the environment files beside the lists
        already typed. Examples: source <(reqtop completion bash); reqtop completion fish >
        ~/.config/fish/completions/reqtop.fish.
        """
    static let options: [CommandOption] = []

    /// File extensions of request lists (and JSON exports).
    static let listExtensions = ["http", "rest", "har", "curl", "sh", "txt", "hurl", "bru", "json", "yaml", "yml", "jsonl"]

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        guard let shell = parsed.positionals.first else { throw UsageError("name a shell: bash, zsh or fish") }
        let all = allCommands
        let text: String
        switch shell {
        case "bash": text = bash(all)
        case "zsh": text = zsh(all)
        case "fish": text = fish(all)
        case "env-names":
            let names = Set(parsed.positionals.dropFirst().flatMap { Environments.names(besides: $0) })
            text = names.sorted().map { $0 + "\n" }.joined()
        default: throw UsageError("no completion for '\(shell)': bash, zsh or fish")
        }
        FileDescriptorSink.standardOutput.write(text)
        return 0
    }

    /// Options whose value is a file or folder (their placeholder says so).
    static func takesPath(_ option: CommandOption) -> Bool {
        ["FILE", "DIR", "PATH", "OUT", "SOCKET"].contains(option.valueName ?? "") || (option.valueName ?? "").containsBytes("=FILE")
    }

    static func bash(_ all: [any Command.Type]) -> String {
        var cases = ""
        for command in all {
            let options = (command.options + [CommandOption.help]).map { "--" + $0.long }.joined(separator: " ")
            cases += "    \(command.name)) opts=\"\(options)\" ;;\n"
        }
        var everyOption: [CommandOption] = []
        for command in all { everyOption += command.options }
        var choiceLines: Set<String> = []
        for option in everyOption {
            guard let choices = option.choices else { continue }
            let words = choices.joined(separator: " ")
            choiceLines.insert("    --\(option.long)) COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); return ;;")
        }
        let choices = choiceLines
        let paths = Set(everyOption.filter(takesPath).map { "--" + $0.long }).sorted().joined(separator: "|")
        let plainValues = everyOption.filter { $0.takesValue && !takesPath($0) && $0.choices == nil && $0.long != "env" && $0.long != "to" }
        let values = Set(plainValues.map { "--" + $0.long }).sorted().joined(separator: "|")
        let inspector = (InspectorCommand.options + [CommandOption.help]).map { "--" + $0.long }.joined(separator: " ")
        var commandNames: [String] = []
        for command in all { commandNames.append(command.name) }
        let names = commandNames.joined(separator: " ")
        let extensions = listExtensions.joined(separator: "|")
        var lines: [String] = []
        lines.append("# bash completion for reqtop (reqtop completion bash): source <(reqtop completion bash)")
        lines.append("_reqtop_lists() {")
        lines.append("  local IFS=$'\\n'")
        lines.append("  compgen -d -- \"$1\"")
        lines.append("  compgen -f -- \"$1\" | grep -E '\\.(" + extensions + ")$'")
        lines.append("}")
        lines.append("_reqtop() {")
        lines.append("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" opts=\"\" w")
        lines.append("  COMPREPLY=()")
        lines.append("  [ \"$COMP_CWORD\" -gt 1 ] && cmd=\"${COMP_WORDS[1]}\"")
        lines.append("  if [ \"$COMP_CWORD\" -eq 1 ]; then")
        lines.append("    if [[ $cur == -* ]]; then")
        lines.append("      COMPREPLY=($(compgen -W \"" + inspector + " --version --manual --man\" -- \"$cur\"))")
        lines.append("    else")
        lines.append("      COMPREPLY=($(compgen -W \"" + names + "\" -- \"$cur\"))")
        lines.append("    fi")
        lines.append("    return")
        lines.append("  fi")
        lines.append("  case \"$prev\" in")
        lines.append("    --to) COMPREPLY=($(compgen -W \"http har curl hurl postman locust\" -- \"$cur\")); return ;;")
        lines.append("    --env)")
        lines.append("      local lists=()")
        lines.append("      for w in \"${COMP_WORDS[@]:2}\"; do [ -e \"$w\" ] && lists+=(\"$w\"); done")
        lines.append("      [ ${#lists[@]} -gt 0 ] && COMPREPLY=($(compgen -W \"$(reqtop completion env-names \"${lists[@]}\" 2>/dev/null)\" -- \"$cur\"))")
        lines.append("      return ;;")
        lines += choices.sorted()
        if !paths.isEmpty { lines.append("    " + paths + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;") }
        if !values.isEmpty { lines.append("    " + values + ") return ;;") }
        lines.append("  esac")
        lines.append("  case \"$cmd\" in")
        lines.append(cases + "    *) opts=\"\" ;;")
        lines.append("  esac")
        lines.append("  if [[ $cur == -* ]]; then")
        lines.append("    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))")
        lines.append("  elif [ \"$cmd\" = completion ]; then")
        lines.append("    COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\"))")
        lines.append("  else")
        lines.append("    local IFS=$'\\n'")
        lines.append("    COMPREPLY=($(_reqtop_lists \"$cur\"))")
        lines.append("  fi")
        lines.append("}")
        lines.append("complete -o filenames -F _reqtop reqtop")
        return lines.joined(separator: "\n") + "\n"
    }

    static func zsh(_ all: [any Command.Type]) -> String {
        var entries: [String] = []
        for command in all {
            let abstract = command.abstract.replacingEvery("'", with: "").replacingEvery("[", with: "(")
                .replacingEvery("]", with: ")")
            entries.append("'" + command.name + "[" + abstract + "]'")
        }
        let commandList = entries.joined(separator: " ")
        func spec(_ option: CommandOption) -> String {
            let help = option.help.replacingEvery("'", with: "'\\''").replacingEvery("[", with: "\\[")
                .replacingEvery("]", with: "\\]").replacingEvery(":", with: "\\:")
            guard option.takesValue else { return "'--\(option.long)[\(help)]'" }
            let action: String
            if option.long == "env" { action = "_reqtop_envs" } else if let choices = option.choices { action = "(\(choices.joined(separator: " ")))" }
            else if option.long == "to" { action = "(http har curl hurl postman locust)" } else if takesPath(option) { action = "_files" } else { action = " " }
            return "'--\(option.long)=[\(help)]:\(option.valueName ?? "VALUE"):\(action)'"
        }
        var functions = ""
        for command in all {
            functions += "    \(command.name))\n      _arguments \\\n"
            for option in command.options + [CommandOption.help] { functions += "        \(spec(option)) \\\n" }
            functions += command.name == "completion" ? "        '1:shell:(bash zsh fish)'\n      ;;\n" : "        '*:request list:_reqtop_lists'\n      ;;\n"
        }
        return """
            #compdef reqtop
            # zsh completion for reqtop (reqtop completion zsh > "${fpath[1]}/_reqtop")
            _reqtop_lists() { _files -g '*.(\(listExtensions.joined(separator: "|")))' || _files -/ }
            _reqtop_envs() {
              local -a lists envs
              lists=(${(f)"$(print -l ${words[3,-1]} | while read -r w; do [[ -e $w ]] && print -r -- $w; done)"})
              (( ${#lists} )) && envs=(${(f)"$(reqtop completion env-names $lists 2>/dev/null)"})
              compadd -a envs
            }
            _reqtop() {
              if (( CURRENT == 2 )); then
                _values 'command' \(commandList)
                return
              fi
              case ${words[2]} in
            \(functions)  esac
            }
            _reqtop "$@"

            """
    }

    static func fish(_ all: [any Command.Type]) -> String {
        var names: [String] = []
        for command in all { names.append(command.name) }
        var lines = ["# fish completion for reqtop (reqtop completion fish > ~/.config/fish/completions/reqtop.fish)",
                     "complete -c reqtop -f",
                     "complete -c reqtop -n __fish_use_subcommand -a '" + names.joined(separator: " ") + "'"]
        for command in all {
            lines.append("complete -c reqtop -n '__fish_seen_subcommand_from \(command.name)' -d '\(command.abstract.replacingEvery("'", with: "\\'"))'")
            for option in command.options + [CommandOption.help] {
                var line = "complete -c reqtop -n '__fish_seen_subcommand_from \(command.name)' -l \(option.long)"
                if let short = option.short { line += " -s \(short)" }
                if option.takesValue {
                    line += " -r"
                    if option.long == "env" {
                        line += " -a '(reqtop completion env-names (commandline -opc)[3..-1] 2>/dev/null)'"
                    } else if let choices = option.choices ?? (option.long == "to" ? ["http", "har", "curl", "hurl", "postman", "locust"] : nil) {
                        line += " -a '\(choices.joined(separator: " "))'"
                    } else if takesPath(option) {
                        line += " -F"
                    }
                }
                line += " -d '\(option.help.replacingEvery("'", with: "\\'"))'"
                lines.append(line)
            }
            if command.name == "completion" {
                lines.append("complete -c reqtop -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
            } else {
                lines.append("complete -c reqtop -n '__fish_seen_subcommand_from \(command.name)' -a '(__fish_complete_suffix .\(listExtensions.joined(separator: " .")))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
