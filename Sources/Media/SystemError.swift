#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The text of the current `errno`, for one-line error messages.
func systemErrorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
