internal import PlexusCore

/// The task-local replacement of ``DependencyContainer/shared``.
enum SharedOverride {
    /// The container `shared` answers in this task and its child tasks; `nil` outside every `withShared`.
    @TaskLocal static var container: DependencyContainer?
}

extension DependencyContainer {
    /// Runs `body` with ``shared`` answering `container`, for this task and the child tasks it starts.
    ///
    /// ```swift
    /// let container = DependencyContainer()
    /// container.analytics.replace { MockAnalytics() }
    /// DependencyContainer.withShared(container) {
    ///     #expect(CheckoutModel().analytics is MockAnalytics)   // reads `DependencyContainer.shared`
    /// }
    /// ```
    ///
    /// The replacement is a task-local value: tests running in parallel each see their own container, and nothing
    /// changes in the process-wide one. Threads started with `Thread` or `DispatchQueue` inside `body` are not
    /// child tasks: they see the process-wide container. Calls nest; the innermost container wins.
    /// - Parameters:
    ///   - container: The container ``shared`` answers while `body` runs.
    ///   - body: The code to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @discardableResult
    public static func withShared<R>(_ container: DependencyContainer, _ body: () throws -> R) rethrows -> R {
        SharedReplacement.note()
        return try SharedOverride.$container.withValue(container, operation: body)
    }

    /// Runs the asynchronous `body` with ``shared`` answering `container`, for this task and the child tasks it
    /// starts, also across every `await` in `body`.
    ///
    /// ```swift
    /// try await DependencyContainer.withShared(container) {
    ///     try await CheckoutModel().load()          // and every child task `load` starts
    /// }
    /// ```
    ///
    /// Threads started with `Thread` or `DispatchQueue` inside `body` see the process-wide container; unstructured
    /// tasks (`Task { … }`) inherit task-local values and see `container`, detached tasks do not.
    /// - Parameters:
    ///   - container: The container ``shared`` answers while `body` runs.
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: The code to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @discardableResult
    public static func withShared<R>(
        _ container: DependencyContainer, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        SharedReplacement.note()
        return try await SharedOverride.$container.withValue(container, operation: body, isolation: isolation)
    }
}
