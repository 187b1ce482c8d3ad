#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Checks the result of a pthread call of the engine's locks, conditions and thread-local keys, and stops the process
/// with the call's name and error number when it failed. Those calls fail only on a programming error (a lock used
/// before it was initialized or after it was destroyed, unlocked by a thread that does not hold it, a key table
/// exhausted): continuing would run with a lock that does not exclude, so the engine never lets one pass silently.
@inline(__always)
func checkPThread(_ result: Int32, _ call: StaticString) {
    if result != 0 { pthreadFailed(result, call) }
}

@inline(never)
private func pthreadFailed(_ result: Int32, _ call: StaticString) -> Never {
    fatalError("Plexus: \(call) failed with error \(result)")
}
