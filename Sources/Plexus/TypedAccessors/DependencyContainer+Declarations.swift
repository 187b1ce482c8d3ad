// What a product of this package that spells typed accessors another way (PlexusFactoryKit, Factory's spellings)
// reaches the accessor machinery through: a declaration named by a marker type and a property name, resolved,
// forgotten and inspected as a typed accessor of this container is. Package access: not part of the public API.

extension DependencyContainer {
    /// The instance of the declaration `name` of `T` in the namespace `Marker`, as a ``Factory`` accessor with
    /// `scope` and the declared default `make` resolves it: the default is registered on first use with `scope`, and
    /// what the scope keeps is kept in this container's slot for the key.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and what `make` throws.
    package func resolveDeclaration<Marker, T>(
        _: T.Type = T.self, marker _: Marker.Type, name: String, scope: ComponentScope,
        make: @escaping @Sendable () throws -> T
    ) throws -> T {
        try AccessorCore.resolve(
            self, AccessorSite(T.self, marker: Marker.self, property: name), DeclaredStorage(scope), make)
    }

    /// Forgets the declaration `name` of `T` in `Marker`: its registered default (so that the next resolve registers
    /// it again, with the scope it then carries) and the instances kept for it, released after the lock.
    package func forgetDeclaration<Marker, T>(_: T.Type, marker _: Marker.Type, name: String) {
        let site = AccessorSite(T.self, marker: Marker.self, property: name)
        let dropped = registry.withLock { registry -> [Any] in
            let key = registry.accessorKeys.entry(for: site).key
            var dropped: [Any] = registry.remove(key)
            if let slot = registry.removeAccessorDefault(key) { dropped.append(slot) }
            return dropped
        }
        release(dropped: dropped)
    }

    /// Releases what the declaration `name` of `T` in `Marker` keeps (its singleton, cached or weak instance); the
    /// next resolve makes a new one.
    package func dropDeclaredInstance<Marker, T>(_: T.Type, marker _: Marker.Type, name: String) {
        let site = AccessorSite(T.self, marker: Marker.self, property: name)
        let key = registry.withLock { $0.accessorKeys.entry(for: site).key }
        resetAccessor(key, .scope)
    }

    /// Whether a declaration of this container keeps an instance (a published singleton, cached or weak instance).
    package var keepsDeclaredInstances: Bool {
        registry.withLock { registry in
            registry.accessorDefaults.allValues.contains { $0.instance != nil || $0.weakInstance != nil }
        }
    }

    /// Releases every instance the declarations of this container keep; their registrations stay.
    package func dropDeclaredInstances() {
        let dropped = registry.withLock { registry -> [Any] in
            registry.accessorDefaults.allValues.flatMap { $0.dropCached() }
        }
        release(dropped: dropped)
    }

    /// Forgets every declaration of this container (their defaults and kept instances); definitions registered
    /// with `register` stay.
    package func forgetDeclarations() {
        let dropped = registry.withLock { registry -> [Any] in
            registry.accessorDefaults.entries.compactMap { registry.removeAccessorDefault($0.key) }
        }
        release(dropped: dropped)
    }

    /// A new container named `name` with this one's registrations and the instances they keep now; what either
    /// makes afterwards stays its own. Collaborators are not copied.
    package func copyingInstances(name: String) -> DependencyContainer {
        let copy = DependencyContainer(name: name)
        var registry = registry.withLock { $0.copyingSlots() }
        registry.collaborators = []
        registry.releasedCollaborators = 0
        let empty = copy.registry.withLock { current -> Registry in
            swap(&current, &registry)
            return registry
        }
        copy.release(dropped: empty)
        return copy
    }
}

extension DependencyContainer {
    /// Runs `build` (resolves of declarations) with the graph recorder on, and reports the graph it built, as
    /// `validate(roots:)` does for typed accessors; the definitions registered with `register` are not walked.
    package func validateDeclarations(_ build: () throws -> Void) rethrows -> GraphReport {
        let recorder = GraphRecorder()
        try recorder.recording(build)
        return recorder.report(validating: self)
    }
}
