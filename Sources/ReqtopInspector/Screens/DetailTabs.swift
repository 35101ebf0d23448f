import FoundationEssentials
import ReqtopTasks

/// One tab of the detail view: its title and what it shows of a task. A tab is a type: adding one
/// to `DetailTab.all` puts it in the tab bar, in Tab/Shift-Tab order, on its number key and under
/// the mouse — no switch to edit.
protocol DetailTabContent: Sendable {
    /// The title in the tab bar.
    var title: String { get }
    /// The text moves with the clock while the task runs (it is made again every frame then).
    var followsTheClock: Bool { get }
    /// It shows the body received so far while the task runs.
    var showsTheLiveBody: Bool { get }
    /// New lines arrive at the end: the view stays on them while it is at the bottom.
    var followsTheTail: Bool { get }
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent
}

extension DetailTabContent {
    var followsTheClock: Bool { false }
    var showsTheLiveBody: Bool { false }
    var followsTheTail: Bool { false }
}

/// What a tab may need besides the task: the width, the body view chosen (`v`), the time, and
/// the body received so far of a running task.
struct DetailTabContext {
    var width: Int
    var view: BodyView = .auto
    var now: Double
    var liveBody: Data?
    /// The tasks that used the same connection as this one (itself included), for the Timing tab.
    var connectionPeers: [TaskRecord] = []
    /// The lines of the task's messages made so far (the detail screen's, kept between frames).
    var streamLines = StreamTabLines()
}

/// A tab of the detail view, named by its title.
package struct DetailTab: Hashable, Sendable {
    package let title: String

    /// Every tab, in the bar's order.
    static let all: [any DetailTabContent] = [RequestTab(), ResponseTab(), BodyTab(), TimingTab(), EventsTab(), CookiesTab(), TestsTab(),
                                                StreamTab(), MessagesTab()]

    package static var allCases: [DetailTab] { all.map { DetailTab(title: $0.title) } }
    package static let request = DetailTab(title: RequestTab().title)
    package static let body = DetailTab(title: BodyTab().title)
    package static let timing = DetailTab(title: TimingTab().title)
    package static let tests = DetailTab(title: TestsTab().title)
    package static let stream = DetailTab(title: StreamTab().title)
    package static let messages = DetailTab(title: MessagesTab().title)

    /// What the tab shows.
    var content: any DetailTabContent { Self.all.first { $0.title == title } ?? RequestTab() }
}

/// The request heads as they went on the wire, or the request as given before it was sent.
struct RequestTab: DetailTabContent {
    let title = "Request"
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent { .lines(DetailText.request(record)) }
}

/// The response heads, redirects included.
struct ResponseTab: DetailTabContent {
    let title = "Response"
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent { .lines(DetailText.response(record)) }
}

/// The body: text, pretty JSON, indented markup or a hex dump (`v` chooses).
struct BodyTab: DetailTabContent {
    let title = "Body"
    var showsTheLiveBody: Bool { true }
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent {
        DetailText.body(record, view: context.view, live: context.liveBody)
    }
}

/// The phases as a waterfall, live while the task runs.
struct TimingTab: DetailTabContent {
    let title = "Timing"
    var followsTheClock: Bool { true }
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent {
        .lines(DetailText.timing(record, width: context.width, now: context.now) + DetailText.connection(record, peers: context.connectionPeers))
    }
}

/// The event timeline with its payloads.
struct EventsTab: DetailTabContent {
    let title = "Events"
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent { .lines(DetailText.events(record)) }
}

/// Cookies sent and set.
struct CookiesTab: DetailTabContent {
    let title = "Cookies"
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent { .lines(DetailCookies.lines(record)) }
}

/// What the request list's scripts said of the task: each test passed or failed (and why), the
/// lines they logged, and the error that stopped one.
struct TestsTab: DetailTabContent {
    let title = "Tests"
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent {
        guard !record.tests.isEmpty || !record.scriptLogs.isEmpty else {
            return .lines(["No script ran for this task (request lists' `> {% %}` handlers and `< {% %}` pre-request scripts do)."])
        }
        var lines: [String] = []
        if !record.tests.isEmpty {
            let failed = record.tests.filter { !$0.passed }.count
            lines.append("── tests: \(record.tests.count - failed) passed, \(failed) failed ──")
            for test in record.tests {
                lines.append((test.passed ? "✓ " : "✗ ") + test.name)
                if let message = test.message { lines.append("    " + message) }
            }
        }
        let errors = record.scriptLogs.filter { $0.level == .error }
        if !errors.isEmpty {
            lines.append("── script error ──")
            lines += errors.map(\.text)
        }
        let logs = record.scriptLogs.filter { $0.level == .log }
        if !logs.isEmpty {
            lines.append("── log ──")
            lines += logs.map(\.text)
        }
        return .lines(lines)
    }
}
