extension DependencyContainer {
    /// Resolves an instance of `T`, as the call site's type says.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// let api = try container.resolve(tag: "prod") as Api
    /// let maybe: Service? = try container.resolve()        // T? and T! resolve through T's definition
    /// ```
    ///
    /// Lookup, first match wins: the exact key; the same key untagged; a definition that
    /// ``Definition/implements(_:tag:)`` the type (exact tag, then untagged); auto-wiring from a definition that
    /// takes arguments; the collaborators, depth first in the order given.
    ///
    /// - Parameter tag: The tag to look for; an untagged definition answers any tag that has none of its own.
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: ``ResolutionError`` when nothing matches or the graph has a constructor cycle, and any error a
    ///   factory or hook throws, unchanged. The container stays usable after any error.
    public func resolve<T>(tag: DependencyTagConvertible? = nil) throws -> T {
        let key = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try withGraph { graph in try resolve(key, arguments: (), graph: graph) }
    }

    /// Resolves an instance of `T` from a definition that takes runtime arguments.
    ///
    /// ```swift
    /// container.register { (id: Int, title: String) in Cell(id: id, title: title) }
    /// let cell: Cell = try container.resolve(arguments: 42, "Inbox")
    /// ```
    ///
    /// Arguments match the definition by exact static types, count and order; resolving with arguments never
    /// auto-wires.
    /// - Parameters:
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance.
    /// - Throws: As ``resolve(tag:)``.
    public func resolve<T, each A>(tag: DependencyTagConvertible? = nil, arguments: repeat each A) throws -> T {
        let key = DefinitionKey(type: T.self, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        let arguments = (repeat each arguments)
        return try withGraph { graph in try resolve(key, arguments: arguments, graph: graph) }
    }

    /// Resolves an instance of a type known only at run time.
    ///
    /// ```swift
    /// let service = try container.resolve(Service.self) as? Service
    /// ```
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)``.
    public func resolve(_ type: Any.Type, tag: DependencyTagConvertible? = nil) throws -> Any {
        let key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try withGraph { graph in try resolve(key, arguments: (), graph: graph) as Any }
    }

    /// Resolves an instance of a type known only at run time, from a definition that takes runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)``.
    public func resolve<each A>(_ type: Any.Type, tag: DependencyTagConvertible? = nil, arguments: repeat each A)
        throws -> Any
    {
        let key = DefinitionKey(type: type, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        let arguments = (repeat each arguments)
        return try withGraph { graph in try resolve(key, arguments: arguments, graph: graph) as Any }
    }

    // MARK: - The resolution graph

    /// Runs `body` inside the calling thread's resolution graph; the outermost call finishes the graph (hooks,
    /// `didResolveDependencies`, publishing singletons) or, on error, rolls it back.
    func withGraph<R>(_ body: (ResolutionGraph) throws -> R) throws -> R {
        let graph = ResolutionGraph.current
        guard graph.depth == 0 else {
            graph.depth += 1
            defer { graph.depth -= 1 }
            return try body(graph)
        }
        graph.depth = 1
        defer { graph.depth = 0 }
        do {
            let result = try body(graph)
            try graph.finish()
            return result
        } catch {
            graph.abort()
            log(.errors, "Plexus: \(error)")
            throw error
        }
    }

    /// Resolves `key` here or in a collaborator, or throws `definitionNotFound` with the near misses.
    func resolve<T, U>(_ key: DefinitionKey, arguments: U, graph: ResolutionGraph) throws -> T {
        var visited: [DependencyContainer] = []
        if let instance: T = try find(key, arguments: arguments, graph: graph, visited: &visited) {
            return instance
        }
        throw ResolutionError.definitionNotFound(key: diagnose(key, searched: visited))
    }

    private enum Located<T, U> {
        case typed(Slot<T, U>, Acquisition<T>)
        case erased(Registry.Found, requested: DefinitionKey)
    }

    /// Finds `key` in this container (exact, untagged, forwarding, auto-wiring), then in the collaborators
    /// depth-first; `nil` when no container has it. Errors from factories and hooks propagate.
    private func find<T, U>(
        _ key: DefinitionKey, arguments: U, graph: ResolutionGraph, visited: inout [DependencyContainer]
    ) throws -> T? {
        let located: Located<T, U>? = registry.withLock { registry in
            if let found = registry.find(key) {
                if found.forward == nil, let slot = found.slot as? Slot<T, U> {
                    return .typed(slot, slot.acquire(key, graph: graph))
                }
                return .erased(found, requested: key)
            }
            // `T?` and `T!` resolve through the definition of `T`.
            if let wrapped = (key.type as? any OptionalType.Type)?.wrappedType {
                let unwrapped = key.with(type: wrapped)
                if let found = registry.find(unwrapped) { return .erased(found, requested: unwrapped) }
            }
            return nil
        }
        switch located {
        case .typed(let slot, let acquisition):
            return try slot.resolve(
                acquisition, arguments: { arguments }, requested: key, owner: self, forward: nil, graph: graph)
        case .erased(let found, let requested):
            let instance = try found.slot.resolveErased(
                arguments: arguments, requested: requested, owner: self, forward: found.forward, graph: graph)
            return try cast(instance, to: T.self, key: key, forward: found.forward)
        case nil:
            break
        }

        if U.self == Void.self, let candidate = try registry.withLock({ try $0.autoWiringCandidate(for: key) }) {
            let instance = try candidate.slot.resolveAutoWired(
                requested: key, owner: self, forward: candidate.forward, graph: graph)
            return try cast(instance, to: T.self, key: key, forward: candidate.forward)
        }

        visited.append(self)
        let collaborators = registry.withLock { $0.collaborators.compactMap(\.container) }
        for collaborator in collaborators where !visited.contains(where: { $0 === collaborator }) {
            if let instance: T = try collaborator.find(key, arguments: arguments, graph: graph, visited: &visited) {
                return instance
            }
        }
        return nil
    }

    private func cast<T>(_ instance: Any?, to _: T.Type, key: DefinitionKey, forward: Forward?) throws -> T {
        guard let instance, forward?.accepts(instance) ?? true, let value = instance as? T else {
            throw ResolutionError.invalidType(resolved: instance.map { type(of: $0) }, key: key)
        }
        return value
    }

    /// `key` with hints about what the searched containers do have for its type.
    private func diagnose(_ key: DefinitionKey, searched containers: [DependencyContainer]) -> DefinitionKey {
        var hints: [String] = []
        var seen = Set<DefinitionKey>()
        let type = (key.type as? any OptionalType.Type)?.wrappedType ?? key.type
        for container in containers {
            for candidate in container.registry.withLock({ $0.keys(for: type) }) where seen.insert(candidate).inserted {
                if let hint = nearMiss(candidate, for: key) { hints.append(hint) }
            }
        }
        if type != key.type {
            hints.insert(
                "\(typeName(key.type)) resolves through the definition of \(typeName(type)), which has none.", at: 0)
        }
        guard !hints.isEmpty || key.typeOfArguments != Void.self else { return key }
        if key.typeOfArguments != Void.self {
            hints.append(
                "Resolving with arguments never auto-wires; arguments must match a definition's types, count and order exactly."
            )
        }
        var result = key
        result.diagnostics = NotFoundDiagnostics(hints: hints)
        return result
    }

    private func nearMiss(_ candidate: DefinitionKey, for key: DefinitionKey) -> String? {
        var differences: [String] = []
        // An untagged definition answers every tag, so only another tag is a difference.
        if let tag = candidate.tag, tag != key.tag {
            differences.append("for tag \(tag)")
        }
        if candidate.typeOfArguments != key.typeOfArguments {
            differences.append(
                candidate.typeOfArguments == Void.self
                    ? "without arguments" : "with arguments \(argumentsName(candidate.typeOfArguments))")
        }
        guard !differences.isEmpty else { return nil }
        return "Near miss: \(typeName(candidate.type)) is registered \(differences.joined(separator: " and "))."
    }
}

/// Lets the container see through `Optional` to the wrapped type.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
