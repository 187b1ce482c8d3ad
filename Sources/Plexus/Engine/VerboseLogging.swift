internal import PlexusSystem

/// Whether verbose logging has ever been asked for in the process: until it has, a verbose log line is dropped with
/// one relaxed load, where reading the task-local override and the settings under their lock cost each registration
/// a few hundred instructions (`Benchmarks/profile register-types/plexus`).
enum VerboseLogging {
    /// Whether `logLevel` or a `withLogging` level has been `.verbose` in this process.
    @inline(__always)
    static var mayBeOn: Bool { plexus_verbose_may_be_on() != 0 }

    /// Notes a request for `level`; called before that level takes effect.
    @inline(__always)
    static func note(_ level: LogLevel) {
        if level >= .verbose { plexus_note_verbose_requested() }
    }
}
