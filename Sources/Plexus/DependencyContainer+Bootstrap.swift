extension DependencyContainer {
    /// Creates the ``ComponentScope/eagerSingleton`` instances, in registration order.
    ///
    /// Calling it again creates those registered since (the others are already made). If a factory throws, the
    /// error propagates and the container is left not bootstrapped, so it can bootstrap again once fixed. An eager
    /// singleton whose factory takes arguments is auto-wired.
    /// - Throws: The first error a factory, hook or resolution throws.
    public func bootstrap() throws {
        let eager = registry.withLock { registry in
            registry.isBootstrapped = false
            return registry.entriesInOrder.filter { $0.slot.scope == .eagerSingleton }
        }
        var created = Set<ObjectIdentifier>()
        for (key, slot) in eager where created.insert(ObjectIdentifier(slot)).inserted {
            try produce(slot, key: key, arguments: slot.blueprint.argumentCount == 0 ? .value(()) : .autoWire)
        }
        registry.withLock { $0.isBootstrapped = true }
        log(.verbose, "Bootstrapped \(eager.count) eager singletons")
    }

    /// Whether ``bootstrap()`` has completed since the container was created or reset.
    public var isBootstrapped: Bool {
        registry.withLock { $0.isBootstrapped }
    }

    /// Resolves every definition, in registration order, to check that the graph can be built.
    ///
    /// Definitions without arguments are resolved as they are; a definition that takes arguments is resolved
    /// with each of `arguments` whose type matches its argument types (pass a tuple for several arguments) and
    /// skipped if none does.
    ///
    /// ```swift
    /// try container.validate(42, (1, "title"))
    /// ```
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Throws: The first ``ResolutionError``. Other errors from factories are treated as domain errors (a
    ///   service that cannot start here) and do not fail validation.
    public func validate(_ arguments: Any...) throws {
        let entries = registry.withLock { $0.entriesInOrder }
        for (key, slot) in entries {
            let argumentSets: [Any] =
                key.typeOfArguments == Void.self
                ? [()] : arguments.filter { Swift.type(of: $0) == key.typeOfArguments }
            for argumentSet in argumentSets {
                do {
                    try produce(slot, key: key, arguments: .value(argumentSet))
                } catch let error as ResolutionError {
                    throw error
                } catch {
                    log(.verbose, "Validation of \(key) ignored a domain error: \(error)")
                }
            }
        }
    }
}
