import Foundation
import ReqtopHTTPModel
import ReqtopNetworking

/// Re-posts bus events as `NotificationCenter` notifications, for code written against
/// AFNetworking-style notifications (`reqtop.task.resume`, `.suspend`, `.progress`, `.complete`, …).
public final class NotificationBridge: Sendable {
    /// User-info keys of the notifications.
    public enum UserInfoKey {
        public static let taskID = "reqtop.task.id"
        public static let event = "reqtop.task.event"
        /// Foundation's `HTTPURLResponse` (its header dictionary joins repeated fields with ", ").
        public static let response = "reqtop.task.response"
        /// The response head as received (`HTTPResponseHead`: repeated fields such as Set-Cookie kept apart).
        public static let responseHead = "reqtop.task.responseHead"
        public static let progress = "reqtop.task.progress"
        public static let redirect = "reqtop.task.redirect"
        public static let bodySize = "reqtop.task.bodySize"
        public static let bodyFile = "reqtop.task.bodyFile"
        public static let serializer = "reqtop.task.serializer"
        public static let serializedValue = "reqtop.task.serializedValue"
        public static let serializationError = "reqtop.task.serializationError"
        public static let error = "reqtop.task.error"
        /// The request head as sent (`RequestHead`).
        public static let requestHead = "reqtop.task.requestHead"
        public static let timings = "reqtop.task.timings"
        /// A `TestResult` (test events) or a `ScriptLog` (log events).
        public static let test = "reqtop.task.test"
        public static let log = "reqtop.task.log"
        /// A `StreamMessage` (message events).
        public static let message = "reqtop.task.message"
    }

    /// The notification name of each event.
    public static func name(for event: TaskEvent.Name) -> Notification.Name {
        let suffix = switch event {
        case .created: "create"
        case .resumed: "resume"
        case .suspended: "suspend"
        case .cancelled: "cancel"
        case .request: "request"
        case .redirected: "redirect"
        case .response: "response"
        case .progress: "progress"
        case .completed: "complete"
        case .failed: "fail"
        case .test: "test"
        case .log: "log"
        case .message: "message"
        }
        return Notification.Name("reqtop.task.\(suffix)")
    }

    private let host: EventMonitorHost

    /// Starts re-posting `bus`'s events on `center` until `stop()` (or until the bridge is released).
    public init(bus: EventBus, center: NotificationCenter = .default) {
        host = EventMonitorHost(bus: bus, monitor: Poster(center: center), label: "reqtop.notifications")
        host.start()
    }

    /// Posts what was delivered so far, then stops.
    public func stop() { host.stop() }

    /// Each event as a notification.
    private final class Poster: EventMonitor, @unchecked Sendable { // NotificationCenter is thread-safe
        let center: NotificationCenter
        init(center: NotificationCenter) { self.center = center }

        func receive(_ events: [TaskEvent]) {
            for event in events {
                center.post(name: NotificationBridge.name(for: event.name), object: nil, userInfo: NotificationBridge.userInfo(for: event))
            }
        }
    }

    static func userInfo(for event: TaskEvent) -> [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [UserInfoKey.taskID: event.task.rawValue, UserInfoKey.event: event]
        switch event.kind {
        case .created, .resumed, .suspended, .cancelled: break
        case .test(let result): info[UserInfoKey.test] = result
        case .scriptLog(let log): info[UserInfoKey.log] = log
        case .message(let streamed): info[UserInfoKey.message] = streamed
        case .requestSent(let head): info[UserInfoKey.requestHead] = head
        case .redirected(let hop): info[UserInfoKey.redirect] = hop
        case .response(let head):
            info[UserInfoKey.response] = head.httpURLResponse as Any
            info[UserInfoKey.responseHead] = head
        case .progress(let progress): info[UserInfoKey.progress] = progress
        case .completed(let completion):
            info[UserInfoKey.response] = completion.response.httpURLResponse as Any
            info[UserInfoKey.responseHead] = completion.response
            info[UserInfoKey.bodySize] = completion.bytes
            if case .file(let file) = completion.body { info[UserInfoKey.bodyFile] = file.url }
            info[UserInfoKey.serializer] = completion.serializer
            if let value = completion.serializedValue { info[UserInfoKey.serializedValue] = value }
            if let error = completion.serializationError { info[UserInfoKey.serializationError] = error }
            info[UserInfoKey.timings] = completion.timings
        case .failed(let failure):
            info[UserInfoKey.error] = failure.error
            if let timings = failure.timings { info[UserInfoKey.timings] = timings }
        }
        return info
    }
}
