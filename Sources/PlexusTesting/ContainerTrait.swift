public import Plexus
public import Testing

/// A Swift Testing trait that runs each test against a fresh ``Plexus/DependencyContainer/shared`` container.
///
/// ```swift
/// @Test(.container { $0.mappers.priceMapper.replace { MockMapper() } })
/// func pricesUseTheMock() {
///     #expect(ProductCell().priceMapper is MockMapper)   // reads `DependencyContainer.shared`
/// }
///
/// @Suite(.container)                                      // every test of the suite gets its own
/// struct CheckoutTests { … }
/// ```
///
/// Each test (each case of a parameterized test) gets a new container, configured by the closure, through
/// `DependencyContainer.withShared`: tests running in parallel never see each other's overrides, and the
/// process-wide container is not touched. Threads the test starts with `Thread` or `DispatchQueue` are not child
/// tasks and see the process-wide container. By default Plexus logs nothing while the test runs (see
/// ``SilencingPlexusLogsTrait``); pass `silencingLogs: false` to keep the process-wide settings.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    let silencingLogs: Bool
    let configure: @Sendable (DependencyContainer) throws -> Void

    /// On a suite, the trait applies to every test in it, each with its own container.
    public var isRecursive: Bool { true }

    /// Runs `function` with a new shared container, configured, and Plexus logging silenced unless opted out.
    /// - Parameters:
    ///   - test: The test or suite the scope is for.
    ///   - testCase: The test case, for a parameterized test.
    ///   - function: The test to run.
    /// - Throws: What the configuration closure or the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let container = DependencyContainer(name: "shared (\(test.name))")
        let configure = self.configure
        // Configured inside the scope: what the closure logs is silenced, and what it reads through
        // `DependencyContainer.shared` (an accessor's default that reaches the shared container) is the test's own.
        if silencingLogs {
            try await Plexus.withLogging(level: .none) {
                try await DependencyContainer.withShared(container) {
                    try configure(container)
                    try await function()
                }
            }
        } else {
            try await DependencyContainer.withShared(container) {
                try configure(container)
                try await function()
            }
        }
    }
}

extension Trait where Self == ContainerTrait {
    /// Each test gets a fresh, empty shared container, and Plexus logs nothing while it runs.
    ///
    /// ```swift
    /// @Suite(.container) struct CheckoutTests { … }
    /// ```
    public static var container: Self { container() }

    /// Each test gets a fresh shared container, configured by `configure` before the test runs.
    ///
    /// ```swift
    /// @Test(.container { $0.analytics.replace { MockAnalytics() } })
    /// func checkoutReportsThePurchase() { … }
    /// ```
    /// - Parameters:
    ///   - silencingLogs: Whether Plexus logs nothing while the test runs (the default); `false` keeps the
    ///     process-wide ``Plexus/logLevel`` and ``Plexus/logger``.
    ///   - configure: Registers or overrides what the test needs in the new container.
    /// - Returns: The trait.
    public static func container(
        silencingLogs: Bool = true, _ configure: @escaping @Sendable (DependencyContainer) throws -> Void = { _ in }
    ) -> Self {
        ContainerTrait(silencingLogs: silencingLogs, configure: configure)
    }
}
