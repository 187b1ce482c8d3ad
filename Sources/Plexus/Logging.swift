/// How much Plexus tells ``logger``.
public enum LogLevel: Int, Comparable, Sendable {
    /// Nothing.
    case none
    /// Resolution failures (the default).
    case errors
    /// Failures, registrations, singleton creations, bootstrap and lookups through collaborators.
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

private struct LogSettings {
    var level: LogLevel = .errors
    var logger: @Sendable (LogLevel, Any) -> Void = { _, message in print(message) }
}

private let logSettings = Protected(LogSettings())

/// How much Plexus logs; ``LogLevel/errors`` by default. Safe to set from any thread.
public var logLevel: LogLevel {
    get { logSettings.withLock { $0.level } }
    set { logSettings.withLock { $0.level = newValue } }
}

/// Receives Plexus's log messages; prints them by default. Safe to set from any thread.
///
/// ```swift
/// Plexus.logLevel = .verbose
/// Plexus.logger = { level, message in os_log("%@", String(describing: message)) }
/// ```
public var logger: @Sendable (LogLevel, Any) -> Void {
    get { logSettings.withLock { $0.logger } }
    set { logSettings.withLock { $0.logger = newValue } }
}

/// Logs `message` if `level` is enabled. The message is only formatted when it will be logged, and the
/// logger runs without any Plexus lock held.
func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    let (enabled, sink) = logSettings.withLock { ($0.level >= level, $0.logger) }
    guard enabled else { return }
    sink(level, message())
}
