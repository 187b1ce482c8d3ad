internal import PlexusSystem

// Deciding the fast step for a requested key: this container's slot under exactly the key, or where a route
// remembered for the key leads (a collaborator's slot, this container's `T` for a `T?`, or its definition that
// auto-wires the request). Read without the lock while the reader bias allows, else under the lock.

extension DependencyContainer {
    /// How the slot a step reads was reached, besides the requested key.
    struct SlotPlace {
        /// The slot's container, retained once for the step; `nil` for this container.
        var owner: Unmanaged<DependencyContainer>?
        /// A `T?` request answered by the slot of `T`.
        var wraps = false
        /// This container's slot whose factory takes arguments, answering a request without them by auto-wiring.
        var autoWires = false
        /// The local route that leads here, which keeps the requested key (not retained: read under the lock or
        /// the reader bias of the container that keeps it).
        var route: Unmanaged<RememberedRoute>?

        static var here: SlotPlace { SlotPlace() }
    }

    /// The fast step for `key`. Reads the container's own definition under the exact key, or where a route
    /// remembered for the key leads, without the lock while no write is in progress (`Protected.withBiasedRead`):
    /// threads resolving then write no memory they share but the reference counts of what they resolve. A route to a
    /// collaborator's slot is followed after, under the collaborator's own reader bias or lock.
    @inline(__always)
    func fastStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> FastStep {
        var routed: RoutedSlot?
        let biased = registry.withBiasedRead { registry -> FastStep? in
            guard let slots = registry.pointer(to: \.slots) else { return nil }
            // A slot under the key that needs the lock (`nil`) goes to `lockedStep`; no slot, to the routes.
            if let step = KeyTable.withBorrowedValue(
                in: slots, for: key,
                {
                    fastStep(at: $0, for: key, .here, locked: false, into: result)
                })
            {
                return step
            }
            guard let routes = registry.pointer(to: \.routes) else { return nil }
            return KeyTable.withBorrowedValue(in: routes, for: key) { route -> FastStep? in
                guard route.isLocal else {
                    routed = RoutedSlot(route, epoch: generation)
                    return nil
                }
                guard let (slot, place) = localSlot(of: route) else { return nil }
                return fastStep(at: slot, for: key, place, locked: false, into: result)
            } ?? nil
        }
        if let step = biased ?? nil { return step }
        if let routed { return fastStep(through: routed, key, into: result) }
        return lockedStep(for: key, into: result)
    }

    /// The fast step for the untagged key of `type` without arguments (`fastStep(for:into:)`). Out of line: the key
    /// is gone from the stack before a factory runs.
    @inline(never)
    func fastStep(untagged type: Any.Type, into result: UnsafeMutableRawPointer) -> FastStep {
        fastStep(for: DefinitionKey(type: type, typeOfArguments: Void.self, tag: nil), into: result)
    }

    /// The fast step for the key of `type`, `typeOfArguments` and `tag` (`fastStep(for:into:)`). Out of line: the
    /// key is gone from the stack before a factory runs.
    @inline(never)
    func fastStep(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, into result: UnsafeMutableRawPointer
    ) -> FastStep {
        fastStep(for: DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag), into: result)
    }

    /// `fastStep(for:into:)` under the lock, reading the registry in place (readers without the lock may be reading
    /// it too); what it changes (a singleton's claim) is nothing they read.
    private func lockedStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> FastStep {
        var routed: RoutedSlot?
        var unknown = false
        let step = registry.withLockKeepingReaders { registry -> FastStep in
            guard let slots = registry.pointer(to: \.slots), let routes = registry.pointer(to: \.routes) else {
                return .general
            }
            if let step = KeyTable.withBorrowedValue(
                in: slots, for: key,
                {
                    fastStep(at: $0, for: key, .here, locked: true, into: result)
                })
            {
                return step ?? .general
            }
            // The route's fields are read in place; its slot is only touched under its owner's lock (below, or here
            // for a local route: this lock).
            let step = KeyTable.withBorrowedValue(in: routes, for: key) { route -> FastStep in
                guard route.isLocal else {
                    routed = RoutedSlot(route, epoch: generation)
                    return .general
                }
                guard let (slot, place) = localSlot(of: route) else { return .general }
                return fastStep(at: slot, for: key, place, locked: true, into: result) ?? .general
            }
            unknown = step == nil
            return step ?? .general
        }
        // Neither a slot nor a route: the first request of a key this container may auto-wire.
        if unknown, key.typeOfArguments == Void.self { return autoWiringStep(for: key, into: result) }
        guard let routed else { return step }
        return fastStep(through: routed, key, into: result)
    }

    /// The fast step for a key that nothing here is registered under and no route is remembered for, when one of
    /// this container's definitions answers it by auto-wiring exactly as the general path's lookup would (no
    /// definition found first, no untagged fallback, no ambiguity, no forwarding): the route is remembered, as that
    /// lookup remembers it, and the step made from it. So a chain of auto-wired definitions resolved for the first
    /// time recurses through the fast path, as later resolves do. Anything else is `.general`, which decides it.
    @inline(never)
    private func autoWiringStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> FastStep {
        // A `T?` is answered by `T`'s definition first.
        guard !isDefaultsOnly, !(key.type is any OptionalType.Type) else { return .general }
        // Decided by reading, without turning the readers' bias off, for every later request of a key the general
        // path answers (a fallback, a forwarding, a key auto-wiring was tried for): only a first request writes.
        let decided = registry.withLockKeepingReaders { registry -> Bool in
            if Registry.find(key, inheritsTag: true, in: registry) != nil || Registry.isAccessorKey(key, in: registry) {
                return true
            }
            guard let remembered = Registry.rememberedAutoWiringCandidate(for: key, in: registry) else { return false }
            // Auto-wiring found nothing, or what the fast path does not take.
            return remembered.map { $0.forward != nil || $0.fellBackToUntagged } ?? true
        }
        if decided { return .general }
        return registry.withLock { registry -> FastStep in
            // Nothing found even with a tag passed down, which falls back in strict mode too: the general path would
            // auto-wire the same definition whether or not the tag is passed down.
            guard registry.find(key, inheritsTag: true) == nil, registry.routes[key] == nil,
                !registry.isAccessorKey(key), let found = try? registry.autoWiringCandidate(for: key),
                found.forward == nil, !found.fellBackToUntagged
            else { return .general }
            guard let route = registry.remember(local: found, key, key, autoWires: true) else { return .general }
            let place = SlotPlace(autoWires: true, route: .passUnretained(route))
            return fastStep(at: found.slot, for: key, place, locked: true, into: result) ?? .general
        }
    }

    /// The slot of this container that a local route leads to, and how (a `T?` answered by `T`, or auto-wiring), if
    /// the route is current and leads where the fast path can go. Call under the lock or the reader bias: the
    /// route's slot is current while the generation is, since a removal advances it under this registry's lock.
    private func localSlot(of route: RememberedRoute) -> (Slot, SlotPlace)? {
        guard route.generation == generation.current, route.forward == nil,
            let slot = Route.slot(route.slot, ifCurrentAt: route.generation, of: generation)
        else { return nil }
        return (
            slot,
            SlotPlace(
                owner: nil, wraps: route.wrapsInOptional, autoWires: route.autoWires, route: .passUnretained(route))
        )
    }

    /// A remembered route to a collaborator's slot, read where the route is kept: the owner is retained once (the
    /// route holds it weakly), and the slot may only be touched under the owner's lock or reader bias once
    /// `generation` has been checked there (see `Route`).
    struct RoutedSlot {
        let owner: Unmanaged<DependencyContainer>
        let slot: Unmanaged<Slot>
        let generation: Int
        let wraps: Bool

        /// The route's target, if the route is current and leads where the fast path can go (no forwarding
        /// registration, no auto-wiring) and its owner is still alive.
        init?(_ route: RememberedRoute, epoch: Epoch.Reader) {
            guard route.generation == epoch.current, route.forward == nil, !route.autoWires,
                let owner = route.retainedOwner()
            else { return nil }
            (self.owner, slot, generation, wraps) = (owner, route.slot, route.generation, route.wrapsInOptional)
        }
    }

    /// The fast step at a collaborator's slot: under the collaborator's reader bias when it allows and the step needs
    /// no lock, else under its lock. The owner's reference goes on with `.make`, and is released otherwise.
    private func fastStep(
        through routed: RoutedSlot, _ key: DefinitionKey, into result: UnsafeMutableRawPointer
    ) -> FastStep {
        let place = SlotPlace(owner: routed.owner, wraps: routed.wraps)
        let step = routed.owner._withUnsafeGuaranteedRef { owner in
            // The slot is current under the owner's bias or lock while the generation is (see `Route`).
            let biased = owner.registry.withBiasedRead { _ -> FastStep? in
                Route.slot(routed.slot, ifCurrentAt: routed.generation, of: generation).flatMap {
                    fastStep(at: $0, for: key, place, locked: false, into: result)
                }
            }
            if let step = biased ?? nil { return step }
            return owner.registry.withLockKeepingReaders { _ in
                Route.slot(routed.slot, ifCurrentAt: routed.generation, of: generation).flatMap {
                    fastStep(at: $0, for: key, place, locked: true, into: result)
                } ?? .general
            }
        }
        if case .make = step { return step }
        routed.owner.release()
        return step
    }

    /// The fast step at `slot`, reached for `key` as `place` says: copy the published singleton, or make an
    /// instance (a singleton's first construction only with `locked`, since claiming it needs the owner's lock).
    /// `nil` when the answer needs the lock and it is not held; `.general` for anything the fast path does not do.
    /// Call under the lock of the slot's owner, or its reader bias.
    func fastStep(
        at slot: Slot, for key: DefinitionKey, _ place: SlotPlace, locked: Bool, into result: UnsafeMutableRawPointer
    ) -> FastStep? {
        // Copying a value runs no user code (a retain at most), so it may happen under the lock.
        if slot.copyPublished(into: result) {
            if place.wraps { slot.blueprint.ops.wrapInOptional(result) }
            return .copied
        }
        let atSlotKey = slot.keyPointer.pointee == key
        guard let type = fastType(for: slot) else {
            guard locked else { return nil }
            guard !place.wraps, !place.autoWires, let claim = claimSingleton(slot, requested: key) else {
                return .general
            }
            return .make(
                FastMake(
                    slot: .passRetained(slot), mark: -1, making: .singleton(.passRetained(claim)), owner: place.owner,
                    key: atSlotKey ? .slot : .requested, wraps: false))
        }
        if place.autoWires {
            guard slot.blueprint.autoWire != nil else { return locked ? .general : nil }
            // The frame's key is the one the route keeps, retained for the step, rather than one built again.
            return .make(
                FastMake(
                    slot: .passRetained(slot), mark: -1, making: .autoWired(expecting: type), owner: place.owner,
                    key: place.route.map { .kept(by: $0) } ?? .requested, wraps: false))
        }
        let keyHome: FastMake.KeyHome = atSlotKey && !place.wraps ? .slot : .requested
        return .make(
            FastMake(
                slot: .passUnretained(slot), mark: mark(slot, at: keyHome), making: plainMaking(for: slot, type),
                owner: place.owner, key: keyHome, wraps: place.wraps))
    }

    /// How a step keeps `slot` alive (`FastMake.mark`): the calling thread's hazard mark for a slot whose factory runs
    /// at its own key, instead of a reference (an atomic increment and decrement); `-1` after retaining the slot once
    /// for anything else, or on a thread out of marks. Call under the owner's lock or reader bias.
    @inline(__always)
    func mark(_ slot: Slot, at keyHome: FastMake.KeyHome) -> Int {
        if case .slot = keyHome {
            let mark = plexus_hazard_mark(Unmanaged.passUnretained(slot).toOpaque())
            if mark >= 0 { return mark }
        }
        _ = Unmanaged.passRetained(slot)
        return -1
    }

    /// The type `FastMake.Making.plain` expects of a slot with no published instance, or `nil` for anything the
    /// fast path cannot make without the lock: a `.unique` or `.shared` definition without decorators or
    /// `@MainActor` hooks. An instance that needs property work (the definition's hooks, `Resolvable`, `@Injected`)
    /// is stored as the general path stores it (`ToStore`), which queues that work for the end of its scope, so a
    /// property's nested resolve finds the reader bias still on. Before its first instance the slot knows nothing:
    /// the fast path then learns the instance's type after the factory returned (`finishFast`), as it does whenever
    /// the dynamic type changes. A `@MainActor` factory qualifies only `onMainActor`: for a caller isolated to the main actor,
    /// which runs it in place as the general path would. Call under the owner's lock or reader bias.
    @inline(__always)
    func fastType(for slot: Slot, onMainActor: Bool = false) -> ObjectIdentifier? {
        guard slot.instance == nil else { return nil }
        let scope = slot.blueprint.scope
        let isolation = slot.blueprint.isolation
        guard scope == .unique || scope == .shared,
            slot.hasDirectRecipe,  // decorated slots take the general path; so do `@MainActor` hooks
            // Async factories, and main-actor ones off the main actor, are checked on the general path.
            isolation == .none || (onMainActor && isolation == .mainActor)
        else { return nil }
        let toStore = ObjectIdentifier(ToStore.self)
        guard let info = slot.typeInfo, slot.hasPlainRecipe, !info.isResolvable, !info.hasInjectedProperties else {
            return toStore
        }
        return info.type
    }

    /// How a plain factory of `slot` makes its instance, given its `fastType`: `.injecting` for a `.unique` or
    /// `.shared` definition whose instances need only their `@Injected` properties filled after it (no hooks, not `Resolvable`, and
    /// auto-injection not turned off for the definition since its type was learned with it on), else `.plain`.
    /// Call under the owner's lock or reader bias.
    @inline(__always)
    func plainMaking(for slot: Slot, _ type: ObjectIdentifier) -> FastMake.Making {
        guard type == ObjectIdentifier(ToStore.self) else { return .plain(expecting: type) }
        return injectingMaking(for: slot) ?? .plain(expecting: type)
    }

    /// `plainMaking` for a slot whose instance is to be stored: `.injecting` when that qualifies. Out of line: the
    /// common step stays small.
    @inline(never)
    private func injectingMaking(for slot: Slot) -> FastMake.Making? {
        guard slot.blueprint.scope == .unique || slot.blueprint.scope == .shared, slot.hasPlainRecipe,
            let info = slot.typeInfo,
            info.hasInjectedProperties, !info.isResolvable, slot.recipe.autoInjects != false
        else { return nil }
        return .injecting(expecting: info.type)
    }

    /// Claims the first construction of a singleton (any singleton scope) that nobody is constructing for the
    /// calling thread's graph, as `Slot.acquire` claims it on the general path; `nil` for anything else (a
    /// construction in progress, a weak singleton still alive, hooks on the main actor, decorators, an `async`
    /// factory). Call under the lock of the slot's owner.
    func claimSingleton(_ slot: Slot, requested key: DefinitionKey) -> Pending? {
        guard slot.blueprint.scope.isSingleton, slot.instance == nil, slot.weakInstance == nil, slot.pending == nil,
            slot.hasDirectRecipe, slot.blueprint.isolation == .none
        else { return nil }
        let claimed = ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { slot.acquire(key, graph: $0) }
        guard case .create(let construction) = claimed else { return nil }
        return construction.claim
    }
}

/// The dynamic type of no instance: what the fast path "expects" when the new instance is to be stored as the general
/// path stores it (`Slot.store`): before a slot's first instance (its type is learned then), and for a definition
/// with hooks (they are queued then).
private enum ToStore {}
