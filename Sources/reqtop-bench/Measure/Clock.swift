#if canImport(Glibc)
import Glibc
#endif

/// Monotonic wall time and CPU time of this process, in seconds.
enum Clock {
    /// Seconds on the monotonic clock (only differences mean anything).
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// User + system CPU seconds this process has used so far (all threads).
    static func selfCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// CPU seconds the calling thread has used (excludes time spent waiting for locks or for a core).
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
}

/// Memory figures of this process read from `/proc/self/status`, in bytes.
enum ProcessMemory {
    /// Resident set size now.
    static var residentBytes: Int { field("VmRSS:") }
    /// Peak resident set size (high-water mark).
    static var peakResidentBytes: Int { field("VmHWM:") }

    /// A `kB` line of a `/proc/PID/status` file, in bytes; 0 when missing.
    static func field(_ name: String, pid: String = "self") -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return (Int(String(digits)) ?? 0) * 1024
        }
        return 0
    }
}
