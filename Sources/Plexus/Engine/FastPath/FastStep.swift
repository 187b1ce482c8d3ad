internal import PlexusSystem

// The fast path: the most common resolves — a published singleton, a `.unique` or `.shared` instance, a singleton's
// first construction — decided by reading one slot (`FastStep+Keys.swift` for a requested key,
// `FastStep+Accessors.swift` for a typed accessor), then carried out here, by one dispatcher. Anything else is left
// to the general path (`DependencyContainer+Lookup.swift`, `Slot+Produce.swift`).

/// What the fast path decided for one request.
enum FastStep {
    /// A published singleton was copied into the caller's storage (under its owner's lock, or while no write to the
    /// owner was in progress: `Protected.withBiasedRead`).
    case copied
    /// Run a slot's factory into the caller's storage: see `FastMake`.
    case make(FastMake)
    /// Leave the request to the general path.
    case general
}

/// A new instance the fast path makes: which slot, how it is kept alive meanwhile, in which container, at which key,
/// and how.
///
/// Every field is a plain value (unmanaged references, identifiers, flags), so that handing a step back from the
/// decision and switching on it copies bits: with references among its fields, every copy and destruction of a step
/// goes through outlined code that switches on each payload (`Benchmarks/profile unique/plexus` shows it).
struct FastMake {
    /// How the factory is run.
    enum Making {
        /// The factory, from the arguments given. `expecting` is the dynamic type of instances that need nothing
        /// after the factory (`ToStore` when the instance is to be stored as the general path stores it).
        case plain(expecting: ObjectIdentifier)
        /// The factory, from the arguments given, of a `.unique` or `.shared` definition whose instances of
        /// `expecting` need only their `@Injected` properties filled after it: filled right after the factory's frame
        /// when its scope runs its own work (`injectNow`), else stored as the general path stores a new instance,
        /// which queues them.
        case injecting(expecting: ObjectIdentifier)
        /// The factory, from arguments resolved in the slot's container (a definition that answers a request without
        /// arguments by auto-wiring); `expecting` as for `plain`.
        case autoWired(expecting: ObjectIdentifier)
        /// The singleton this graph has just claimed with the `Pending` (retained once for the step), built in a box
        /// of its own and stored as the general path stores it.
        case singleton(Unmanaged<Pending>)
    }

    /// Where the key of the factory's frame (cycle paths, `requiredBy` chains) lives while it runs.
    enum KeyHome {
        /// The slot's own key (`Slot.keyPointer`): the slot was registered under exactly the requested key, so no
        /// key lives in the caller's frame.
        case slot
        /// The first stored property of an object retained once for the step: the typed accessor entry's copy
        /// (`AccessorKeys.Entry.keyPointer`), or the requested key as a local route keeps it
        /// (`RememberedRoute.keyPointer`: a request this container's definition answers by auto-wiring). One case
        /// for both, so that the dispatcher inlined into every resolve has no more to hold in its frame.
        case kept(Unmanaged<AnyObject>)

        /// `kept` by `keeper`, whose first stored property is the key, retained here.
        static func kept<Keeper: AnyObject>(by keeper: Unmanaged<Keeper>) -> KeyHome {
            .kept(Unmanaged.fromOpaque(keeper.retain().toOpaque()))
        }

        /// The key that `keeper` (of `kept`) holds as its first stored property.
        static func key(keptBy keeper: Unmanaged<AnyObject>) -> UnsafePointer<DefinitionKey> {
            keeper._withUnsafeGuaranteedRef {
                UnsafePointer(_getUnsafePointerToStoredProperties($0).assumingMemoryBound(to: DefinitionKey.self))
            }
        }
        /// The requested key, built again by the caller out of line (a collaborator's slot under another key, a
        /// `T?` answered by `T`).
        case requested
    }

    /// The slot whose factory runs. While it runs, the calling thread's hazard mark `mark` keeps it
    /// (`plexus_hazard_mark`: the owner's `release(_:)` keeps a marked slot until the mark is cleared, which
    /// saves the atomic increment and decrement of a reference); with a negative `mark`, a reference taken for the
    /// step does.
    // The fields are declared word-sized first: a step is copied from the decision to the dispatcher, and padding
    // after an enum's tag byte would add a word to every copy.
    let slot: Unmanaged<Slot>
    let mark: Int
    /// The container whose slot it is, retained once for the step; `nil` for the container that decided the step
    /// (no reference to it is taken). A collaborator is weakly referenced by its routes, which makes each retain and
    /// release of it slow: it is retained once, where the route is read.
    let owner: Unmanaged<DependencyContainer>?
    let key: KeyHome
    let making: Making
    /// Whether the request was `T?` (or `T!`) for the slot's `T`: the instance is made as a `T`, at `T`'s key, and
    /// wrapped in place.
    let wraps: Bool

    init(
        slot: Unmanaged<Slot>, mark: Int, making: Making, owner: Unmanaged<DependencyContainer>?, key: KeyHome,
        wraps: Bool
    ) {
        (self.slot, self.mark, self.making, self.owner, self.key, self.wraps) = (slot, mark, making, owner, key, wraps)
    }
}

extension DependencyContainer {
    /// Runs the factory of `make`'s slot into `result`, with the frame's key at `key` (the slot's own copy when
    /// `nil`), in the owner `make` names and the calling thread's graph; then ends the step's hold on the slot and
    /// the owner (also when the factory throws).
    @inline(__always)
    func perform(
        _ make: FastMake, at key: UnsafePointer<DefinitionKey>?, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        defer {
            if make.mark >= 0 { plexus_hazard_clear(make.mark) } else { make.slot.release() }
            make.owner?.release()
        }
        try make.slot._withUnsafeGuaranteedRef { slot in
            let key = key ?? slot.keyPointer
            // The container that owns the slot makes the instance: a collaborator's is retained for the step.
            guard let owner = make.owner else {
                return try createInCurrentGraph(slot, make.making, at: key, arguments: arguments, into: result)
            }
            try owner._withUnsafeGuaranteedRef {
                try $0.createInCurrentGraph(slot, make.making, at: key, arguments: arguments, into: result)
            }
        }
    }

    /// `create` in the calling thread's graph, borrowed. Out of line, with `create` written out in it (also in a
    /// debug build, which gives every function and closure on the way to the factory a stack frame of its own).
    @inline(never)
    private func createInCurrentGraph(
        _ slot: Slot, _ making: FastMake.Making, at key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try create(slot, making, at: key, arguments: arguments, into: result, graph: graph)
        }
    }

    /// Carries out `make` at the requested `key`: for a `T?` answered by `T` (`wraps`), at `T`'s key, as the
    /// general path does, and the instance made as a `T` is then wrapped in place. Out of line, with the key in its
    /// own frame.
    @inline(never)
    func perform(
        _ make: FastMake, requested key: DefinitionKey, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer
    ) throws {
        guard make.wraps else {
            return try withUnsafePointer(to: key) { try perform(make, at: $0, arguments: arguments, into: result) }
        }
        // Taken while the step holds the slot, which `perform` ends.
        let blueprint = make.slot._withUnsafeGuaranteedRef { $0.blueprint }
        try withUnsafePointer(to: key.with(type: blueprint.type)) {
            try perform(make, at: $0, arguments: arguments, into: result)
        }
        blueprint.ops.wrapInOptional(result)
    }

    /// The new instance in the calling thread's `graph` (borrowed): the graph's `.shared` instance if it has one,
    /// else made in a light scope and the factory's frame, then finished as `finishFast` says (a singleton is stored
    /// by `makeSingleton`, its claim abandoned if anything in the factory's frame fails; either ends the step's
    /// reference to the claim).
    ///
    /// Written out in one body, without closure-taking helpers (`inGraph`, `runFactory`): every nested fast resolve
    /// recurses through here, and an unoptimized build gives each closure a stack frame of its own. The steps are
    /// those of `inGraph`: open the scope; close it, destroying the instance if closing fails, or abandon it on an
    /// error; release the leftovers of an outermost resolve.
    @_transparent
    private func create(
        _ slot: Slot, _ making: FastMake.Making, at key: UnsafePointer<DefinitionKey>, arguments: UnsafeRawPointer,
        into result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.scope == .shared, graph.depth > 0, try copyShared(of: slot, in: graph, key, into: result) {
            return
        }
        let scope = graph.openLightScope()
        defer { if graph.depth == 0 { graph.releaseLeftovers() } }
        do {
            var injectsNow = false
            do {
                let id = ObjectIdentifier(slot)
                try graph.enterFactory(id, requested: key, owner: self)
                defer { graph.leaveFactory(id) }
                switch making {
                case .plain(let type):
                    try slot.blueprint.make(arguments, into: result)
                    try finishFast(slot, expecting: type, result: result, graph: graph)
                case .injecting(let type):
                    try slot.blueprint.make(arguments, into: result)
                    injectsNow = try finishInjecting(slot, expecting: type, result: result, graph: graph, scope: scope)
                case .autoWired(let type):
                    try makeAutoWired(slot, key, into: result)
                    try finishFast(slot, expecting: type, result: result, graph: graph)
                case .singleton(let claim):
                    try makeSingleton(
                        slot, claim: claim.takeUnretainedValue(), arguments: arguments, into: result, graph: graph)
                    claim.release()
                }
            } catch {
                abandonClaim(of: making, at: slot)
                throw error
            }
            do {
                if injectsNow { try injectNow(slot, at: key, into: result, graph: graph) }
                try graph.closeLightScope(scope)
            } catch {
                slot.blueprint.ops.destroy(result)
                throw error
            }
        } catch {
            abandon(scope, in: graph, after: error)
            throw error
        }
    }

    /// After the factory of a fast step failed: gives up the singleton claim `making` holds, if any, and ends the
    /// step's reference to it. Out of line, as the other failure steps of `create`: their locals stay off the stack
    /// of the factories below it.
    @inline(never)
    private func abandonClaim(of making: FastMake.Making, at slot: Slot) {
        guard case .singleton(let claim) = making else { return }
        slot.abandon(claim.takeUnretainedValue(), owner: self)
        claim.release()
    }

    /// After a fast step failed: abandons its light scope and logs the failure.
    @inline(never)
    private func abandon(_ scope: ResolutionGraph.LightScope, in graph: ResolutionGraph, after error: any Error) {
        graph.abandonLightScope(scope, after: error)
        logFailure(error, in: graph)
    }

    /// Copies the graph's instance of the `.shared` definition of `slot` into `result`, if the graph has one.
    /// Out of line, so that its existential stays off the stack of nested resolves.
    @inline(never)
    private func copyShared(
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

    /// After a fast factory returned: an instance of another dynamic type than `type` (always so for `ToStore`) is
    /// stored as the general path stores a new instance (`Slot.store`: its type's needs learned, a hooked
    /// definition's hooks queued); otherwise a shared one is kept for the rest of the graph (for an outermost resolve
    /// only if hooks are queued, which may resolve it again).
    @inline(never)
    private func finishFast(
        _ slot: Slot, expecting type: ObjectIdentifier, result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        if slot.blueprint.ops.dynamicType(of: result) != type {
            try storeNew(slot, result: result, graph: graph)
        } else if slot.blueprint.scope == .shared, graph.depth > 1 || graph.hasQueuedHooks {
            graph.storeShared(slot.blueprint.ops.box(result), of: slot.definition)
        }
    }

    /// Stores the new instance at `result` as the general path stores one (`Slot.store`: its type's needs learned, its
    /// property work queued in the graph).
    private func storeNew(_ slot: Slot, result: UnsafeMutableRawPointer, graph: ResolutionGraph) throws {
        // Read under the lock, as `acquire` does: hooks may be added and types learned meanwhile.
        let (recipe, info) = registry.withLockKeepingReaders { _ in (slot.recipe, slot.typeInfo) }
        _ = try slot.store(
            nil, typed: result, Construction(recipe: recipe, claim: nil, typeInfo: info), forward: nil, owner: self,
            graph: graph)
    }

    /// After the factory of `FastMake.Making.injecting` returned: whether its instance's `@Injected` properties are to
    /// be filled right after the factory's frame (`injectNow`). So they are when the instance has the type expected
    /// and `scope` runs its own work when it closes, with nothing queued in it yet: closing it would run exactly
    /// that work first, in the same context. Otherwise (inside another factory, whose graph fills them once the
    /// outermost factory has returned, or after other queued work) the instance is stored as the general path
    /// stores it, which queues them.
    @inline(never)
    private func finishInjecting(
        _ slot: Slot, expecting type: ObjectIdentifier, result: UnsafeMutableRawPointer, graph: ResolutionGraph,
        scope: ResolutionGraph.LightScope
    ) throws -> Bool {
        guard slot.blueprint.ops.dynamicType(of: result) == type, graph.runsNextWork(of: scope) else {
            try storeNew(slot, result: result, graph: graph)
            return false
        }
        // Kept for the graph before its properties are filled, as `Slot.store` keeps it: a property that resolves it
        // again gets this instance (a cycle closed by injection).
        if slot.blueprint.scope == .shared { graph.storeShared(slot.blueprint.ops.box(result), of: slot.definition) }
        return true
    }

    /// Fills the `@Injected` properties of the new instance at `result`, made by the factory of `slot` for `key`,
    /// as its queued work would be when its scope closes: in a frame with the context its factory ran in (`.made`).
    @inline(never)
    private func injectNow(
        _ slot: Slot, at key: UnsafePointer<DefinitionKey>, into result: UnsafeMutableRawPointer,
        graph: ResolutionGraph
    ) throws {
        try graph.run(madeFor: key) {
            try AutoInjector.inject(
                into: result, ops: slot.blueprint.ops, resolvedAt: key, container: self, graph: graph)
        }
    }

    /// Runs the factory of `slot` for the singleton claimed with `claim`, in a box of its own, and stores it:
    /// `Slot.store` hands it to the graph (published when the scope that owns it ends, rolled back if it fails) and
    /// copies it into `result`, exactly as on the general path.
    @inline(never)
    private func makeSingleton(
        _ slot: Slot, claim: Pending, arguments: UnsafeRawPointer, into result: UnsafeMutableRawPointer,
        graph: ResolutionGraph
    ) throws {
        // The factory runs from this frame, not from a closure handed to the box: every nested singleton's first
        // construction recurses through here, and a debug build gives each closure and initializer a frame.
        let ops = slot.blueprint.ops
        let storage = InstanceBox.allocate(ops)
        do {
            try slot.blueprint.make(arguments, into: storage)
        } catch {
            storage.deallocate()
            throw error
        }
        try storeSingleton(slot, InstanceBox(ops: ops, initialized: storage), claim: claim, into: result, graph: graph)
    }

    /// Stores the singleton `box` that `makeSingleton` made for `claim`. Out of line: its locals stay off the stack
    /// of the factory `makeSingleton` runs.
    @inline(never)
    private func storeSingleton(
        _ slot: Slot, _ box: InstanceBox, claim: Pending, into result: UnsafeMutableRawPointer, graph: ResolutionGraph
    ) throws {
        // Read under the lock, as `acquire` does: hooks may be added and types learned meanwhile.
        let (recipe, info) = registry.withLockKeepingReaders { _ in (slot.recipe, slot.typeInfo) }
        _ = try slot.store(
            box, typed: result, Construction(recipe: recipe, claim: claim, typeInfo: info), forward: nil, owner: self,
            graph: graph)
    }

    /// Runs the auto-wiring factory of `slot` into `result`, its arguments resolved from this container inside the
    /// factory's frame, as the general path does (`Slot.withAutoWiredArguments`: the request's tag passed down, an
    /// argument's error wrapped in `autoWiringFailed`, the factory's own propagated unchanged).
    ///
    /// Written out in one body over the arguments laid out at registration: every level of an auto-wired chain
    /// recurses through here, and `autoWire`'s closures would each add a frame to it in a debug build. Out of line:
    /// its storage stays off the stack of the common case.
    @inline(never)
    private func makeAutoWired(
        _ slot: Slot, _ key: UnsafePointer<DefinitionKey>, into result: UnsafeMutableRawPointer
    ) throws {
        guard let layout = slot.blueprint.argumentLayout else {
            return try slot.withAutoWiredArguments(key: key.pointee, owner: self) { arguments in
                try slot.blueprint.make(arguments, into: result)
            }
        }
        try withUnsafeTemporaryAllocation(byteCount: layout.size, alignment: layout.alignment) { buffer in
            // Arguments that take no memory may get no address; their values never read or write it.
            let storage = buffer.baseAddress ?? UnsafeMutableRawPointer(mutating: zeroSizedArguments)
            var resolved = 0
            defer { layout.destroy(resolved, at: storage) }
            while resolved < layout.elements.count {
                do {
                    try resolveRaw(
                        layout.elements[resolved].type, typeOfArguments: Void.self, tag: key.pointee.tag,
                        arguments: zeroSizedArguments, into: storage + layout.elements[resolved].offset)
                } catch {
                    throw slot.autoWiringFailure(error, key: key.pointee)
                }
                resolved += 1
            }
            try slot.blueprint.make(storage, into: result)
        }
    }
}
