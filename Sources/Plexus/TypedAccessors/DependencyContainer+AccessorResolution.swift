extension DependencyContainer {
    /// Registers an override for an accessor's key: a blueprint under exactly that key, as a definition registered
    /// there would be, with the property hooks of `storage`, which replaces any earlier override and drops what it cached.
    func registerOverride<T>(
        _ key: DefinitionKey, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T
    ) {
        registerOverride(key, hash: KeyTable<Slot>.hash(key), storage: storage, make: make)
    }

    /// `registerOverride(_:storage:make:)` for the accessor declared at `site`, with the key and hash its entry keeps
    /// (an accessor's tag is a long string, costly to hash).
    func registerOverride<T>(
        at site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T
    ) {
        let entry = accessorEntry(site)
        registerOverride(entry.key, hash: entry.hash, storage: storage, make: make)
    }

    private func registerOverride<T>(
        _ key: DefinitionKey, hash: Int, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T
    ) {
        let hooks = storage.hooks
        register(
            Blueprint.makeNullary(scope: storage.scope, type: T.self, factory: make), key: key, hash: hash,
            recipe: hooks.isEmpty ? Recipe.plain : Recipe(hooks: hooks, autoInjects: nil))
    }

    /// Logs an override of an accessor bound to no container, which has nowhere to go.
    @usableFromInline
    static func logUnboundOverride() {
        log(.errors, "Plexus: an unbound accessor cannot be overridden; assign it to an accessor property first.")
    }

    /// Logs a decorator added to an accessor bound to no container, which has nowhere to go.
    static func logUnboundDecorator() {
        log(.errors, "Plexus: an unbound accessor cannot be decorated; decorate the accessor property.")
    }

    /// Stops the process for an accessor that could not be resolved (`callAsFunction()` does not throw).
    @usableFromInline
    static func accessorFailed(_ container: DependencyContainer?, _ site: AccessorSite, _ error: any Error) -> Never {
        let key = AccessorBinding(container: container, site: site).key
        let name = key.map { "\($0)" } ?? "an unbound accessor"
        if case ResolutionError.circularDependency(let path) = error {
            let chain = path.map { "\($0)" }.joined(separator: " -> ")
            fatalError(
                "Plexus: circular dependency between typed accessors: \(chain). Close it with "
                    + "`.resolvingProperties { container, instance in … }` on one of them: make that instance without "
                    + "the other, and set the back-reference in the hook, which runs once both exist. "
                    + throwingAdvice)
        }
        fatalError("Plexus: could not resolve \(name): \(sentence(describing: error)) \(throwingAdvice)")
    }

    /// How to get the error thrown rather than stop: `resolve()` throws only what reaches it, so every accessor
    /// called on the way (`self.other()` in a factory) must use it too.
    private static let throwingAdvice =
        "To get the error thrown instead, call `try accessor.resolve()` at every call on the path, inside factories "
        + "too (`try self.other.resolve()`): one `accessor()` call on the way stops the process, even under an "
        + "outer `try accessor.resolve()`."

    /// `error`'s description as a sentence: ended by one period.
    private static func sentence(describing error: any Error) -> String {
        let text = "\(error)"
        return text.hasSuffix(".") ? text : text + "."
    }
}
