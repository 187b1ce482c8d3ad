import Foundation

/// A context a declaration can register an alternative factory for, with Factory's names.
///
/// `.test`, `.preview` and `.debug` alternatives are registered in debug builds only; the others in every build.
public enum FactoryContextType: Equatable, Sendable {
    /// The process was launched with this argument (or it was set with ``FactoryContext/setArg(_:forKey:)``).
    case arg(String)
    /// The process was launched with any of these arguments.
    case args([String])
    /// Running in an Xcode preview.
    case preview
    /// Running under XCTest or Swift Testing.
    case test
    /// A debug build.
    case debug
    /// Running in a simulator.
    case simulator
    /// Running on a device (not a simulator).
    case device

    /// The name under which the non-argument contexts are kept.
    var name: String {
        switch self {
        case .arg(let argument): "arg:\(argument)"
        case .args(let arguments): "args:\(arguments)"
        case .preview: "preview"
        case .test: "test"
        case .debug: "debug"
        case .simulator: "simulator"
        case .device: "device"
        }
    }
}

/// What the process runs in, as the context alternatives see it; every field is settable, for tests.
///
/// ```swift
/// FactoryContext.current.isTest = false          // try the app's own factories inside a test
/// FactoryContext.setArg("mock", forKey: "api")   // as if launched with `mock`
/// ```
public struct FactoryContext: Sendable {
    /// The process's launch arguments.
    public var arguments: [String] = ProcessInfo.processInfo.arguments
    /// Arguments set while running, by key (see ``setArg(_:forKey:)``).
    public var runtimeArguments: [String: String] = [:]
    /// Whether the process runs an Xcode preview.
    public var isPreview: Bool = ProcessInfo.processInfo.environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1"
    /// Whether the process runs tests (XCTest or Swift Testing), detected once.
    public var isTest: Bool = FactoryContext.detectTesting()
    /// Whether the process runs in a simulator.
    public var isSimulator: Bool = ProcessInfo.processInfo.environment["SIMULATOR_UDID"] != nil
    #if DEBUG
        /// Whether this is a debug build.
        public var isDebug: Bool = true
    #else
        /// Whether this is a debug build.
        public var isDebug: Bool = false
    #endif

    /// A context read from the process: its arguments, environment and build configuration.
    public init() {}

    private static func detectTesting() -> Bool {
        let process = ProcessInfo.processInfo
        return process.environment["XCTestConfigurationFilePath"] != nil
            || process.processName.contains("xctest")
            || process.processName.contains("swiftpm-testing-helper")
            || process.arguments.contains { $0.contains("xctest") }
    }

    private static let storage = ContextStorage()

    /// The process-wide context the alternatives are chosen by.
    public static var current: FactoryContext {
        get { ResolutionLock.withLock { storage.context } }
        set { ResolutionLock.withLock { storage.context = newValue } }
    }

    /// Sets a runtime argument, which ``FactoryContextType/arg(_:)`` alternatives then see.
    /// - Parameters:
    ///   - arg: The argument.
    ///   - key: The key it is kept under (setting the key again replaces it).
    public static func setArg(_ arg: String, forKey key: String) {
        ResolutionLock.withLock { storage.context.runtimeArguments[key] = arg }
    }

    /// Removes a runtime argument set with ``setArg(_:forKey:)``.
    /// - Parameter key: The key it was set under.
    public static func removeArg(forKey key: String) {
        ResolutionLock.withLock { _ = storage.context.runtimeArguments.removeValue(forKey: key) }
    }
}

/// Holds the process-wide context; read and changed only under the resolution lock (see `Sendability.swift`).
final class ContextStorage: @unchecked Sendable {
    var context = FactoryContext()
}
