public import PlexusFactoryKit
public import Testing

/// A Swift Testing trait that runs each test with its own instance of a shared container and its own copy of
/// `Scope.singleton`, so tests running in parallel never see each other's registrations or singletons.
///
/// ```swift
/// @Test(.container { $0.api.register { MockAPIClient() } })
/// func loadsWithTheMock() { … }
///
/// extension Trait where Self == ContainerTrait<AppContainer> {
///     static var appContainer: Self { .init(shared: AppContainer.$shared, container: AppContainer()) }
/// }
/// ```
///
/// The configure closure may be `async` and isolated to any actor (`@MainActor`).
public struct ContainerTrait<C: SharedContainer>: TestTrait, SuiteTrait, TestScoping {
    /// Configures the test's container before the test runs.
    public typealias Transform = @Sendable @isolated(any) (C) async -> Void

    private let shared: TaskLocal<C>
    private let container: @Sendable () -> C
    private var transform: Transform?

    /// On a suite, the trait applies to every test in it, each with its own container.
    public var isRecursive: Bool { true }

    /// Makes a trait for a container type with a task-local `shared` instance.
    /// - Parameters:
    ///   - shared: The task-local the container's `shared` reads (`AppContainer.$shared`).
    ///   - container: Makes each test's container.
    public init(shared: TaskLocal<C>, container: @autoclosure @escaping @Sendable () -> C) {
        self.shared = shared
        self.container = container
    }

    /// Runs `function` with a new container as `C.shared` and a copy of `Scope.singleton`, configured first.
    /// - Parameters:
    ///   - test: The test or suite the scope is for.
    ///   - testCase: The test case, for a parameterized test.
    ///   - function: The test to run.
    /// - Throws: What the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Scope.$singleton.withValue(Scope.singleton.clone()) {
            try await shared.withValue(container()) {
                await transform?(C.shared)
                try await function()
            }
        }
    }

    /// The same trait, with a closure that configures each test's container.
    /// - Parameter transform: Typically registers overrides.
    /// - Returns: The configured trait.
    public func callAsFunction(transform: @escaping Transform) -> Self {
        var copy = self
        copy.transform = transform
        return copy
    }
}

extension Trait where Self == ContainerTrait<Container> {
    /// Each test gets its own ``PlexusFactoryKit/Container/shared`` and its own singletons.
    public static var container: ContainerTrait<Container> {
        .init(shared: Container.$shared, container: Container())
    }
}
