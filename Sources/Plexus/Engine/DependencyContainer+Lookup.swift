internal import PlexusCore

extension DependencyContainer {
    /// A definition found for a request, and what its slot said under the lock.
    fileprivate struct Located {
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
        /// Where a collaborator found the key, for the first container to remember. Boxed: a route is large, and
        /// the search sits in the stack frame of every nested resolve on the general path, while a route is only
        /// found once per key (then remembered).
        var route: RouteBox?
        /// The first container's epoch when the search began: what the search remembers is valid at that generation,
        /// so a change made during the search invalidates it.
        var generation = 0
        /// Typed accessors: only a definition under exactly `key` answers (no untagged fallback, `Optional`
        /// unwrapping, auto-wiring or remembered route, which may have been found by a fallback), and, once the
        /// collaborators have none, the first container's declared default.
        var isAccessor = false
        /// Typed accessors (beside `isAccessor`, in its padding): the first attempt met a forwarding under exactly
        /// the key before the key's declared default was registered, and stopped so that the next attempt, with the
        /// default, registers it (see `lookUp`); `isRetry` marks that attempt, which answers with the forwarding,
        /// default or not.
        var wantsDeclaredDefault = false
        var isRetry = false
        /// Typed accessors: the declared default to register in the first container when it has none, in the same
        /// lock section that takes it (a `reset()` on another thread cannot fall between the two); `nil` for the
        /// first attempt and for keyed lookups, which have none.
        var declaredDefault: DeclaredDefault?
        /// Typed accessors: the accessor's entry in the first container, given the answer when the declared default
        /// answers alone (`lookUpAccessorDefault`); `nil` when the caller has none at hand.
        var accessorEntry: AccessorKeys.Entry?

        init(_ key: DefinitionKey) {
            self.key = key
        }

        /// For a `T?` or `T!` request, the key of `T`, which answers it. Worked out where needed (after a miss) rather
        /// than stored, which keeps the search small on the stack of nested resolves.
        var unwrapped: DefinitionKey? { (key.type as? any OptionalType.Type).map { key.with(type: $0.wrappedType) } }
    }

    /// A `Route` on the heap (`Search.route`).
    final class RouteBox {
        let route: Route
        init(_ route: Route) { self.route = route }
    }

    /// What one container's lock-held lookup found.
    private enum LookupOutcome {
        case located(Located)
        /// Nothing here; a route remembered for the key (the object the table keeps: a reference, not a copy of the
        /// route, in the stack frame of nested resolves), and the collaborators to search if it fails (`nil`: read
        /// them then).
        case remembered(RememberedRoute, [WeakContainer]?)
        /// Nothing here: the collaborators to search.
        case elsewhere([WeakContainer])
        /// A `T?` request for the key of a typed accessor whose declared default is registered here (the key given,
        /// of `T`): answered as the accessor answers, then wrapped.
        case accessorBehindOptional(DefinitionKey)
    }

    /// Finds the key in this container (exact, untagged, forwarding, the wrapped type of an `Optional`,
    /// auto-wiring) with one lock, then in the collaborators depth-first, and produces the instance; `nil` when no
    /// container has it. Errors from factories and hooks propagate.
    ///
    /// This function is on the recursive path of every nested resolve (a factory that resolves runs inside it), so
    /// the lookup itself lives in `lookUp`, out of line: its locals are gone before the factory runs.
    @inline(never)
    func find(
        _ search: inout Search, arguments: ArgumentSource, into result: InstanceStorage?,
        graph: ResolutionGraph
    ) throws -> Delivery? {
        let isFirst = search.visited.isEmpty
        // Read before looking, here or in the collaborators, so that a change made meanwhile (a definition here, a
        // collaborator added) invalidates what the search remembers.
        if isFirst { search.generation = generation.current }
        let collaborators: [WeakContainer]
        switch try lookUp(&search, isFirst: isFirst, graph: graph) {
        case .located(let located):
            return try produce(located, for: search.key, arguments: arguments, into: result, graph: graph)
        case .remembered(let route, let others):
            if let delivery = try follow(route, for: search.key, arguments, into: result, graph) { return delivery }
            collaborators = others ?? registry.withLockKeepingReaders { $0.pointee.collaborators }
        case .elsewhere(let others):
            collaborators = others
        case .accessorBehindOptional(let key):
            return try findAccessor(key, arguments: arguments, graph: graph)
        }
        return try findInCollaborators(collaborators, &search, isFirst: isFirst, arguments, into: result, graph)
    }

    /// The lookup in this container, under its lock. Sets `search.route` when a collaborator (not the first
    /// container) answers.
    @inline(never)
    private func lookUp(_ search: inout Search, isFirst: Bool, graph: ResolutionGraph) throws -> LookupOutcome {
        var collaborators: [WeakContainer] = []
        var remembered: RememberedRoute?
        var isAccessor = false
        var accessorBehindOptional: DefinitionKey?
        var inheritsTag = false
        let read = lookUpWithoutStoppingReaders(
            search, isFirst: isFirst, graph: graph, route: &remembered, inheritsTag: &inheritsTag)
        if read == nil, let remembered { return .remembered(remembered, nil) }
        let located =
            try read ?? (isFirst ? accessorDefaultWithoutStoppingReaders(search, graph: graph) : nil)
            ?? registry.withLock { registry -> Located? in
                func located(_ found: Registry.Found, _ requested: DefinitionKey, autoWires: Bool) -> Located {
                    Located(claiming: found, for: requested, autoWires: autoWires, graph: graph)
                }
                // A `resolve(tag:)` of a typed accessor's key whose default is registered here looks it up as the
                // accessor does. Containers without accessor defaults pay an empty-table test.
                isAccessor = search.isAccessor || isFirst && registry.isAccessorKey(search.key)
                if isAccessor {
                    if !isDefaultsOnly, let found = registry.findExact(search.key) {
                        // A forwarding under an accessor's key answers the accessor, while `resolve(tag:)` of the key
                        // tries the untagged definition first until the key is known as an accessor's, by its registered
                        // default: so a first use answered by a forwarding registers the default too.
                        if isFirst, search.isAccessor, found.forward != nil, !registry.isAccessorKey(search.key) {
                            if let declared = search.declaredDefault {
                                registry.registerAccessorDefault(
                                    search.key, blueprint: declared.blueprint, hooks: declared.hooks)
                            } else if !search.isRetry {
                                search.wantsDeclaredDefault = true
                                return nil
                            }
                        }
                        return located(found, search.key, autoWires: false)
                    }
                    collaborators = isDefaultsOnly ? [] : registry.collaborators
                    return nil
                }
                // In strict mode, a tag passed down from the instance being made still falls back (`Registry.find`).
                inheritsTag =
                    !registry.fallsBackToUntagged && search.key.storedTag != .none
                    && graph.innermostDependentKey?.tag == search.key.tag
                if let found = registry.find(search.key, inheritsTag: inheritsTag) {
                    return located(found, search.key, autoWires: false)
                }
                // A route is only remembered when nothing here answered the key, and stays valid while nothing changed;
                // a local one (`T?` to this container's `T`) is for the fast path, which took it if it was still valid.
                if isFirst, let route = registry.routes[search.key], route.generation == generation.current,
                    !route.isLocal
                {
                    remembered = route
                    collaborators = registry.collaborators
                    return nil
                }
                // The next `T?` request, and the next that this container auto-wires, take the fast path (a local route).
                let unwrapped = search.unwrapped
                // A `T?` of a typed accessor's key gets what `T` gets: the accessor's answer, not an untagged fallback.
                if isFirst, let unwrapped, registry.isAccessorKey(unwrapped) {
                    accessorBehindOptional = unwrapped
                    return nil
                }
                if let unwrapped, let found = registry.find(unwrapped, inheritsTag: inheritsTag) {
                    // A fallback allowed only for an inherited tag is not remembered: a caller's own request must look again.
                    if isFirst, !(inheritsTag && found.fellBackToUntagged) {
                        registry.remember(local: found, search.key, unwrapped)
                    }
                    return located(found, unwrapped, autoWires: false)
                }
                if search.key.typeOfArguments == Void.self {
                    if let found = try registry.autoWiringCandidate(for: search.key, inheritsTag: inheritsTag) {
                        if isFirst, !(inheritsTag && found.fellBackToUntagged) {
                            registry.remember(local: found, search.key, search.key, autoWires: true)
                        }
                        return located(found, search.key, autoWires: true)
                    }
                    if let unwrapped,
                        let found = try registry.autoWiringCandidate(for: unwrapped, inheritsTag: inheritsTag)
                    {
                        return located(found, unwrapped, autoWires: true)
                    }
                }
                collaborators = registry.collaborators
                return nil
            }
        search.isAccessor = isAccessor
        if let located {
            if located.found.fellBackToUntagged { logFallback(from: search.key, to: located.requested.untagged, graph) }
            // A fallback allowed only for an inherited tag is not remembered by the first container either: the
            // caller's own request for the key must look again (and fail here).
            if !isFirst, !(inheritsTag && located.found.fellBackToUntagged) {
                search.route = RouteBox(
                    Route(
                        owner: self, slot: Borrowed(located.found.slot), forward: located.found.forward,
                        requested: located.requested, autoWires: located.autoWires))
            }
            return .located(located)
        }
        if let accessorBehindOptional { return .accessorBehindOptional(accessorBehindOptional) }
        if let remembered { return .remembered(remembered, collaborators) }
        return .elsewhere(collaborators)
    }

    /// What `lookUp` finds without writing, read under the lock without turning the fast path's reader bias off
    /// (claiming a singleton changes nothing those readers read, as in `lockedStep`): the definition under exactly the
    /// search's key, which every other step finds first for that key (an accessor's key too), claimed for this
    /// resolve; for a key that is no typed accessor's, the untagged definition a tagged request falls back to and a
    /// forwarding registration (`Registry.find`, which `lookUp` would try next, with the same `inheritsTag`, set
    /// here); else, in the first container, the route remembered for the key while it is current (in `route`):
    /// nothing here answers the key then, since a route is remembered only when nothing did and anything registered
    /// since advanced the generation. `nil` with no route for anything else, and for an accessor's search, in a
    /// companion of declared defaults, and for a route when the key's tag is passed down from the instance being made
    /// (in strict mode it may find an untagged definition here that the request that found the route did not): the
    /// other steps may write (a route to remember, an auto-wiring candidate, an accessor's default), so `lookUp` takes
    /// the lock for writing for them.
    private func lookUpWithoutStoppingReaders(
        _ search: Search, isFirst: Bool, graph: ResolutionGraph, route: inout RememberedRoute?,
        inheritsTag: inout Bool
    ) -> Located? {
        guard !search.isAccessor, !isDefaultsOnly else { return nil }
        let passedDown = search.key.storedTag != .none && graph.innermostDependentKey?.tag == search.key.tag
        let routes = isFirst && !passedDown
        return registry.withLockKeepingReaders { registry -> Located? in
            // Through pointers: a copy of the registry would retain every table it holds.
            guard let slots = registry.pointer(to: \.slots) else { return nil }
            if let found = KeyTable.withBorrowedValue(
                in: slots, for: search.key,
                { slot in
                    Located(claiming: Registry.Found(slot: slot, forward: nil), for: search.key, graph: graph)
                })
            {
                return found
            }
            // The steps of `lookUp` for a key no accessor declares (an accessor's key is answered after this section, by
            // `accessorDefaultWithoutStoppingReaders`), in its order: nothing above answered, so `find` answers with a
            // fallback or a forwarding or not at all.
            if !isFirst || !Registry.isAccessorKey(search.key, in: registry) {
                inheritsTag = !registry.pointee.fallsBackToUntagged && passedDown
                if let found = Registry.find(search.key, inheritsTag: inheritsTag, in: registry) {
                    return Located(claiming: found, for: search.key, graph: graph)
                }
            }
            guard routes, let table = registry.pointer(to: \.routes) else { return nil }
            route =
                KeyTable.withBorrowedValue(in: table, for: search.key) { remembered -> RememberedRoute? in
                    remembered.generation == generation.current && !remembered.isLocal ? remembered : nil
                } ?? nil
            return nil
        }
    }

    /// A request of a typed accessor's key (a `resolve(tag:)` of it, not through the accessor), answered as the
    /// accessor is, without stopping readers: by its declared default when nothing is registered under exactly the key
    /// here and no collaborator could hold an override (`Registry.declaredDefaultAnsweringAlone`); `nil` otherwise,
    /// and for any other key. Apart from `lookUpWithoutStoppingReaders`, which every general-path resolve runs: this
    /// runs only when that found nothing.
    @inline(never)
    private func accessorDefaultWithoutStoppingReaders(_ search: Search, graph: ResolutionGraph) -> Located? {
        guard !search.isAccessor, !isDefaultsOnly else { return nil }
        return registry.withLockKeepingReaders { registry -> Located? in
            guard Registry.isAccessorKey(search.key, in: registry),
                let found = Registry.declaredDefaultAnsweringAlone(search.key, at: generation.current, in: registry)
            else { return nil }
            return Located(claiming: found, for: search.key, graph: graph)
        }
    }

    /// Answers `key`, a typed accessor's, as the accessor does, for a `T?` request of it: delivered as a value, which
    /// the caller wraps, since the caller's storage is for the `T?`. Not remembered as a route: the direct path
    /// would answer the `T?` without the accessor's rules.
    @inline(never)
    private func findAccessor(_ key: DefinitionKey, arguments: ArgumentSource, graph: ResolutionGraph) throws
        -> Delivery?
    {
        var search = Search(key)
        search.isAccessor = true
        return try find(&search, arguments: arguments, into: nil, graph: graph)
    }

    /// Logs a tagged request answered by the untagged definition: a mistyped tag would otherwise go unnoticed. A tag
    /// the instance being made was resolved with too is passed down (auto-wiring, auto-injection), not typed here:
    /// its dependencies are expected to fall back, and only the request that introduced the tag is logged.
    @inline(never)
    private func logFallback(from key: DefinitionKey, to untagged: DefinitionKey, _ graph: ResolutionGraph) {
        if let dependent = graph.innermostDependentKey, dependent.tag == key.tag { return }
        log(
            .errors,
            "Plexus: no definition for \(key) in \(name); using the untagged \(untagged). Register \(untagged) for "
                + "that tag, or resolve it without a tag, to silence this; set `fallsBackToUntaggedDefinitions = false` "
                + "on the container to make it an error.")
    }

    /// Remembers where a collaborator answered `key`, valid while nothing that could change the answer changes.
    @inline(never)
    private func remember(_ route: Route, for key: DefinitionKey, generation: Int) {
        var route = route
        route.generation = generation
        registry.withLock { $0.remember(route, for: key) }
    }

    /// Remembers that a collaborator's definition under exactly the key of a typed accessor answered it (an override
    /// registered there), in the accessor's entry, while nothing changed since the search began at `generation`: the
    /// accessor's next call then follows it on the fast path (`lockedStep(_:_:into:)`), under the collaborator's
    /// reader bias, as a remembered route is followed. Only a definition the fast path runs at the accessor's key:
    /// not a forwarding registration, nor a definition registered under several keys there (its slot keeps the
    /// first).
    @inline(never)
    private func remember(_ route: Route, answering entry: AccessorKeys.Entry, generation: Int) {
        guard route.forward == nil, !route.autoWires, route.requested == entry.key, let owner = route.owner,
            // The slot is alive under its owner's lock while this container's generation is the search's.
            owner.registry.withLockKeepingReaders({ _ in
                Route.slot(route.slot, ifCurrentAt: generation, of: self.generation)?.key == entry.key
            })
        else { return }
        registry.withLock { _ in
            // A change since the search began may have moved the answer; an answer found since is newer.
            guard self.generation.current == generation else { return }
            entry.answer(with: route.slot, of: owner, at: generation)
        }
    }

    /// Searches the collaborators depth-first; the first container remembers where the key was found.
    @inline(never)
    private func findInCollaborators(
        _ collaborators: [WeakContainer], _ search: inout Search, isFirst: Bool, _ arguments: ArgumentSource,
        into result: InstanceStorage?, _ graph: ResolutionGraph
    ) throws -> Delivery? {
        if isFirst, search.isAccessor, let observe = EngineTestHooks.accessorSearchObserver() { observe(self) }
        if isFirst { search.visited.reserveCapacity(8) }
        search.visited.append(ObjectIdentifier(self))
        for case let collaborator? in collaborators.lazy.map(\.container)
        where !search.visited.contains(ObjectIdentifier(collaborator)) {
            if let delivery = try collaborator.find(&search, arguments: arguments, into: result, graph: graph) {
                if isFirst, let box = search.route {
                    if !search.isAccessor {
                        remember(box.route, for: search.key, generation: search.generation)
                    } else if let entry = search.accessorEntry {
                        remember(box.route, answering: entry, generation: search.generation)
                    }
                }
                return delivery
            }
        }
        if isFirst, search.isAccessor,
            let located = lookUpAccessorDefault(
                search.key, registering: search.declaredDefault, answersAloneAt: search.generation,
                entry: search.accessorEntry, graph: graph)
        {
            return try produce(located, for: search.key, arguments: arguments, into: result, graph: graph)
        }
        return nil
    }

    /// Typed accessors: the declared default registered in this container for `key`, if any; with `blueprint`,
    /// registered first if there is none (one lock section). Called once no collaborator answered the key, searched
    /// from `generation`: while nothing changed since, that is noted, so that the accessor's next call is answered by
    /// its default on the fast path (`Registry.declaredDefaultAnswersAlone`; `entry`, the accessor's entry, is given
    /// the answer, as `answer(_:in:)` would give it).
    @inline(never)
    private func lookUpAccessorDefault(
        _ key: DefinitionKey, registering declared: DeclaredDefault?, answersAloneAt generation: Int,
        entry: AccessorKeys.Entry?, graph: ResolutionGraph
    ) -> Located? {
        registry.withLock { registry in
            if let declared {
                registry.registerAccessorDefault(key, blueprint: declared.blueprint, hooks: declared.hooks)
            }
            guard let slot = registry.accessorDefaults[key] else { return nil }
            // Unchanged since the search began: nothing under exactly the key here or in the collaborators.
            if self.generation.current == generation, !registry.collaborators.isEmpty {
                registry.noteDeclaredDefaultAnswersAlone(key, at: generation)
                if let entry, entry.key == key {
                    entry.answer(with: Borrowed(slot), at: generation, hasKey: slot.key == entry.key)
                }
            }
            return Located(claiming: Registry.Found(slot: slot, forward: nil), for: key, graph: graph)
        }
    }

    /// Produces a located instance, into the caller's storage when it has the requested type; a `T?` request
    /// answered by `T`'s definition is built there as a `T` and wrapped in place.
    @inline(never)
    private func produce(
        _ located: Located, for key: DefinitionKey, arguments: ArgumentSource, into result: InstanceStorage?,
        graph: ResolutionGraph
    ) throws -> Delivery {
        let arguments = located.autoWires ? .autoWire : arguments
        guard located.requested != key else {
            return try produce(
                located.found, located.acquisition, arguments: arguments, requested: located.requested, into: result,
                graph: graph)
        }
        // A `T?` answered by `T`'s definition: the `T` is built in the caller's storage (large enough), then wrapped.
        let delivery = try produce(
            located.found, located.acquisition, arguments: arguments, requested: located.requested,
            into: located.found.forward == nil ? result : nil, graph: graph)
        if case .typed(let ops) = delivery, let result { ops.wrapInOptional(result) }
        return delivery
    }

    /// Resolves `key` where a remembered route says it was found; `nil` if the route's owner or slot is gone.
    @inline(never)
    private func follow(
        _ route: RememberedRoute, for key: DefinitionKey, _ arguments: ArgumentSource,
        into result: InstanceStorage?, _ graph: ResolutionGraph
    ) throws -> Delivery? {
        guard let owner = route.owner,
            let (slot, acquisition) = owner.registry.withLockKeepingReaders({ _ -> (Slot, Acquisition)? in
                guard let slot = Route.slot(route.slot, ifCurrentAt: route.generation, of: generation) else {
                    return nil
                }
                return (slot, slot.acquire(route.requested, graph: graph))
            })
        else { return nil }
        let located = Located(
            found: Registry.Found(slot: slot, forward: route.forward), requested: route.requested,
            acquisition: acquisition, autoWires: route.autoWires)
        return try owner.produce(located, for: key, arguments: arguments, into: result, graph: graph)
    }

    func produce(
        _ found: Registry.Found, _ acquisition: Acquisition, arguments: ArgumentSource, requested: DefinitionKey,
        into result: InstanceStorage?, graph: ResolutionGraph
    ) throws -> Delivery {
        let request = SlotRequest(
            key: requested, forward: found.forward, arguments: arguments, owner: self, graph: graph)
        // Graph report (only `validate` sets a recorder) and the top of a segment of an async resolve: other resolves
        // pay these two tests.
        if graph.state.recorder != nil || graph.isHandingOver {
            return try produceInRareScope(found.slot, acquisition, request, into: result)
        }
        return try produceInstance(found.slot, acquisition, request, into: result)
    }

    /// `produce` while `validate` records, where the recorder notes the edge and may change how the instance is got
    /// (`GraphRecorder.record`), or at the top of a segment of an async resolve, where a definition that needs `await`
    /// is handed over to that resolve (`Slot.produceHandingOver`). Out of line, so that other resolves keep `produce`
    /// small enough to inline.
    @inline(never)
    private func produceInRareScope(
        _ slot: Slot, _ acquisition: Acquisition, _ request: SlotRequest, into result: InstanceStorage?
    ) throws -> Delivery {
        var acquisition = acquisition
        if let recorder = request.graph.state.recorder {
            acquisition = recorder.record(
                slot, owner: self, requested: request.key, acquisition, request.arguments, graph: request.graph)
        }
        guard request.graph.isHandingOver else { return try produceInstance(slot, acquisition, request, into: result) }
        let delivery = try slot.produceHandingOver(acquisition, request, into: result)
        if let forward = request.forward, case .value(let instance) = delivery, !forward.accepts(instance) {
            throw ResolutionError.invalidType(resolved: type(of: instance), key: request.key)
        }
        return delivery
    }

    /// Produces the instance of `slot` as `acquisition` says: built in `result` (`.typed`), or as a value.
    @inline(__always)
    private func produceInstance(
        _ slot: Slot, _ acquisition: Acquisition, _ request: SlotRequest, into result: InstanceStorage?
    ) throws -> Delivery {
        guard let instance = try slot.produce(acquisition, request, into: result) else {
            return .typed(slot.blueprint.ops)
        }
        if let forward = request.forward, !forward.accepts(instance) {
            throw ResolutionError.invalidType(resolved: type(of: instance), key: request.key)
        }
        return .value(instance)
    }

    /// Produces an instance of a slot of this container for `bootstrap` and `validate`, through `forward` if given
    /// (which checks the instance's type). `logsFailure: false` leaves logging an error to the caller.
    func produce(
        _ slot: Slot, key: DefinitionKey, arguments: ArgumentSource, forward: Forward? = nil, logsFailure: Bool = true
    ) throws {
        _ = try inGraph(logsFailure: logsFailure) { graph in
            try produce(slot, key: key, arguments: arguments, forward: forward, graph: graph)
        }
    }

    /// `produce(_:key:arguments:forward:logsFailure:)` as a segment of an async resolve (`bootstrap`, `validate`):
    /// the hand-over, if the slot's definition needs `await`.
    func produceSegment(
        _ slot: Slot, key: DefinitionKey, arguments: ArgumentSource, forward: Forward? = nil, logsFailure: Bool = true
    ) throws -> AsyncHandOver? {
        let delivery = try inGraphHandingOver(logsFailure: logsFailure) { graph in
            try produce(slot, key: key, arguments: arguments, forward: forward, graph: graph)
        }
        guard case .handOver(let handOver) = delivery else { return nil }
        return handOver
    }

    private func produce(
        _ slot: Slot, key: DefinitionKey, arguments: ArgumentSource, forward: Forward?, graph: ResolutionGraph
    ) throws -> Delivery {
        let acquisition = registry.withLockKeepingReaders { _ in slot.acquire(key, graph: graph) }
        return try produce(
            Registry.Found(slot: slot, forward: forward), acquisition, arguments: arguments, requested: key,
            into: nil, graph: graph)
    }
}

extension DependencyContainer.Located {
    /// What `found`'s slot gives `requested` in `graph`, claimed now. Call under the lock of the slot's owner.
    init(
        claiming found: Registry.Found, for requested: DefinitionKey, autoWires: Bool = false,
        graph: ResolutionGraph
    ) {
        self.found = found
        self.requested = requested
        acquisition = found.slot.acquire(requested, graph: graph)
        self.autoWires = autoWires
    }
}
