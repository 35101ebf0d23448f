import Foundation
import ReqtopTestSupport

/// The `reqtop` executable built by `swift build` (`.build/debug/reqtop` beside the sources).
let reqtopExecutable = TestEnvironment.builtProduct("reqtop")
