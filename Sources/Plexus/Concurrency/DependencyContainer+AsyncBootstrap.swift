internal import PlexusCore

extension DependencyContainer {
    /// Creates the ``ComponentScope/eagerSingleton`` instances, in registration order, `async` ones included: the
    /// async form of ``bootstrap()-y393``.
    ///
    /// ```swift
    /// container.register(.eagerSingleton) { () async throws -> Database in try await Database.open() }
    /// try await container.bootstrap()
    /// ```
    ///
    /// The synchronous ``bootstrap()-y393`` throws ``ResolutionError/requiresAwait(key:)`` for an `async` eager
    /// singleton. As there, a failed bootstrap leaves the container not bootstrapped, so it can bootstrap again.
    /// In an async context, Swift picks this overload: write `try await container.bootstrap()`.
    /// - Throws: The first error a factory, hook or resolution throws.
    public func bootstrap() async throws {
        let eager = beginBootstrap()
        var created = Set<ObjectIdentifier>()
        for (key, slot) in eager where created.insert(ObjectIdentifier(slot)).inserted {
            let source: ArgumentSource =
                slot.blueprint.argumentCount == 0 ? .pointer(zeroSizedArguments) : .autoWire
            try await resolveAsync(
                arguments: (), deliver: { _ in },
                segment: { _ in
                    try self.produceSegment(slot, key: key, arguments: source).map { .handOver($0) } ?? .instance(())
                })
        }
        endBootstrap()
        log(.verbose, "Bootstrapped \(eager.count) eager singletons")
    }
}
