#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A situation the process runs in, for which an accessor's declaration may give a factory of its own:
/// `.context(.test) { MockAnalytics() }`, or the shorthands `.onTest { … }`, `.onPreview { … }`, `.onDebug { … }` and
/// `.onArg("mock") { … }`.
///
/// - ``test``: the process runs tests, under Swift Testing or XCTest. Detected once per process: the test
///   runner's process (a `.xctest` bundle or the `xctest` tool, as `swift test` starts on Linux and macOS, or
///   `swiftpm-testing-helper`), a `--testing-library` launch argument (Swift Testing under `swift test`), or the
///   `XCTestConfigurationFilePath`, `XCTestBundlePath` or `XCTestSessionIdentifier` variable that Xcode sets for
///   tests hosted in an app.
/// - ``preview``: Xcode runs the process for SwiftUI previews (`XCODE_RUNNING_FOR_PREVIEWS` is `1`).
/// - ``debug``: the code that declares the accessor is built with assertions on (a Debug configuration). It is
///   decided in your module, where the modifier is emitted, not in Plexus's: a Plexus built for release still sees
///   your Debug builds as debug, and a `#if DEBUG` inside Plexus could not.
/// - ``arg(_:)``: the process was launched with that argument (`CommandLine.arguments`, for example a scheme's
///   "Arguments Passed On Launch").
///
/// In a declaration, a context's factory replaces the declared default only: an override (`replace`, assignment,
/// `register`) still wins. When several contexts of one declaration hold, the one written last is used. Written at a
/// call site (`container.analytics.onTest { MockAnalytics() }` in a test), a modifier whose context holds overrides
/// the accessor in its container, as `replace` does; a call site is code outside the property that declares the
/// accessor.
public enum AccessorContext: Hashable, Sendable {
    /// Running tests (Swift Testing or XCTest).
    case test
    /// Running for Xcode's SwiftUI previews.
    case preview
    /// Built with assertions on, in the module that declares the accessor.
    case debug
    /// Launched with this argument.
    case arg(String)

    /// Whether the process is in this context; `isDebugBuild` is the answer for ``debug``, which only the caller's
    /// module knows.
    @usableFromInline
    func holds(isDebugBuild: Bool) -> Bool {
        switch self {
        case .test: ProcessContext.isRunningTests
        case .preview: ProcessContext.isRunningForPreviews
        case .debug: isDebugBuild
        case .arg(let argument): ProcessContext.launchArguments.contains(argument)
        }
    }
}

/// What the process runs in, read once.
enum ProcessContext {
    static let launchArguments = Set(CommandLine.arguments.dropFirst())

    static let isRunningForPreviews = environment("XCODE_RUNNING_FOR_PREVIEWS") == "1"

    static let isRunningTests: Bool = {
        let testVariables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if testVariables.contains(where: { environment($0) != nil }) { return true }
        if launchArguments.contains("--testing-library") { return true }
        let process = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        return process.hasSuffix(".xctest") || process == "xctest" || process == "swiftpm-testing-helper"
    }()

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

// The modifiers are emitted into the caller's module (`@_alwaysEmitIntoClient`), so that `assert` in them, which runs
// only where assertions are on, tells whether the caller's code is a debug build.

extension AccessorDeclaration {
    /// The same accessor whose declared default is `make` while the process runs in `context`; an override still
    /// wins. Written at a call site instead of in the declaration, it overrides the accessor in its container when
    /// the context holds (the test override: `container.analytics.onTest { MockAnalytics() }`).
    ///
    /// ```swift
    /// var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.context(.test) { SilentAnalytics() } }
    /// var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) }.onTest { id in MockDetail(id: id) } }
    /// ```
    /// - Parameters:
    ///   - context: When to use `make`.
    ///   - make: The factory for that context, of the accessor's own kind (taking the argument for a
    ///     ``ParameterFactory``, `async` for an ``AsyncFactory``, `@MainActor` for a ``MainActorFactory``).
    ///   - caller: The enclosing function or property, which tells a declaration from a call site.
    /// - Returns: The accessor.
    @_alwaysEmitIntoClient
    @discardableResult
    public func context(_ context: AccessorContext, _ make: Make, caller: String = #function) -> Self {
        var isDebugBuild = false
        assert(
            {
                isDebugBuild = true
                return true
            }())
        guard context.holds(isDebugBuild: isDebugBuild) else { return self }
        overrideFromCallSite(make, caller: caller)
        return replacingDefault(make)
    }

    /// The same accessor whose declared default is `make` while tests run (``AccessorContext/test``).
    /// - Parameters:
    ///   - make: The factory for tests.
    ///   - caller: The enclosing function or property, which tells a declaration from a call site.
    /// - Returns: The accessor.
    @_alwaysEmitIntoClient
    @discardableResult
    public func onTest(_ make: Make, caller: String = #function) -> Self { context(.test, make, caller: caller) }

    /// The same accessor whose declared default is `make` in SwiftUI previews (``AccessorContext/preview``).
    /// - Parameters:
    ///   - make: The factory for previews.
    ///   - caller: The enclosing function or property, which tells a declaration from a call site.
    /// - Returns: The accessor.
    @_alwaysEmitIntoClient
    @discardableResult
    public func onPreview(_ make: Make, caller: String = #function) -> Self { context(.preview, make, caller: caller) }

    /// The same accessor whose declared default is `make` in debug builds of the declaring module
    /// (``AccessorContext/debug``).
    /// - Parameters:
    ///   - make: The factory for debug builds.
    ///   - caller: The enclosing function or property, which tells a declaration from a call site.
    /// - Returns: The accessor.
    @_alwaysEmitIntoClient
    @discardableResult
    public func onDebug(_ make: Make, caller: String = #function) -> Self { context(.debug, make, caller: caller) }

    /// The same accessor whose declared default is `make` when the process was launched with `argument`
    /// (``AccessorContext/arg(_:)``).
    /// - Parameters:
    ///   - argument: The launch argument.
    ///   - make: The factory for that launch.
    ///   - caller: The enclosing function or property, which tells a declaration from a call site.
    /// - Returns: The accessor.
    @_alwaysEmitIntoClient
    @discardableResult
    public func onArg(_ argument: String, _ make: Make, caller: String = #function) -> Self {
        context(.arg(argument), make, caller: caller)
    }
}
