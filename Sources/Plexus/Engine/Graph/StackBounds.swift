internal import PlexusCore

/// Where the calling thread's stack ends, so that a resolution graph too deep for it throws instead of crashing.
enum StackBounds {
    /// The address below which no factory should start on the calling thread: the lowest address of its stack plus
    /// a reserve for the factory that would run and for throwing the error. `0` (no limit) where the bounds cannot be
    /// read.
    static func limitForCurrentThread() -> UInt {
        guard let (low, size) = CurrentThread.stack() else { return 0 }
        // An eighth of the stack, between 32 KB and 256 KB: more than one nested resolve needs in a debug build,
        // plus what an ordinary factory uses.
        let reserve = min(max(size / 8, 32 << 10), 256 << 10)
        // The frame of this call must lie in the stack read; if not (an unusual stack, such as a coroutine's),
        // there is no limit rather than a wrong one.
        let here = CurrentThread.frameAddress
        guard here > low, here < low + UInt(size) else { return 0 }
        return low + UInt(reserve)
    }
}
