// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "reqtop",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "reqtop", targets: ["reqtop"]),
        .library(name: "ReqtopHTTPModel", targets: ["ReqtopHTTPModel"]),
        .library(name: "ReqtopNetworking", targets: ["ReqtopNetworking"]),
        .library(name: "ReqtopNetworkingFoundation", targets: ["ReqtopNetworkingFoundation"]),
        .library(name: "ReqtopNetworkingTesting", targets: ["ReqtopNetworkingTesting"]),
        .library(name: "ReqtopRequestLists", targets: ["ReqtopRequestLists"]),
        .library(name: "ReqtopTerminalUI", targets: ["ReqtopTerminalUI"]),
        .library(name: "ReqtopProxy", targets: ["ReqtopProxy"]),
    ],
    targets: [
        // C shims over system libraries (Debian: libcurl4-openssl-dev, libncursesw5-dev, zlib1g-dev).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CNcursesw", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "CTextWidth"),
        // glibc's malloc tuning (malloc.h), for the executable's process-wide settings.
        .target(name: "CMemory"),
        // Thread names and the stop-signal pipe: what Swift cannot call itself (pthread_setname_np, a C signal handler).
        .target(name: "CProcess"),
        // OpenSSL (Debian: libssl-dev) for the proxy's --intercept: a local CA, per-host certificates, TLS server sessions.
        .target(name: "CTLS", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // nghttp2 (Debian: libnghttp2-dev) for the proxy's server side of HTTP/2: frames, HPACK, flow control.
        .target(name: "CHTTP2", linkerSettings: [.linkedLibrary("nghttp2")]),

        // JavaScriptCore's C API (Debian: libjavascriptcoregtk-4.1), for the scripts of request lists:
        // loaded when a script first needs it, not linked (a run without scripts never maps it).
        .target(name: "CJavaScriptCore"),

        // One small lock type shared by every layer, and named threads.
        .target(name: "ReqtopSync", dependencies: ["CProcess"]),

        // The vocabulary both layers speak: HTTPRequest, header fields, URLs as written, response and
        // wire request heads, JSON values that keep numbers as written, phase timings.
        .target(name: "ReqtopHTTPModel", dependencies: ["ReqtopSync"]),
        // Layer 1: the networking core.
        .target(name: "ReqtopNetworking", dependencies: ["CCurl", "ReqtopSync", "ReqtopHTTPModel"]),
        // Foundation's URLRequest and HTTPURLResponse at the networking core's edge, apart: the core and
        // the executable are built on FoundationEssentials (no ICU, no CoreFoundation: a faster start).
        .target(name: "ReqtopNetworkingFoundation", dependencies: ["ReqtopNetworking", "ReqtopHTTPModel"]),
        // Test support for code that embeds the networking core: records bus events and awaits them.
        .target(name: "ReqtopNetworkingTesting", dependencies: ["ReqtopNetworking", "ReqtopSync"]),
        // Layer 2: request lists.
        .target(name: "ReqtopRequestLists", dependencies: ["CCurl", "CTLS", "ReqtopSync", "ReqtopHTTPModel"]),
        // Layer 2: the scripts of request lists (JetBrains HTTP Client API) in JavaScriptCore.
        .target(name: "ReqtopScripts", dependencies: ["CJavaScriptCore", "CTLS", "ReqtopHTTPModel", "ReqtopSync"]),
        // Text a terminal can show safely: the sanitizer for untrusted text, display widths.
        .target(name: "ReqtopTerminalText", dependencies: ["CTextWidth"]),
        // Terminal UI kit: pure Swift cells, buffers, widgets; ncurses backend and event loop.
        .target(name: "ReqtopTerminalUI", dependencies: ["ReqtopTerminalText"]),
        .target(name: "ReqtopNcurses", dependencies: ["ReqtopTerminalUI", "CNcursesw", "ReqtopSync"]),
        // Layer 3a: a session without any UI — the task store fed by the bus, the request-list runner,
        // headless printers (text, JSON Lines), HAR recording and export, dry runs.
        .target(name: "ReqtopTasks", dependencies: ["CZlib", "ReqtopNetworking", "ReqtopRequestLists", "ReqtopScripts", "ReqtopTerminalText", "ReqtopSync"]),
        // Layer 3b: the inspector's screens over a session: table, detail, prompts, keymap (no curses import).
        .target(name: "ReqtopInspector", dependencies: ["ReqtopTasks", "ReqtopNetworking", "ReqtopRequestLists", "ReqtopTerminalUI",
                                                        "ReqtopSync"]),
        // A forward proxy whose upstream side is the networking core: every proxied request is a task.
        .target(name: "ReqtopProxy", dependencies: ["CTLS", "CHTTP2", "CZlib", "ReqtopNetworking", "ReqtopHTTPModel", "ReqtopSync"]),
        // Embedded loopback HTTP/1.1 server: httpbin-like endpoints and fault injection.
        .target(name: "ReqtopTestServer", dependencies: ["ReqtopSync", "ReqtopHTTPModel", "CZlib"]),

        .executableTarget(
            name: "reqtop",
            dependencies: ["ReqtopTasks", "ReqtopInspector", "ReqtopNcurses", "ReqtopTestServer", "ReqtopNetworking", "ReqtopRequestLists", "ReqtopProxy",
                           "ReqtopTerminalText", "CMemory", "CProcess"]
        ),

        // A small screen of the terminal kit, driven by the tmux end-to-end tests.
        .executableTarget(name: "reqtop-kit-demo", dependencies: ["ReqtopTerminalUI", "ReqtopNcurses", "ReqtopSync"]),

        // An app that embeds the networking library and publishes its events: `reqtop attach` watches it.
        .executableTarget(name: "reqtop-example-app", dependencies: ["ReqtopNetworking", "ReqtopTestServer"], path: "Examples/WatchedApp"),

        // Benchmarks side by side with curl and URLSession (`make bench`, release build).
        .executableTarget(name: "reqtop-bench", dependencies: ["ReqtopNetworking", "ReqtopRequestLists", "ReqtopScripts", "ReqtopTasks", "ReqtopInspector", "ReqtopTerminalUI", "ReqtopTestServer", "ReqtopSync"]),

        // Tests.
        .target(name: "ReqtopTestSupport", dependencies: ["ReqtopSync", "ReqtopHTTPModel", "ReqtopTestServer"], path: "Tests/ReqtopTestSupport"),
        .testTarget(name: "ReqtopSyncTests", dependencies: ["ReqtopSync"]),
        // The modules' layers (docs/architecture.md): read from the sources' import lines.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "ReqtopHTTPModelTests", dependencies: ["ReqtopHTTPModel"]),
        .testTarget(name: "ReqtopScriptsTests", dependencies: ["ReqtopScripts", "ReqtopHTTPModel"]),
        .testTarget(name: "ReqtopTestServerTests", dependencies: ["ReqtopTestServer", "ReqtopTestSupport"]),
        .testTarget(name: "ReqtopProxyTests", dependencies: ["ReqtopProxy", "ReqtopNetworking", "ReqtopNetworkingFoundation", "ReqtopNetworkingTesting", "ReqtopSync", "ReqtopTestServer", "ReqtopTestSupport"]),
        .testTarget(name: "ReqtopNetworkingTests", dependencies: ["ReqtopNetworking", "ReqtopNetworkingFoundation", "ReqtopNetworkingTesting", "ReqtopSync", "ReqtopTestServer",
                                                              "ReqtopTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReqtopRequestListsTests", dependencies: ["ReqtopRequestLists", "ReqtopTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReqtopTerminalUITests", dependencies: ["ReqtopTerminalUI", "ReqtopNcurses", "ReqtopTestSupport"], exclude: ["Screens/__Snapshots__"]),
        .testTarget(name: "ReqtopTasksTests", dependencies: ["ReqtopTasks", "ReqtopNetworking", "ReqtopNetworkingFoundation", "ReqtopNetworkingTesting", "ReqtopRequestLists",
                                                          "ReqtopSync", "ReqtopTestServer", "ReqtopTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReqtopInspectorTests", dependencies: ["ReqtopTasks", "ReqtopInspector", "ReqtopNetworkingTesting", "ReqtopNetworking", "ReqtopNetworkingFoundation", "ReqtopTerminalUI", "ReqtopTestServer", "ReqtopTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ReqtopTestServer", "ReqtopTestSupport", "ReqtopTasks", "ReqtopSync"], exclude: ["README.md", "Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz`: libFuzzer targets over the parsers (Sources/reqtop-fuzz), only with REQTOP_FUZZ=1 (the
// build adds coverage and AddressSanitizer; the driver comes from the toolchain's libFuzzer).
if ProcessInfo.processInfo.environment["REQTOP_FUZZ"] != nil {
    let fuzzer = ProcessInfo.processInfo.environment["REQTOP_FUZZER_LIB"] ?? "/opt/swift/usr/lib/clang/21/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a"
    package.targets.append(.executableTarget(
        name: "reqtop-fuzz", dependencies: ["ReqtopRequestLists", "ReqtopProxy", "ReqtopTestServer"],
        linkerSettings: [.unsafeFlags(["-Xlinker", fuzzer, "-lstdc++"])]))
    package.products.append(.executable(name: "reqtop-fuzz", targets: ["reqtop-fuzz"]))
}
