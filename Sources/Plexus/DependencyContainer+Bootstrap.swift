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
            if slot.blueprint.argumentCount == 0 {
                try produce(slot, key: key, arguments: .pointer(zeroSizedArguments))
            } else {
                try produce(slot, key: key, arguments: .autoWire)
            }
        }
        registry.withLock { $0.isBootstrapped = true }
        log(.verbose, "Bootstrapped \(eager.count) eager singletons")
    }

    /// Whether ``bootstrap()`` has completed since the container was created or reset.
    public var isBootstrapped: Bool {
        registry.withLock { $0.isBootstrapped }
    }

    /// Resolves every definition, in registration order, to check that the graph can be built; then the typed
    /// accessors' declared defaults that this container has used and that no override replaces.
    ///
    /// Definitions without arguments are resolved as they are; a definition that takes arguments is resolved
    /// with each of `arguments` that casts to its argument types (pass a tuple for several arguments; a subclass
    /// instance or a labelled tuple casts too) and skipped if none does.
    ///
    /// ```swift
    /// try container.validate(42, (1, "title"))
    /// ```
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Throws: The first ``ResolutionError``. Other errors from factories are treated as domain errors (a
    ///   service that cannot start here) and do not fail validation.
    public func validate(_ arguments: Any...) throws {
        // Typed accessors (§18): the declared defaults used so far that no override here replaces, after the
        // registered definitions.
        let entries = registry.withLock { registry in
            registry.entriesInOrder
                + registry.accessorDefaults.entries.filter { registry.slots[$0.key] == nil }
                .map { (key: $0.key, slot: $0.value) }.sorted { $0.slot.order < $1.slot.order }
        }
        for (key, slot) in entries {
            if key.typeOfArguments == Void.self {
                try validate(key) {
                    try produce(slot, key: key, arguments: .pointer(zeroSizedArguments))
                }
                continue
            }
            for argumentSet in arguments {
                try validate(key) {
                    // `withArguments` skips argument sets that do not cast to the factory's argument types.
                    _ = try slot.blueprint.withArguments(argumentSet) {
                        try produce(slot, key: key, arguments: .pointer($0))
                    }
                }
            }
        }
    }

    /// Runs one validation resolve: a `ResolutionError` fails validation, any other error is a domain error.
    private func validate(_ key: DefinitionKey, _ resolve: () throws -> Void) throws {
        do {
            try resolve()
        } catch let error as ResolutionError {
            throw error
        } catch {
            log(.verbose, "Validation of \(key) ignored a domain error: \(error)")
        }
    }
}
