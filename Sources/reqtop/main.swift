import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve" {
    exit(runServe(Array(arguments.dropFirst())))
}
print("reqtop")
