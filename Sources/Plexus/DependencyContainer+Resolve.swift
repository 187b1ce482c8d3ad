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
    @inlinable
    public func resolve<T>(tag: DependencyTagConvertible?) throws -> T {
        let key = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: tag?.dependencyTag)
        return try resolveTyped(key, arguments: zeroSizedArguments)
    }

    /// Resolves an untagged instance of `T`, as the call site's type says: the same as ``resolve(tag:)`` with no
    /// tag.
    ///
    /// ```swift
    /// let service: Service = try container.resolve()
    /// ```
    /// - Returns: The instance, after every property hook of the resolution graph has run.
    /// - Throws: As ``resolve(tag:)``.
    @inlinable
    public func resolve<T>() throws -> T {
        let key = DefinitionKey(type: T.self, typeOfArguments: Void.self, tag: nil)
        return try resolveTyped(key, arguments: zeroSizedArguments)
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
    @inlinable
    public func resolve<T, each A>(tag: DependencyTagConvertible? = nil, arguments: repeat each A) throws -> T {
        let key = DefinitionKey(type: T.self, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        return try withArgumentsPointer(to: (repeat each arguments)) { try resolveTyped(key, arguments: $0) }
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
        return try resolveAny(key, arguments: zeroSizedArguments)
    }

    /// Resolves an instance of a type known only at run time, from a definition that takes runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - tag: The tag to look for.
    ///   - arguments: The factory's runtime arguments.
    /// - Returns: The instance, as `Any`.
    /// - Throws: As ``resolve(tag:)``.
    @inlinable
    public func resolve<each A>(_ type: Any.Type, tag: DependencyTagConvertible? = nil, arguments: repeat each A)
        throws -> Any
    {
        let key = DefinitionKey(type: type, typeOfArguments: (repeat each A).self, tag: tag?.dependencyTag)
        return try withArgumentsPointer(to: (repeat each arguments)) { try resolveAny(key, arguments: $0) }
    }

    // MARK: - From the generic surface to the non-generic core

    /// Resolves `key` into storage for a `T`: the core copies the instance straight in when it has exactly the
    /// requested type, and hands back `Any` (cast here) when it comes through forwarding or `Optional`.
    @inlinable
    func resolveTyped<T>(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> T {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let storage = buffer.baseAddress
            let instance = try resolveRaw(key, arguments: arguments, into: storage.map { UnsafeMutableRawPointer($0) })
            if let instance {
                guard let value = instance as? T else {
                    throw ResolutionError.invalidType(resolved: Swift.type(of: instance), key: key)
                }
                return value
            }
            guard let storage else { throw ResolutionError.definitionNotFound(key: key) }
            return storage.move()
        }
    }

    @usableFromInline
    func resolveAny(_ key: DefinitionKey, arguments: UnsafeRawPointer) throws -> Any {
        guard let instance = try resolveRaw(key, arguments: arguments, into: nil) else {
            throw ResolutionError.definitionNotFound(key: key)
        }
        return instance
    }

    /// The core of every resolve: finds `key` and produces its instance inside the calling thread's resolution
    /// graph. Returns `nil` when it initialized `result` with the instance, the instance otherwise.
    @usableFromInline
    func resolveRaw(_ key: DefinitionKey, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer?)
        throws -> Any?
    {
        if let result, try resolveDirectly(key, arguments: arguments, into: result) { return nil }
        let delivery = try inGraph(into: result) { graph in
            var search = Search(key)
            if let delivery = try find(&search, arguments: .pointer(arguments), into: result, graph: graph) {
                return delivery
            }
            throw ResolutionError.definitionNotFound(key: diagnose(key))
        }
        switch delivery {
        case .typed: return nil
        case .value(let instance): return instance
        }
    }

    /// The most common resolves, without the general machinery: a published singleton (a copy under the lock, no
    /// resolution graph), and a `.unique` definition — or a `.shared` one asked for by an outermost resolve, which
    /// has nothing to share with — whose instances are known to need no hooks. Either under the exact key here or
    /// where a remembered route through the collaborators points. Returns `false` to leave the request to the
    /// general path.
    private func resolveDirectly(
        _ key: DefinitionKey, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        var routed: (owner: DependencyContainer, slot: Slot)?
        let decision = registry.withLock { registry -> DirectDecision? in
            if let slot = registry.slots[key] { return directDecision(for: slot) }
            if let route = registry.routes[key], route.generation == Generation.current, route.forward == nil,
                route.requested == key, !route.autoWires, let owner = route.owner, let slot = route.slot
            {
                routed = (owner, slot)
            }
            return nil
        }
        if let routed {
            let decision = routed.owner.registry.withLock { _ in directDecision(for: routed.slot) }
            return try routed.owner.resolve(directly: decision, key, arguments: arguments, into: result)
        }
        return try resolve(directly: decision, key, arguments: arguments, into: result)
    }

    /// What the direct path can do with a slot; decided under its owner's lock.
    private enum DirectDecision {
        case copy(InstanceBox)
        case create(Slot, type: ObjectIdentifier)
    }

    private func directDecision(for slot: Slot) -> DirectDecision? {
        if let instance = slot.instance { return .copy(instance) }
        let scope = slot.blueprint.scope
        guard scope == .unique || (scope == .shared && ResolutionGraph.current.depth == 0),
            slot.recipe.hooks.isEmpty, let info = slot.typeInfo, !info.isResolvable, !info.hasInjectedProperties
        else { return nil }
        return .create(slot, type: info.type)
    }

    private func resolve(
        directly decision: DirectDecision?, _ key: DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        switch decision {
        case nil:
            return false
        case .copy(let published):
            published.ops.copy(published.pointer, result)
            return true
        case .create(let slot, let type):
            _ = try inGraph(into: result) { graph in
                try withUnsafePointer(to: key) { key in
                    try graph.runFactory(of: slot, requested: key) {
                        try slot.blueprint.factory(arguments, result)
                        if slot.blueprint.ops.dynamicType(result) != type {
                            // Another dynamic type than last time: learn what it needs, and queue its hooks if any.
                            _ = try slot.store(
                                nil, typed: result, recipe: slot.recipe, claim: nil, typeInfo: nil, forward: nil,
                                owner: self, graph: graph)
                        } else if slot.blueprint.scope == .shared, graph.hasQueuedHooks {
                            // Hooks of instances its factory made may resolve it again in this graph.
                            graph.storeShared(slot.blueprint.ops.box(result), of: slot)
                        }
                    }
                }
                return .typed(slot.blueprint.ops)
            }
            return true
        }
    }

    /// How an instance was handed over.
    enum Delivery {
        /// Copied into the caller's storage, a value the `TypeOps` describe.
        case typed(TypeOps)
        /// Returned as `Any`.
        case value(Any)
    }

    /// Runs `body` inside the calling thread's resolution graph; the outermost call finishes the graph (hooks,
    /// `didResolveDependencies`, publishing singletons) or, on error, rolls it back. If finishing fails after
    /// the instance was copied into `result`, it is destroyed again.
    func inGraph(
        into result: UnsafeMutableRawPointer? = nil, _ body: (ResolutionGraph) throws -> Delivery
    ) throws -> Delivery {
        let graph = ResolutionGraph.current
        guard graph.depth == 0 else {
            graph.depth += 1
            defer { graph.depth -= 1 }
            return try body(graph)
        }
        graph.depth = 1
        defer {
            graph.depth = 0
            graph.releaseLeftovers()
        }
        do {
            let delivery = try body(graph)
            do {
                try graph.finish()
            } catch {
                if case .typed(let ops) = delivery, let result { ops.destroy(result) }
                throw error
            }
            return delivery
        } catch {
            graph.abort()
            log(.errors, "Plexus: \(error)")
            throw error
        }
    }

    /// A definition found for a request, and what its slot said under the lock.
    private struct Located {
        let found: Registry.Found
        /// The key to resolve: the requested one, or the wrapped type's for an `Optional` request.
        let requested: DefinitionKey
        let acquisition: Acquisition
        /// Whether the factory's arguments are to be auto-wired.
        let autoWires: Bool
    }

    /// One lookup across containers.
    struct Search {
        let key: DefinitionKey
        /// The containers searched so far, so that link cycles end.
        var visited: [ObjectIdentifier] = []
        /// Where a collaborator found the key, for the first container to remember.
        var route: Route?

        init(_ key: DefinitionKey) {
            self.key = key
        }

        /// For a `T?` or `T!` request, the key of `T`, which answers it; worked out at the first miss only.
        lazy var unwrapped: DefinitionKey? = (key.type as? any OptionalType.Type).map { key.with(type: $0.wrappedType) }
    }

    /// Finds the key in this container (exact, untagged, forwarding, the wrapped type of an `Optional`,
    /// auto-wiring) with one lock, then in the collaborators depth-first, and produces the instance; `nil` when no
    /// container has it. Errors from factories and hooks propagate.
    private func find(
        _ search: inout Search, arguments: ArgumentSource, into result: UnsafeMutableRawPointer?,
        graph: ResolutionGraph
    ) throws -> Delivery? {
        let isFirst = search.visited.isEmpty
        var collaborators: [WeakContainer] = []
        var remembered: Route?
        let located = try registry.withLock { registry -> Located? in
            func located(_ found: Registry.Found, _ requested: DefinitionKey, autoWires: Bool) -> Located {
                Located(
                    found: found, requested: requested, acquisition: found.slot.acquire(requested, graph: graph),
                    autoWires: autoWires)
            }
            if let found = registry.find(search.key) { return located(found, search.key, autoWires: false) }
            // A route is only remembered when nothing here answered the key, and stays valid while nothing changed.
            if isFirst, let route = registry.routes[search.key], route.generation == Generation.current {
                remembered = route
                collaborators = registry.collaborators
                return nil
            }
            if let unwrapped = search.unwrapped, let found = registry.find(unwrapped) {
                return located(found, unwrapped, autoWires: false)
            }
            if search.key.typeOfArguments == Void.self {
                if let found = try registry.autoWiringCandidate(for: search.key) {
                    return located(found, search.key, autoWires: true)
                }
                if let unwrapped = search.unwrapped, let found = try registry.autoWiringCandidate(for: unwrapped) {
                    return located(found, unwrapped, autoWires: true)
                }
            }
            collaborators = registry.collaborators
            return nil
        }
        if let located {
            if !isFirst {
                search.route = Route(
                    generation: 0, owner: self, slot: located.found.slot, forward: located.found.forward,
                    requested: located.requested, autoWires: located.autoWires)
            }
            return try produce(located, for: search.key, arguments: arguments, into: result, graph: graph)
        }
        if let remembered, let delivery = try follow(remembered, for: search.key, arguments, into: result, graph) {
            return delivery
        }

        let generation = isFirst ? Generation.current : 0
        if isFirst { search.visited.reserveCapacity(8) }
        search.visited.append(ObjectIdentifier(self))
        for case let collaborator? in collaborators.lazy.map(\.container)
        where !search.visited.contains(ObjectIdentifier(collaborator)) {
            if let delivery = try collaborator.find(&search, arguments: arguments, into: result, graph: graph) {
                if isFirst, let route = search.route {
                    // Remember where it was found, valid while nothing that could change the answer changes.
                    var route = route
                    route = Route(
                        generation: generation, owner: route.owner, slot: route.slot, forward: route.forward,
                        requested: route.requested, autoWires: route.autoWires)
                    registry.withLock { $0.routes[search.key] = route }
                }
                return delivery
            }
        }
        return nil
    }

    /// Produces a located instance. Only an instance of the requested type itself is copied into the caller's
    /// storage: a `T?` request answered by `T`'s definition gets it as `Any`, to be wrapped.
    private func produce(
        _ located: Located, for key: DefinitionKey, arguments: ArgumentSource, into result: UnsafeMutableRawPointer?,
        graph: ResolutionGraph
    ) throws -> Delivery {
        let arguments = located.autoWires ? .autoWire : arguments
        guard located.requested != key else {
            return try produce(
                located.found, located.acquisition, arguments: arguments, requested: located.requested, into: result,
                graph: graph)
        }
        // A `T?` request answered by `T`'s definition: the `T` is built in the caller's storage for a `T?`, which is
        // large enough, and wrapped there.
        let delivery = try produce(
            located.found, located.acquisition, arguments: arguments, requested: located.requested,
            into: located.found.forward == nil ? result : nil, graph: graph)
        if case .typed(let ops) = delivery, let result { ops.wrapInOptional(result) }
        return delivery
    }

    /// Resolves `key` where a remembered route says it was found; `nil` if the route's owner or slot is gone.
    private func follow(
        _ route: Route, for key: DefinitionKey, _ arguments: ArgumentSource, into result: UnsafeMutableRawPointer?,
        _ graph: ResolutionGraph
    ) throws -> Delivery? {
        guard let owner = route.owner, let slot = route.slot else { return nil }
        let found = Registry.Found(slot: slot, forward: route.forward)
        let located = Located(
            found: found, requested: route.requested,
            acquisition: owner.registry.withLock { _ in slot.acquire(route.requested, graph: graph) },
            autoWires: route.autoWires)
        return try owner.produce(located, for: key, arguments: arguments, into: result, graph: graph)
    }

    private func produce(
        _ found: Registry.Found,
        _ acquisition: Acquisition,
        arguments: ArgumentSource,
        requested: DefinitionKey,
        into result: UnsafeMutableRawPointer?,
        graph: ResolutionGraph
    ) throws -> Delivery {
        guard
            let instance = try found.slot.produce(
                acquisition, arguments: arguments, key: requested, forward: found.forward, into: result, owner: self,
                graph: graph)
        else {
            return .typed(found.slot.blueprint.ops)
        }
        if let forward = found.forward, !forward.accepts(instance) {
            throw ResolutionError.invalidType(resolved: type(of: instance), key: requested)
        }
        return .value(instance)
    }

    /// Produces an instance of a slot of this container for `bootstrap` and `validate`.
    func produce(_ slot: Slot, key: DefinitionKey, arguments: ArgumentSource) throws {
        _ = try inGraph { graph in
            let acquisition = registry.withLock { _ in slot.acquire(key, graph: graph) }
            return try produce(
                Registry.Found(slot: slot, forward: nil), acquisition, arguments: arguments, requested: key,
                into: nil, graph: graph)
        }
    }

    /// `key` with hints about what the searched containers do have for its type.
    private func diagnose(_ key: DefinitionKey) -> DefinitionKey {
        // A lookup that finds nothing has searched every reachable container.
        let containers = reachable()
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

extension DependencyContainer {
    /// This container and every collaborator reachable from it, depth-first in order.
    func reachable() -> [DependencyContainer] {
        var found: [DependencyContainer] = []
        var stack = [self]
        while let container = stack.popLast() {
            guard !found.contains(where: { $0 === container }) else { continue }
            found.append(container)
            let collaborators = container.registry.withLock { $0.collaborators.compactMap(\.container) }
            stack.append(contentsOf: collaborators.reversed())
        }
        return found
    }
}

/// Lets the container see through `Optional` to the wrapped type.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
