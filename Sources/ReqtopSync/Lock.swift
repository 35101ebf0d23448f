#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex behind closure-scoped access.
///
/// reqtop uses this one small lock type everywhere instead of `Synchronization.Mutex`,
/// because ThreadSanitizer on this platform does not see Mutex's futex locking and
/// reports false races; a pthread mutex is understood by TSan.
public final class Lock: @unchecked Sendable { // the pthread mutex is the synchronisation
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inlinable
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    @usableFromInline func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }
}

/// A value that is only reached with its lock held.
public final class Protected<Value> {
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the current value.
    public var snapshot: Value { withLock { $0 } }
}

/// Sendable only for Sendable values: every access goes through `lock`, and what leaves the lock
/// (a snapshot, a closure's result) may then cross threads.
extension Protected: @unchecked Sendable where Value: Sendable {}
