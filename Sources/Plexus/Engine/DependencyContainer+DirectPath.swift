internal import PlexusSystem

// The direct path of the resolve core (DependencyContainer+Resolve.swift): the most common resolves — a published
// singleton, a `.unique` or `.shared` instance of the container's own definition — without the general lookup.

extension DependencyContainer {
    /// What the direct path did, or what it is to do.
    enum DirectStep {
        /// A published singleton was copied into the caller's storage (under its owner's lock, or while no write to
        /// the owner was in progress: `Protected.withBiasedRead`).
        case copied
        /// Run the factory of `slot` in `owner` (this container when `nil`: no reference to it is taken); `type` as
        /// in `DirectDecision`. The owner is retained once, for the caller to take: a collaborator is weakly
        /// referenced, which makes each retain and release of it slow.
        case create(Slot, type: ObjectIdentifier, owner: Unmanaged<DependencyContainer>?)
        /// `create` for this container's own slot, registered under exactly the requested key: the factory's frame
        /// points at the slot's copy of the key (`Slot.keyStorage`), so the caller keeps no key on its stack.
        case createAtSlotKey(Slot, type: ObjectIdentifier)
        /// `create` at a collaborator's slot registered under exactly the requested key, without a reference to the
        /// slot: the calling thread's hazard mark `mark` keeps it (the owner's `release(dropped:)` keeps a marked slot
        /// whoever marked it), as with `createMarked`; the owner is retained once, for the caller to take.
        case createMarkedIn(Unmanaged<DependencyContainer>, Unmanaged<Slot>, type: ObjectIdentifier, mark: Int)
        /// `createAtSlotKey` without a reference to the slot: the calling thread's hazard mark `mark` for this
        /// container (`plexus_hazard_mark`) keeps it until `createMarked` clears the mark.
        case createMarked(Unmanaged<Slot>, type: ObjectIdentifier, mark: Int)
        /// `create`, for a `T?` or `T!` request answered by the definition of `T` (its slot): the instance is made
        /// as a `T` and wrapped in place.
        case createWrapped(Slot, type: ObjectIdentifier, owner: Unmanaged<DependencyContainer>?)
        /// Construct the singleton of `slot`, which this graph has just claimed (`claim`), in `owner` as `create`
        /// says; `createSingleton(directly:…)` publishes it (or rolls it back) as the general path does.
        case createSingleton(Slot, claim: Pending, owner: Unmanaged<DependencyContainer>?)
        /// `createSingleton` of this container's own slot, registered under exactly the requested key (as
        /// `createAtSlotKey`).
        case createSingletonAtSlotKey(Slot, claim: Pending)
        /// `create` for this container's own definition that answers the request by auto-wiring (a remembered local
        /// route): its arguments are resolved from this container first.
        case createAutoWired(Slot, type: ObjectIdentifier)
        /// Leave the request to the general path.
        case general
    }

    /// What the direct path can do with a slot; decided under its owner's lock.
    enum DirectDecision {
        case copy(InstanceBox)
        /// Run the factory of `slot`. `type` is the dynamic type of the instances that need nothing after the
        /// factory, or the type of no instance (`ToStore`) when the instance is to be stored as on the general path.
        case create(Slot, type: ObjectIdentifier)
    }

    /// The most common resolves, without the general machinery: a published singleton (copied into `result`, no
    /// resolution graph, no reference counting of the box or the container), a `.unique` or `.shared` definition
    /// whose instances are known to need nothing but their definition's own hooks (`directDecision(for:)`), and a
    /// singleton's first construction. Under the exact key here (read without the lock when the reader bias allows),
    /// or where a remembered route points (a collaborator's slot, or this container's `T` for a `T?`).
    @inline(__always)
    func directStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> DirectStep {
        // The container's own definition under the exact key, or where a route remembered for the key leads, read
        // without the lock while no write is in progress (`Protected.withBiasedRead`): threads resolving then write no
        // memory they share but the reference counts of what they resolve. A route to a collaborator's slot is
        // followed after, under the collaborator's own reader bias or lock.
        var routed: RoutedSlot?
        let biased = registry.withBiasedRead { registry -> DirectStep? in
            guard let slots = registry.pointer(to: \.slots) else { return nil }
            // A slot under the key that needs the lock (`nil`) goes to `lockedStep`; no slot, to the routes.
            let step = KeyTable.withBorrowedValue(in: slots, for: key) { biasedStep(for: $0, into: result, at: key) }
            if let step {
                return step
            }
            guard let routes = registry.pointer(to: \.routes) else { return nil }
            return KeyTable.withBorrowedValue(in: routes, for: key) { route -> DirectStep? in
                guard route.isLocal else {
                    routed = RoutedSlot(route)
                    return nil
                }
                return biasedStep(through: route, into: result)
            } ?? nil
        }
        if let step = biased ?? nil { return step }
        if let routed { return directStep(through: routed, key, into: result) }
        return lockedStep(for: key, into: result)
    }

    /// The direct path's decision for the untagged key of `type` without arguments (`directStep(for:into:)`).
    /// Out of line: the key is gone from the stack before a factory runs.
    @inline(never)
    func directStep(untagged type: Any.Type, into result: UnsafeMutableRawPointer) -> DirectStep {
        let key = DefinitionKey(type: type, typeOfArguments: Void.self, tag: nil)
        return directStep(for: key, into: result)
    }

    /// The direct path's decision for the key of `type`, `typeOfArguments` and `tag` (`directStep(for:into:)`).
    /// Out of line: the key is gone from the stack before a factory runs.
    @inline(never)
    func directStep(
        _ type: Any.Type, typeOfArguments: Any.Type, tag: Tag?, into result: UnsafeMutableRawPointer
    ) -> DirectStep {
        let key = DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
        return directStep(for: key, into: result)
    }

    /// `directStep(for:into:)` under the lock, reading the registry in place (readers without the lock may be reading
    /// it too); what it changes (a singleton's claim) is nothing they read.
    private func lockedStep(for key: DefinitionKey, into result: UnsafeMutableRawPointer) -> DirectStep {
        var routed: RoutedSlot?
        let step = registry.withLockKeepingReaders { registry -> DirectStep in
            guard let slots = registry.pointer(to: \.slots), let routes = registry.pointer(to: \.routes) else {
                return .general
            }
            if let step = KeyTable.withBorrowedValue(
                in: slots, for: key, { directStep(for: $0, key, into: result, owner: nil, wraps: false, at: true) })
            {
                return step
            }
            // The route's fields are read in place; its slot is only touched under its owner's lock (below, or here
            // for a local route: this lock).
            var local: DirectStep?
            routed =
                KeyTable.withBorrowedValue(in: routes, for: key) { route in
                    guard route.generation == Generation.current, route.forward == nil else { return nil }
                    if route.isLocal {
                        // Current under this lock: this container still holds the slot (see `Route`).
                        local = Route.slot(route.slot, ifCurrentAt: route.generation).map {
                            route.autoWires
                                ? autoWiredStep(for: $0, into: result) ?? .general
                                : directStep(for: $0, key, into: result, owner: nil, wraps: route.wrapsInOptional)
                        }
                        return nil
                    }
                    return RoutedSlot(route)
                } ?? nil
            return local ?? .general
        }
        guard let routed else { return step }
        return directStep(through: routed, key, into: result)
    }

    /// `directStep(for:into:)` for one slot; `wraps` for a `T?` request answered by the slot of `T`. Call under the
    /// lock of the slot's owner. With `atKey`, `slot` is this container's own, found under `key`: the step says so
    /// (`.createAtSlotKey`) when the slot was registered under exactly that key.
    func directStep(
        for slot: Slot, _ key: DefinitionKey, into result: UnsafeMutableRawPointer,
        owner: Unmanaged<DependencyContainer>?, wraps: Bool, at atKey: Bool = false
    ) -> DirectStep {
        // Copying a value runs no user code (a retain at most), so it may happen under the lock.
        if slot.copyPublished(into: result) {
            if wraps { slot.blueprint.ops.wrapInOptional(result) }
            return .copied
        }
        guard case .create(let slot, let type)? = directDecision(for: slot) else {
            if wraps { return .general }
            if atKey, slot.keyStorage.pointee == key {
                let step = singletonStep(for: slot, requested: key, owner: nil)
                guard case .createSingleton(let slot, let claim, _) = step else { return .general }
                return .createSingletonAtSlotKey(slot, claim: claim)
            }
            return singletonStep(for: slot, requested: key, owner: owner)
        }
        if wraps { return .createWrapped(slot, type: type, owner: owner) }
        if atKey, slot.keyStorage.pointee == key { return markedStep(for: slot, type: type) }
        if let owner, slot.keyStorage.pointee == key { return markedStep(for: slot, type: type, in: owner) }
        return .create(slot, type: type, owner: owner)
    }

    /// `.createMarked` for this container's own `slot`, registered under exactly the requested key: a hazard mark
    /// keeps the slot while its factory runs, instead of a reference (an atomic increment and decrement); a thread out
    /// of marks retains it (`.createAtSlotKey`). Call under this container's lock or reader bias.
    ///
    /// A collaborator's slot (`.create` with an owner) stays retained: marking it for its owner measured slower
    /// (the `collaborators-8` row of `Benchmarks/compare`).
    @inline(__always)
    func markedStep(for slot: Slot, type: ObjectIdentifier) -> DirectStep {
        let mark = plexus_hazard_mark(Unmanaged.passUnretained(slot).toOpaque())
        guard mark >= 0 else { return .createAtSlotKey(slot, type: type) }
        return .createMarked(Unmanaged.passUnretained(slot), type: type, mark: mark)
    }

    /// `markedStep(for:type:)` for a collaborator's slot registered under the requested key (`.createMarkedIn`; a
    /// thread out of marks retains it, `.create`). Call under the owner's lock or reader bias.
    @inline(__always)
    func markedStep(for slot: Slot, type: ObjectIdentifier, in owner: Unmanaged<DependencyContainer>) -> DirectStep {
        let mark = plexus_hazard_mark(Unmanaged.passUnretained(slot).toOpaque())
        guard mark >= 0 else { return .create(slot, type: type, owner: owner) }
        return .createMarkedIn(owner, Unmanaged.passUnretained(slot), type: type, mark: mark)
    }

    /// Carries out `.createWrapped`: the instance is made for the key of `T` (the key of the factory's frame, as on
    /// the general path) into `result`, then wrapped there in the `T?` that was requested. Out of line: the second
    /// key stays off the stack of the common path.
    @inline(never)
    func createWrapped(
        _ slot: Slot, type: ObjectIdentifier, requested key: DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try withUnsafePointer(to: key.with(type: slot.blueprint.type)) {
            try create(directly: slot, type: type, $0, arguments: arguments, into: result)
        }
        slot.blueprint.ops.wrapInOptional(result)
    }

    /// What the direct path can do with `slot`, or `nil` for the general path. Call under the owner's lock.
    ///
    /// A `.unique` or `.shared` definition without decorators or `@MainActor` hooks whose instances, as far as the
    /// slot knows, need no property work beyond the definition's own hooks (no `Resolvable`, no `@Injected`). Before
    /// its first instance the slot knows nothing: the direct path then learns the instance's type after the factory
    /// returned (`finishDirect`), as it does whenever the dynamic type changes.
    func directDecision(for slot: Slot) -> DirectDecision? {
        if let instance = slot.instance { return .copy(instance) }
        return directType(for: slot).map { .create(slot, type: $0) }
    }

    /// `directDecision(for:)` for a slot with no published instance, without taking a reference to the slot: the
    /// `type` of `.create`, or `nil` for the general path. Call under the owner's lock or reader bias.
    @inline(__always)
    func directType(for slot: Slot) -> ObjectIdentifier? {
        guard slot.instance == nil else { return nil }
        let scope = slot.blueprint.scope
        guard scope == .unique || scope == .shared,
            slot.hasDirectRecipe,  // decorated slots take the general path; so do `@MainActor` hooks
            slot.blueprint.isolation == .none  // async and main-actor factories are checked on the general path
        else { return nil }
        let toStore = ObjectIdentifier(ToStore.self)
        guard let info = slot.typeInfo else { return toStore }
        guard !info.isResolvable, !info.hasInjectedProperties else { return nil }
        return slot.hasPlainRecipe ? info.type : toStore
    }

    /// The dynamic type of no instance: what the direct path "expects" when the new instance is to be stored as the
    /// general path stores it (`Slot.store`): before a slot's first instance (its type is learned then), and for a
    /// definition with hooks (they are queued then).
    private enum ToStore {}

    /// Carries out a decision of `directDecision(for:)`: copies the published singleton into `result`, or makes a
    /// new instance there.
    @inline(never)
    func resolve(
        directly decision: DirectDecision, _ key: DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        switch decision {
        case .copy(let published):
            published.copy(into: result)
        case .create(let slot, let type):
            try withUnsafePointer(to: key) {
                try create(directly: slot, type: type, $0, arguments: arguments, into: result)
            }
        }
    }

    /// The direct path's new instance: the factory of `slot` runs into `result` in a light scope of the calling
    /// thread's resolution graph (a hooked definition's hooks are queued there, and run when the scope closes).
    @inline(never)
    func create(
        directly slot: Slot, type: ObjectIdentifier, _ key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try create(
                directly: slot, type: type, key, arguments: arguments, making: .plain, into: result, graph: graph)
        }
    }

    /// Carries out `.createMarkedIn`: `create(directly:…)` in the collaborator `owner`, whose reference this takes,
    /// at the slot's key; then clears the hazard mark that kept the slot meanwhile (also when the factory throws).
    @inline(never)
    func createMarked(
        in owner: Unmanaged<DependencyContainer>, _ slot: Unmanaged<Slot>, type: ObjectIdentifier, mark: Int,
        arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer
    ) throws {
        defer {
            plexus_hazard_clear(mark)
            owner.release()
        }
        try owner._withUnsafeGuaranteedRef { owner in
            try slot._withUnsafeGuaranteedRef { slot in
                try owner.create(
                    directly: slot, type: type, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
            }
        }
    }

    /// Carries out `.createMarked`: `create(directly:…)` at the slot's key, then clears the hazard mark that kept
    /// the slot meanwhile (also when the factory throws).
    @inline(__always)
    func createMarked(
        _ slot: Unmanaged<Slot>, type: ObjectIdentifier, mark: Int, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        defer { plexus_hazard_clear(mark) }
        try slot._withUnsafeGuaranteedRef { slot in
            try create(directly: slot, type: type, UnsafePointer(slot.keyStorage), arguments: arguments, into: result)
        }
    }

    /// How `create(directly:…)` gets its instance.
    enum DirectMaking {
        /// The factory, from the arguments given.
        case plain
        /// The factory, from arguments resolved in this container (`create(autoWiring:…)`).
        case autoWired
        /// The singleton claimed with the `Pending`, built in a box of its own and stored (`createSingleton`).
        case singleton(Pending)
    }

    /// The direct path's new instance in the calling thread's `graph` (borrowed), made by the factory of `slot` into
    /// `result` as `making` says: the graph's `.shared` instance if it has one, else in a light scope and the
    /// factory's frame, then finished as `finishDirect` says (a singleton is stored by `makeSingleton`, its claim
    /// abandoned if anything in the factory's frame fails). `type` as in `DirectStep.create`; `nil` for a singleton.
    ///
    /// Written out in one body, without closure-taking helpers (`inGraph`, `runFactory`): every nested direct resolve
    /// recurses through here, and an unoptimized build gives each closure a stack frame of its own. The steps are
    /// those of `inGraph`: open the scope; close it, destroying the instance if closing fails, or abandon it on an
    /// error; release the leftovers of an outermost resolve.
    @inline(__always)
    func create(
        directly slot: Slot, type: ObjectIdentifier?, _ key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        making: DirectMaking, into result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.scope == .shared, graph.depth > 0, try copyShared(of: slot, in: graph, key, into: result) {
            return
        }
        let scope = graph.openLightScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            do {
                let id = ObjectIdentifier(slot)
                try graph.enterFactory(id, requested: key)
                defer { graph.leaveFactory(id) }
                switch making {
                case .plain:
                    try slot.blueprint.make(arguments, into: result)
                case .autoWired:
                    try makeAutoWired(slot, key, into: result)
                case .singleton(let claim):
                    try makeSingleton(slot, claim: claim, arguments: arguments, into: result, graph: graph)
                }
                if let type { try finishDirect(slot, type: type, result: result, graph: graph) }
            } catch {
                if case .singleton(let claim) = making { slot.abandon(claim, owner: self) }
                throw error
            }
            do {
                try graph.closeLightScope(scope)
            } catch {
                slot.blueprint.ops.destroy(result)
                throw error
            }
        } catch {
            graph.abandonLightScope(scope)
            if graph.depth == 0 { logFailure(ofOutermost: error) }
            throw error
        }
    }

    /// Copies the graph's instance of the `.shared` definition of `slot` into `result`, if the graph has one.
    /// Out of line, so that its existential stays off the stack of nested resolves.
    @inline(never)
    func copyShared(
        of slot: Slot, in graph: ResolutionGraph, _ key: UnsafePointer<DefinitionKey>,
        into result: UnsafeMutableRawPointer
    ) throws -> Bool {
        // Stored as made, so it has the slot's type.
        let unboxed = graph.withSharedInstance(of: slot.definition) { shared in
            slot.blueprint.ops.unbox(shared, result) ? nil : Swift.type(of: shared)
        }
        guard let unboxed else { return false }
        if let resolved = unboxed { throw ResolutionError.invalidType(resolved: resolved, key: key.pointee) }
        return true
    }

    /// After a direct factory returned: an instance of another dynamic type than `type` (always so for `ToStore`)
    /// is stored as the general path stores a new instance (`Slot.store`: its type's needs learned, a hooked
    /// definition's hooks queued); otherwise a shared one is kept for the rest of the graph (for an outermost
    /// resolve only if hooks are queued, which may resolve it again).
    @inline(never)
    func finishDirect(
        _ slot: Slot, type: ObjectIdentifier, result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.ops.dynamicType(of: result) != type {
            // Read under the lock, as `acquire` does: hooks may be added and types learned meanwhile.
            let (recipe, info) = registry.withLockKeepingReaders { _ in (slot.recipe, slot.typeInfo) }
            _ = try slot.store(
                nil, typed: result, recipe: recipe, claim: nil, typeInfo: info, forward: nil, owner: self, graph: graph)
        } else if slot.blueprint.scope == .shared, graph.depth > 1 || graph.hasQueuedHooks {
            graph.storeShared(slot.blueprint.ops.box(result), of: slot.definition)
        }
    }
}
