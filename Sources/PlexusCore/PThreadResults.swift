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
@inlinable @inline(__always)
package func checkPThread(_ result: Int32, _ call: StaticString) {
    if result != 0 { pthreadFailed(result, call) }
}

/// Stops the process for a failed pthread call: out of line, so that each check inlines only its compare.
@usableFromInline @inline(never)
func pthreadFailed(_ result: Int32, _ call: StaticString) -> Never {
    fatalError("Plexus: \(call) failed with error \(result)")
}

/// Initializes the pthread mutex at `mutex`: in a debug build of Plexus an error-checking one, so that relocking it on
/// the thread that holds it, or unlocking it from another, fails (and `checkPThread` stops the process with the call)
/// instead of deadlocking or corrupting it; in a release build a normal one.
@usableFromInline
package func initializeMutex(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    #if DEBUG
        var attributes = pthread_mutexattr_t()
        checkPThread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { pthread_mutexattr_destroy(&attributes) }
        checkPThread(
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        checkPThread(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
    #else
        checkPThread(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
    #endif
}
