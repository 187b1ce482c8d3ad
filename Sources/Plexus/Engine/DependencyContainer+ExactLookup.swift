internal import PlexusCore

// The exact-key lookup that typed accessors and keyed lookups (`resolve(_:key:)`) share: only a definition under
// exactly the key answers (no untagged fallback), here then in the collaborators, then an accessor's declared default;
// a miss names the near misses.

extension DependencyContainer {
    /// Resolves `key` through the engine with the typed accessor lookup: exact key only, here then in the
    /// collaborators, then this container's declared default if one is registered.
    ///
    /// `declaredDefault` makes the accessor's declared default (`nil` for a keyed lookup, which has none). A `reset()`
    /// on another thread may drop it between its registration and this lookup: a miss then looks once more, with the
    /// default registered in the same lock section that takes it, so a second miss means that no default answers.
    func resolveExact<T>(_ key: DefinitionKey, declaredDefault: () -> DeclaredDefault? = { nil }) throws -> T {
        try resolveExact(key, argumentsAt: .none, declaredDefault: declaredDefault)
    }

    /// `resolveExact(_:declaredDefault:)` for a key whose definitions take runtime arguments: `arguments` (a tuple
    /// for several) is handed to the factory that answers.
    func resolveExact<T, A>(_ key: DefinitionKey, arguments: A, declaredDefault: () -> DeclaredDefault?) throws -> T {
        try ResolveArguments.with(arguments) { pointer in
            try resolveExact(key, argumentsAt: pointer, declaredDefault: declaredDefault)
        }
    }

    /// `resolveExact(_:arguments:declaredDefault:)` with the arguments at `arguments` (zero-sized for none).
    /// `entry`, the accessor's entry here, is given the answer when the declared default answers alone (see
    /// `lookUpAccessorDefault`), so that the accessor's next call takes the fast path without locking to learn it.
    func resolveExact<T>(
        _ key: DefinitionKey, argumentsAt arguments: ResolveArguments, entry: AccessorKeys.Entry? = nil,
        declaredDefault: () -> DeclaredDefault?
    ) throws -> T {
        switch try resolveExactOutcome(
            key, argumentsAt: arguments, handsOver: false, entry: entry, declaredDefault: declaredDefault)
            as SegmentOutcome<T>
        {
        case .instance(let instance):
            return instance
        case .handOver(let handOver):
            // Only a segment's entry (below) lets its scope hand over.
            throw handOver.refused()
        }
    }

    /// `resolveExact(_:declaredDefault:)` at the top of a segment of an async resolve (`AsyncFactory`, and
    /// `MainActorFactory` off the main actor): the instance, or the hand-over of a definition that needs `await`.
    func resolveExactSegment<T>(_ key: DefinitionKey, declaredDefault: () -> DeclaredDefault?) throws
        -> SegmentOutcome<T>
    {
        try resolveExactOutcome(
            key, argumentsAt: .none, handsOver: true, entry: nil, declaredDefault: declaredDefault)
    }

    /// The exact lookup of `key` in a scope of the calling thread's graph: the instance, or, with `handsOver` (the top
    /// of a segment of an async resolve), the hand-over of a definition that needs `await`.
    private func resolveExactOutcome<T>(
        _ key: DefinitionKey, argumentsAt arguments: ResolveArguments, handsOver: Bool, entry: AccessorKeys.Entry?,
        declaredDefault: () -> DeclaredDefault?
    ) throws -> SegmentOutcome<T> {
        var outcome: SegmentOutcome<T>?
        let instance = try InstanceStorage.filledIfWritten(T.self) { result -> Bool in
            func lookUp(_ graph: ResolutionGraph) throws -> Delivery {
                var search = Search(key)
                search.isAccessor = true
                search.accessorEntry = entry
                if let delivery = try find(&search, arguments: .given(arguments), into: result, graph: graph) {
                    return delivery
                }
                let declared = declaredDefault()
                if declared != nil || search.wantsDeclaredDefault {
                    search = Search(key)
                    search.isAccessor = true
                    search.accessorEntry = entry
                    search.declaredDefault = declared
                    search.isRetry = true
                    if let delivery = try find(
                        &search, arguments: .given(arguments), into: result, graph: graph)
                    {
                        return delivery
                    }
                }
                // The "required by" chain is what the graph is making right now, innermost first.
                throw ResolutionError.definitionNotFound(
                    key: diagnoseExact(key, requiredBy: graph.dependentKeys.reversed()))
            }
            let delivery = try handsOver ? inGraphHandingOver(into: result, lookUp) : inGraph(into: result, lookUp)
            switch delivery {
            case .typed:
                return true
            case .value(let instance):
                guard let value = instance as? T else {
                    throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
                }
                outcome = .instance(value)
            case .handOver(let handOver):
                outcome = .handOver(handOver)
            }
            return false
        }
        if let instance { return .instance(instance) }
        guard let outcome else { preconditionFailure("Plexus: an exact lookup delivered nothing") }
        return outcome
    }

    /// `key` with near misses for an exact lookup: the same type under other tags, and other types under the
    /// same tag, in every reachable container.
    func diagnoseExact(_ key: DefinitionKey, requiredBy: [DefinitionKey]) -> DefinitionKey {
        var result = diagnose(key, requiredBy: requiredBy)
        var hints = result.diagnostics?.hints ?? []
        if let tag = key.tag {
            var seen = Set<DefinitionKey>()
            for container in reachable() {
                // Typed accessors' declared defaults count: their keys are registered once used.
                let keys = container.registry.withLock { registry in
                    (registry.slots.entries.map(\.key) + registry.accessorDefaults.entries.map(\.key))
                }
                for candidate in keys where seen.insert(candidate).inserted {
                    if candidate.tag == tag, candidate.type != key.type {
                        hints.append("Near miss: \(tag) is registered for type \(typeName(candidate.type)).")
                    } else if candidate.type == key.type, candidate.tag != tag, let other = candidate.tag,
                        !hints.contains(where: { $0.contains("\(other)") })
                    {
                        hints.append("Near miss: \(typeName(key.type)) is registered under \(other).")
                    }
                }
            }
        }
        if key.tag != nil, !(result.diagnostics?.hints ?? []).contains(where: { $0.contains("without") }) {
            // An untagged definition never answers an exact lookup: say so when one exists.
            let untagged = reachable().contains { $0.registry.withLock { $0.slots[key.untagged] != nil } }
            if untagged {
                hints.append(
                    "Near miss: \(typeName(key.type)) is registered without a tag; a keyed or typed-accessor lookup "
                        + "never falls back to it.")
            }
        }
        if hints.isEmpty, let tag = key.tag {
            // The generic advice (`register { … }`, untagged) would not answer an exact lookup.
            hints.append(
                "Register one under exactly that key: `container.inject(key: \(tag), …)` or "
                    + "`container.register(tag: \(tag)) { … as \(typeName(key.type)) }`.")
        }
        guard !hints.isEmpty else { return key }
        result.diagnostics = KeyDiagnostics(hints: hints, requiredBy: requiredBy)
        return result
    }
}
