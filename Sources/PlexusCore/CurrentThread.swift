public import PlexusSystem

/// What the engine reads of the calling thread through the C layer: the resolution graph installed on it, its stack,
/// and whether it is the process's main thread.
@usableFromInline package enum CurrentThread {
    /// The resolution graph installed on the calling thread (a `ResolutionGraph`, borrowed), or `nil` before the
    /// thread's first resolve: one load from a C thread-local variable (`pthread_getspecific` would be a call, behind
    /// a `swift_once`). The thread's own graph is owned by a pthread key (`graphKey`, in `Plexus`'s
    /// Engine/Graph/ResolutionGraph.swift), whose destructor clears this before it releases the graph; a task's graph
    /// is installed here only while that task runs a segment of its resolve (`installed`,
    /// Engine/Graph/TaskGraph.swift).
    @inlinable @inline(__always)
    package static func graph<Graph: AnyObject>(_: Graph.Type) -> Borrowed<Graph>? {
        plexus_thread_graph_get().map { Borrowed(address: $0) }
    }

    /// Whether a graph is installed on the calling thread (`graph(_:)`), read without borrowing it.
    @inlinable @inline(__always)
    package static var hasGraph: Bool { plexus_thread_graph_get() != nil }

    /// Installs `graph` on the calling thread (`nil`: none), for `graph(_:)` to borrow: its holder keeps it alive for
    /// as long as it is installed.
    @inlinable @inline(__always)
    package static func install<Graph: AnyObject>(_ graph: Borrowed<Graph>?) {
        plexus_thread_graph_set(graph?.address)
    }

    /// The lowest address and the size of the calling thread's stack, or `nil` where the bounds cannot be read.
    package static func stack() -> (low: UInt, size: Int)? {
        var low: UInt = 0
        var size = 0
        guard plexus_current_stack(&low, &size) == 0 else { return nil }
        return (low, size)
    }

    /// An address in the caller's part of the real stack (the stack grows down on every platform Plexus supports).
    /// Read in C: under AddressSanitizer the address of a Swift local may be on its heap "fake stack".
    @inlinable @inline(__always)
    package static var frameAddress: UInt { plexus_frame_address() }

    /// Whether the calling thread is the process's main thread, where the main actor runs its synchronous work.
    @inlinable
    package static var isProcessMain: Bool { plexus_is_main_thread() != 0 }
}

/// The calling task's identity while it runs: its hash (tasks alive at the same time never share one but with
/// negligible probability), 0 outside a task. `withUnsafeCurrentTask` is the runtime's only way to name the task; only
/// its hash is kept, never the task.
package func currentTaskIdentity() -> Int {
    withUnsafeCurrentTask { $0?.hashValue } ?? 0
}
