import ReqtopInspector
import ReqtopNetworking

/// The `--help` texts of reqtop and its subcommands.
enum HelpText {
    static let main = """
    reqtop \(ReqtopVersion.string) — a terminal HTTP request inspector

    Usage:
      reqtop [URL]                     interactive session (with a first GET of URL)
      reqtop run FILE... [options]     replay .http, HAR or curl request lists
      reqtop convert IN --to FORMAT    convert a request list to http, har or curl
      reqtop demo [--headless]         replay the demo list against the embedded test server
      reqtop serve [options]           run the embedded test server

    Options:
      -h, --help       show this help (also: reqtop COMMAND --help)
      --version        print the version

    Exit codes: 0 every task completed, 1 a task failed or was cancelled,
    2 usage or parse error, 130 interrupted.
    """

    static let run = """
    Usage: reqtop run FILE... [options]

    Replays request lists (.http/.rest, .har, curl command files; chosen by extension,
    else by content), in the terminal UI or, with --headless or when stdout is not a
    terminal, as one line per event.

    Options:
      --env NAME              environment from http-client(.private).env.json beside each file
      --var NAME=VALUE        set a variable (repeatable; wins over environments and the file)
      --concurrency N         at most N requests in flight (default 1)
      --repeat N              replay the whole list N times (default 1)
      --headless              no terminal UI: print events and a summary
      --events text|jsonl     headless output: readable lines (default) or JSON Lines
      --har PATH              write the session as HAR 1.2 at the end (also on Ctrl-C)
      --insecure              do not verify TLS certificates
      --cacert FILE           trust the CA certificates in FILE
      --timeout SECONDS       default timeout per request (# @timeout overrides it)
      --fail-on-status        exit 1 when a response has HTTP status >= 400
      --dry-run               print the resolved requests without sending them
      -h, --help              show this help

    Exit codes: 0 every request completed (any HTTP status), 1 a request failed or was
    cancelled (or HTTP >= 400 with --fail-on-status), 2 usage or parse error, 130 interrupted.
    """

    static let convert = """
    Usage: reqtop convert IN --to http|har|curl [-o OUT]

    Converts a request list (.http, HAR or curl commands) to another format.
    Variables are kept as {{templates}}.

    Options:
      --to FORMAT             http, har or curl (required)
      -o, --output OUT        write to OUT instead of standard output
      -h, --help              show this help
    """

    static let demo = """
    Usage: reqtop demo [--headless]

    Starts the embedded test server on a free loopback port and replays the demo list
    (Resources/demo.http; set REQTOP_RESOURCES to the folder holding it) with
    concurrency 4: redirects, a slow download with progress, a large download to
    suspend and resume, a POST, a 404, a timeout, a refused connection, chaining and
    a response full of escape sequences.

    Options:
      --headless              no terminal UI: print events and a summary
      -h, --help              show this help
    """

    static let serve = """
    Usage: reqtop serve [--host 127.0.0.1] [--port 0]

    Runs the embedded HTTP/1.1 test server: httpbin-like endpoints and faults under
    /fault/ (GET / lists them). Prints "listening on http://HOST:PORT" first; Ctrl-C stops it.

    Options:
      --host ADDRESS          IPv4 address to listen on (default 127.0.0.1)
      --port N                port to listen on; 0 picks a free one (default 0)
      -h, --help              show this help
    """
}
