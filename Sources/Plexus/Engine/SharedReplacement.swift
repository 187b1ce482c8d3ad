internal import PlexusSystem

/// Whether any task may have replaced ``DependencyContainer/shared`` (`withShared`): until one has, reading the shared
/// container skips the task-local lookup, which is most of its cost (`shared-read` in `Benchmarks/profile`).
enum SharedReplacement {
    /// Whether `withShared` has run in this process.
    @inline(__always)
    static var mayBeActive: Bool { plexus_shared_may_be_replaced() != 0 }

    /// Notes that a task replaces the shared container; called before the replacement is bound.
    static func note() { plexus_note_shared_replaced() }
}
