#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// C's `printf` formatting (`%.1f`, `%02x`, `%ld`, `%s` with a C string), through `vsnprintf`:
    /// Foundation's `String(format:)` without Foundation. Numbers only: no `%@`.
    public init(printf format: String, _ arguments: any CVarArg...) {
        self = withVaList(arguments) { first in
            var buffer = [CChar](repeating: 0, count: 64)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, first))
            guard needed >= buffer.count else { return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            buffer = [CChar](repeating: 0, count: needed + 1)
            return withVaList(arguments) { again in
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
