public import PlexusSystem

// What the whole process shares through the C layer: flags set once, counters, the generations and numbers of the
// process-wide sequences, and the fixed address of no arguments. Kept in C because the Swift standard library's atomics
// (`Synchronization`) need the newest Apple systems, and a Swift global's lazy initialization is checked on every
// read. Each access keeps the memory order its C function declares; the argument for that order is restated here.
// The reader bias (Protected.swift), the recursive lock (RecursiveLock.swift), hazard marks (HazardMarks.swift) and
// the calling thread's graph and stack (CurrentThread.swift) are the C layer's other homes, all in this target.

/// Whether any task may have replaced `DependencyContainer.shared` (`withShared`): until one has, reading the shared
/// container skips the task-local lookup, which is most of its cost (`shared-read` in `Benchmarks/profile`).
@usableFromInline package enum SharedReplacement {
    /// Whether `withShared` has run in this process: one relaxed load. Relaxed is enough: the task that replaces the
    /// shared container notes it first (program order), and the tasks that inherit the replacement are started after.
    @inlinable @inline(__always)
    package static var mayBeActive: Bool { plexus_shared_may_be_replaced() != 0 }

    /// Notes that a task replaces the shared container; called before the replacement is bound. Set once, never
    /// cleared: an unstructured task started inside `withShared` keeps its replacement after `withShared` returns.
    package static func note() { plexus_note_shared_replaced() }
}

/// Whether verbose logging has ever been asked for in the process: until it has, a verbose log line is dropped with
/// one relaxed load, where reading the task-local override and the settings under their lock cost each registration
/// a few hundred instructions (`Benchmarks/profile register-types/plexus`).
@usableFromInline package enum VerboseLogging {
    /// Whether `logLevel` or a `withLogging` level has been `.verbose` in this process. Relaxed is enough: the thread
    /// or task that turns it on notes it first (program order), and whatever is ordered after that sees it.
    @inlinable @inline(__always)
    package static var mayBeOn: Bool { plexus_verbose_may_be_on() != 0 }

    /// Notes a request for verbose logging; called before it takes effect. Set once, never cleared. (`Plexus` decides
    /// which levels are verbose: `note(_:)`, beside `LogLevel`.)
    @inlinable @inline(__always)
    package static func noteVerboseRequested() { plexus_note_verbose_requested() }
}

/// How many graph reports (`GraphRecorder`, for `validate`) are being recorded in the process: while any is, resolves
/// on every thread leave the fast path, so that no edge hides there.
@usableFromInline package enum ActiveRecorders {
    /// Whether a report is being recorded anywhere: one relaxed load, inlined into the resolve path. Relaxed is
    /// enough: a recording thread counts itself in before its own resolves (program order), and other threads only
    /// lose a shortcut while it is counted.
    @inlinable @inline(__always)
    package static var any: Bool { plexus_is_recording() != 0 }

    /// Counts a recorder in; before the resolves it records.
    package static func countIn() { plexus_count_recording(1) }

    /// Counts a recorder out; after the resolves it recorded.
    package static func countOut() { plexus_count_recording(-1) }
}

/// How many async resolves run in a task's graph (`TaskGraph.withNewGraph`) anywhere in the process, so that a
/// resolve can skip looking up a task-local graph while there is none.
@usableFromInline package enum LiveTaskGraphs {
    /// Whether any task graph is alive: one relaxed load; every resolve reads it. Relaxed is enough: a task's own
    /// graph is counted before the task (or a child it starts) looks for it.
    @inlinable @inline(__always)
    package static var any: Bool { plexus_task_graphs_live() != 0 }

    /// Counts a task graph in; before its task resolves in it.
    package static func countIn() { plexus_task_graphs_add(1) }

    /// Counts a task graph out; once its resolve ended.
    package static func countOut() { plexus_task_graphs_add(-1) }
}

/// Where a container's answer generation (`Epoch`) keeps its value, in memory of its own that never moves. Every
/// value is new in the process, drawn from one process-wide sequence, so a value, once left, never comes back: two
/// advances of one generation under different registries' locks (its own container's and a collaborator's) may store
/// out of order, and the value go back to an earlier one, yet a route or answer remembered at any value but the one
/// stored last no longer matches, and one remembered at that value was found after the change that stored it.
///
/// `@unchecked Sendable`: the value and the dependents flag are C11 atomics, read and written only atomically; the
/// memory is freed only by `deallocate`, which its epoch calls in `deinit`, when no reader is left (a container
/// keeps its epoch beside every reader of it).
@usableFromInline package struct GenerationCell: @unchecked Sendable {
    @usableFromInline let cell: UnsafeMutablePointer<plexus_epoch>

    /// A cell at a new value, without dependents; free it with `deallocate`.
    @inlinable
    package init() {
        cell = .allocate(capacity: 1)
        plexus_epoch_init(cell)
    }

    /// Frees the cell; nothing reads it afterwards.
    @inlinable
    package func deallocate() { cell.deallocate() }

    /// The value now, read without a lock: one acquire load, which pairs with the release store of `advance`.
    @inlinable @inline(__always)
    package var current: Int { plexus_epoch_current(cell) }

    /// Stores the process's next value (release): whoever reads it sees every write made before the advance.
    @inlinable
    package func advance() { plexus_epoch_advance(cell) }

    /// Whether another container's generation depends on this one (`noteDependents`): one acquire load. Set once,
    /// never cleared.
    @inlinable
    package var hasDependents: Bool { plexus_epoch_has_dependents(cell) != 0 }

    /// Notes that another container's generation depends on this one (release: after the dependent is listed).
    @inlinable
    package func noteDependents() { plexus_epoch_note_dependents(cell) }
}

/// The generation of every table of declaration records: a product advances it each time it forgets records, so a
/// record kept outside the table (in a declaration value between a modifier and the call) is known current with one
/// atomic load. `Plexus` hands it to the products as `DeclarationRecordGeneration`, a name their inlinable code may
/// reference.
@usableFromInline package enum RecordGeneration {
    /// The generation now; read without a lock (acquire, pairing with the advance's release).
    @inlinable
    package static var current: Int { plexus_record_generation_current() }

    /// Advances the generation (acquire and release): every record published before is stale.
    @inlinable
    package static func advance() { plexus_record_generation_advance() }
}

/// Numbers for the owners of declarations (PlexusFactoryKit's managers): each new one is given to no other owner in
/// the process, whereas an address may be reused once its object is released. Package access.
package enum DeclarationOwnerNumbers {
    /// A number not given before in this process (never 0); takes no lock. Relaxed: only the number's uniqueness
    /// matters, which the atomic increment gives in any order.
    package static func next() -> UInt { UInt(plexus_record_owner_number_next()) }
}

/// Stands for runtime arguments of zero size (none, or only empty values). A pointer to a zero-sized value may be any
/// address, even one that reads as `nil` inside an enum or optional, so Plexus never takes one and passes this instead:
/// the address of sixteen bytes of the C target that nothing reads or writes (reading a zero-sized value touches no
/// memory). Computed, not a stored global: a global's lazy initialization is checked on every read.
/// `Plexus` names it `zeroSizedArguments`, for its public inlinable entries.
@inlinable
package var zeroSizedArgumentsAddress: UnsafeRawPointer {
    UnsafeRawPointer(plexus_zero_sized_arguments())
}
