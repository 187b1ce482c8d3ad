internal import PlexusCore

/// How much Plexus tells ``logger``.
///
/// An error Plexus throws is the caller's to report: at the default level it is not logged, so a failure handled
/// with `try?` or `catch` prints nothing, and one the caller reports appears once. ``errors`` is for what the caller
/// would otherwise never see.
public enum LogLevel: Int, Comparable, Sendable {
    /// Nothing.
    case none
    /// Problems nothing throws (the default): a call that has no effect (overriding or decorating an unbound
    /// accessor, decorating a type with no definition, restoring another container's snapshot), a registration that
    /// replaced a definition it probably should not have, and a tag falling back to the untagged definition.
    case errors
    /// Also every error thrown to the caller of `resolve`, `validate` or `bootstrap`, registrations, singleton
    /// creations, bootstrap and lookups through collaborators, each logged with this level.
    case verbose

    // swift-format-ignore: AlwaysUseLowerCamelCase

    /// Dip's spelling of ``none``.
    public static var None: LogLevel { .none }
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Dip's spelling of ``errors``.
    public static var Errors: LogLevel { .errors }
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Dip's spelling of ``verbose``.
    public static var Verbose: LogLevel { .verbose }

    /// Orders levels from ``none`` to ``verbose``.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension VerboseLogging {
    /// Notes a request for `level`; called before that level takes effect (the flag itself is in the core target).
    @inline(__always)
    static func note(_ level: LogLevel) {
        if level >= .verbose { noteVerboseRequested() }
    }
}

private struct LogSettings {
    var level: LogLevel = .errors
    var logger: @Sendable (LogLevel, Any) -> Void = { _, message in print(message) }
}

private let logSettings = Protected(LogSettings())

/// How much Plexus logs; ``LogLevel/errors`` by default. Safe to set from any thread.
public var logLevel: LogLevel {
    get { logSettings.withLock { $0.level } }
    set {
        VerboseLogging.note(newValue)
        logSettings.withLock { $0.level = newValue }
    }
}

/// Receives Plexus's log messages; prints them by default. Safe to set from any thread.
///
/// Route the messages to the app's own logging once, at launch:
///
/// ```swift
/// Plexus.logLevel = .verbose
/// Plexus.logger = { level, message in os_log("%@", String(describing: message)) }
/// ```
public var logger: @Sendable (LogLevel, Any) -> Void {
    get { logSettings.withLock { $0.logger } }
    set { logSettings.withLock { $0.logger = newValue } }
}

/// How this task logs instead of ``logLevel`` and ``logger``, set by ``withLogging(level:logger:_:)``.
struct LogOverride: Sendable {
    let level: LogLevel
    let logger: @Sendable (LogLevel, Any) -> Void

    @TaskLocal static var current: LogOverride?
}

/// Runs `body` with Plexus logging at `level` to `logger`, for this task and the child tasks it starts, without
/// changing the process-wide ``logLevel`` and ``logger``.
///
/// ```swift
/// Plexus.withLogging(level: .none) {
///     #expect(throws: ResolutionError.self) { try container.resolve() as Service }   // prints nothing
/// }
/// ```
///
/// Tests that run in parallel use this instead of setting ``logLevel``, which every test would see. Threads
/// started with `Thread` or `DispatchQueue` inside `body` are not child tasks: they log with the process-wide
/// settings unless they call `withLogging` themselves.
/// - Parameters:
///   - level: How much to log while `body` runs.
///   - logger: Where the messages go; the process-wide ``logger`` by default.
///   - body: The code to run.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
@discardableResult
public func withLogging<R>(
    level: LogLevel, logger: (@Sendable (LogLevel, Any) -> Void)? = nil, _ body: () throws -> R
) rethrows -> R {
    VerboseLogging.note(level)
    return try LogOverride.$current.withValue(
        LogOverride(level: level, logger: logger ?? Plexus.logger), operation: body)
}

/// Runs the asynchronous `body` with Plexus logging at `level` to `logger`, for this task and the child tasks it
/// starts, also across every `await` in `body`.
///
/// ```swift
/// try await Plexus.withLogging(level: .errors, logger: capture.record) {
///     _ = try? await container.resolve() as Session
/// }
/// ```
///
/// Threads started with `Thread` or `DispatchQueue` inside `body` log with the process-wide settings.
/// - Parameters:
///   - level: How much to log while `body` runs.
///   - logger: Where the messages go; the process-wide ``logger`` by default.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: The code to run.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
@discardableResult
public func withLogging<R>(
    level: LogLevel, logger: (@Sendable (LogLevel, Any) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
) async rethrows -> R {
    VerboseLogging.note(level)
    return try await LogOverride.$current.withValue(
        LogOverride(level: level, logger: logger ?? Plexus.logger), operation: body, isolation: isolation)
}

/// Whether a message at `level` would be logged now, for messages that cost something to build.
func isLogging(_ level: LogLevel) -> Bool {
    if level >= .verbose, !VerboseLogging.mayBeOn { return false }
    if let override = LogOverride.current { return override.level >= level }
    return logSettings.withLock { $0.level >= level }
}

/// Logs `message` if `level` is enabled. The message is only formatted when it will be logged, and the
/// logger runs without any Plexus lock held.
///
/// The level is checked before the logger is read: copying the logger out of the settings allocates a closure
/// context, which each registration's `.verbose` line would cost while nothing is logged.
func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    if level >= .verbose, !VerboseLogging.mayBeOn { return }
    if let override = LogOverride.current {
        guard override.level >= level else { return }
        override.logger(level, message())
        return
    }
    guard logSettings.withLock({ $0.level >= level }) else { return }
    let sink = logSettings.withLock { $0.logger }
    sink(level, message())
}
