extension DependencyContainer {
    /// What one look under the lock says about an accessor's key.
    private enum AccessorStep {
        /// The slot of this container that answers allows the engine's direct path (a published singleton, or a
        /// hook-free new instance).
        case direct(DirectDecision)
        /// Resolve through the engine (override, collaborators, then the declared default).
        case resolve
        /// The declared default is not registered yet here: register it, then resolve.
        case registerDefault
        /// The published singleton was copied into the caller's storage.
        case copied
    }

    /// Resolves a typed accessor: the definition registered here under exactly its key (an override); else one
    /// under exactly that key in the collaborators, depth-first as for every lookup; else the declared default,
    /// which is registered here on first use, once even when several threads use it first at the same time.
    ///
    /// The ``defaults`` companion skips the first two steps. The resolution joins the calling thread's resolution
    /// graph, so accessors and `register`/`resolve` definitions share `.shared` instances and cycle detection.
    ///
    /// One look under the lock finds the key (built once per site, `AccessorKeys`, with its hash) and decides.
    ///
    /// `build` is `AccessorCore.factory`, specialized by the caller for `T`: the declared default's blueprint makes
    /// each instance with the closure it returns (see `Blueprint.makeNullary`).
    @usableFromInline
    func resolveAccessor<T>(
        _ site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        build: @escaping AccessorFactoryBuilder<T>
    ) throws -> T {
        // A first use registers the declared default, then tries the non-generic call again: a graph of accessors
        // resolved for the first time (an app's start) then recurses through the engine's direct path, as later
        // resolves do, instead of the general path below (about 3.9 KB of stack per level in release and 14.7 KB in
        // a debug build, against about 1 KB and 5.4 KB).
        if registerAccessorDefaultIfNeeded(site, storage: storage, make: make, build: build) {
            let resolved = try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
                guard let storage = buffer.baseAddress,
                    try resolveAccessor(site, into: UnsafeMutableRawPointer(storage))
                else { return nil }
                return storage.move()
            }
            if let resolved { return resolved }
        }
        return try resolveAccessorInGeneral(site, storage: storage, make: make, build: build)
    }

    /// `resolveAccessor(_:storage:make:build:)` through the engine's general path (or a direct decision made here). Out of
    /// line: its frame stays off the stack of first uses that the direct path answers.
    @inline(never)
    private func resolveAccessorInGeneral<T>(
        _ site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        build: @escaping AccessorFactoryBuilder<T>
    ) throws -> T {
        var (step, key) = registry.withLock { registry -> (AccessorStep, DefinitionKey) in
            let entry = registry.accessorKeys.entry(for: site)
            return (accessorStep(entry, in: registry), entry.key)
        }
        // Graph report: while `validate` records, the engine's general path resolves, where edges are seen.
        if GraphRecorder.isActive {
            GraphRecorder.noteAccessor(key)
            if case .direct = step { step = .resolve }
        }
        switch step {
        case .direct(.copy(let box))
        where box.ops.size == MemoryLayout<T>.size && ObjectIdentifier(T.self) == ObjectIdentifier(key.type):
            // The slot under `key` makes instances of `key.type`, which is `T`.
            return box.pointer.assumingMemoryBound(to: T.self).pointee
        case .direct(let decision):
            return try resolveAccessor(directly: decision, key)
        case .resolve, .copied:
            break
        case .registerDefault:
            registerAccessorDefault(key, storage: storage, make: make, build: build)
        }
        return try resolveExact(key) {
            DeclaredDefault(
                Blueprint.makeNullary(scope: storage.scope, type: T.self, factory: make, build: build),
                hooks: storage.hooks)
        }
    }

    /// Registers the declared default of the accessor at `site` if `accessorStep` says it is to be registered (its
    /// first use here), so that the non-generic `resolveAccessor(_:into:)` can answer it; returns whether that call is
    /// worth trying again: `false` when the step is anything else (the call already said no), when a collaborator
    /// may hold an override (the general path searches them first), or while `validate` records (the general
    /// path notes the accessor's edges).
    private func registerAccessorDefaultIfNeeded<T>(
        _ site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        build: @escaping AccessorFactoryBuilder<T>
    ) -> Bool {
        guard !GraphRecorder.isActive else { return false }
        let key = registry.withLock { registry -> DefinitionKey? in
            let entry = registry.accessorKeys.entry(for: site)
            guard case .registerDefault = accessorStep(entry, in: registry),
                isDefaultsOnly || registry.collaborators.isEmpty
            else { return nil }
            return entry.key
        }
        guard let key else { return false }
        registerAccessorDefault(key, storage: storage, make: make, build: build)
        return true
    }

    /// Registers `make` with `storage` (its scope and property hooks) as the declared default of the accessor key
    /// `key`.
    private func registerAccessorDefault<T>(
        _ key: DefinitionKey, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        build: @escaping AccessorFactoryBuilder<T>
    ) {
        let blueprint = Blueprint.makeNullary(scope: storage.scope, type: T.self, factory: make, build: build)
        let hooks = storage.hooks
        registry.withLock { $0.registerAccessorDefault(key, blueprint: blueprint, hooks: hooks) }
        if storage.scope == .cached { watchMemoryPressure() }
    }

    /// The common accessor resolves, not generic: a published singleton, copied into `result` under the lock, or a
    /// hook-free new instance made by the engine's direct path into `result`. `false` (with `result` untouched) when
    /// the accessor needs `resolveAccessor(_:storage:make:build:)`: first use, an override elsewhere, hooks, or a recording
    /// `validate`.
    @usableFromInline
    func resolveAccessor(_ site: AccessorSite, into result: UnsafeMutableRawPointer) throws -> Bool {
        // Graph report: while `validate` records on any thread, accessors take the general path, where the
        // accessor and its edges are noted (as `resolveRaw` leaves its direct path).
        if GraphRecorder.isActive { return false }
        // A new instance to make on the direct path: the slot, its instances' type, and the entry, retained once
        // (its key is the frame's key while the factory runs) and released after. Returned from the locked region
        // rather than written to a captured variable, which copied the slot (a retain and a release more).
        //
        // An accessor used here before, whose answer is still current, is read without the lock while no write is
        // in progress (the reader bias), else under the lock without stopping those readers (a locked read, which
        // turns the bias back on after a while); only a first use or a stale answer takes the lock for writing.
        let outcome: AccessorOutcome
        if let biased = registry.withBiasedRead({ readStep(site, in: $0, into: result) }) ?? nil {
            outcome = biased
        } else if let locked = registry.withLockKeepingReaders({ readStep(site, in: $0, into: result) }) {
            outcome = locked
        } else {
            outcome = lockedStep(site, into: result)
        }
        switch consume outcome {
        case .copied:
            return true
        case .general:
            return false
        case .create(let slot, let type, entry: nil):
            // The slot, retained by the outcome, keeps the key.
            try create(directly: slot, type: type, slot.keyStorage, arguments: zeroSizedArguments, into: result)
            return true
        case .createMarked(let slot, let type, let mark):
            try createMarked(slot, type: type, mark: mark, arguments: zeroSizedArguments, into: result)
            return true
        case .create(let slot, let type, let entry?):
            defer { entry.release() }
            try create(
                directly: slot, type: type, entry.takeUnretainedValue().keyStorage, arguments: zeroSizedArguments,
                into: result)
            return true
        }
    }

    /// `resolveAccessor(_:into:)` under the lock for writing: a first use, or an answer to find again.
    private func lockedStep(_ site: AccessorSite, into result: UnsafeMutableRawPointer) -> AccessorOutcome {
        registry.withLock { registry -> AccessorOutcome in
            // The entry stays in the table while the lock is held.
            guard let found = registry.accessorKeys.withExistingEntry(for: site, { Unmanaged.passUnretained($0) })
            else { return .general }
            return found._withUnsafeGuaranteedRef { entry -> AccessorOutcome in
                // `inout`: passed by address (a closure's borrow of the captured registry copied all of it).
                switch accessorStep(entry, in: &registry, into: result) {
                case .copied:
                    return .copied
                case .direct(.create(let slot, let type)):
                    return .create(slot, type: type, entry: entry.answeringHasKey ? nil : found.retain())
                case .direct(.copy), .resolve, .registerDefault:
                    // A published singleton is copied by `accessorStep` itself (`.copied`).
                    return .general
                }
            }
        }
    }

    /// What `resolveAccessor(_:into:)` can decide by reading only: an accessor used here before whose answering slot
    /// is still current (`AccessorKeys.Entry.answering`), published or made on the direct path; `nil` otherwise.
    /// Reads without the lock are safe: the entry's answer and the slot are only changed under the lock for writing
    /// (`withLock`), which waits for them, and a stale answer is seen as stale (see `Route`).
    private func readStep(
        _ site: AccessorSite, in registry: UnsafePointer<Registry>, into result: UnsafeMutableRawPointer
    ) -> AccessorOutcome? {
        guard let keys = registry.pointer(to: \.accessorKeys),
            let found = AccessorKeys.withExistingEntry(in: keys, for: site, { Unmanaged.passUnretained($0) })
        else { return nil }
        return found._withUnsafeGuaranteedRef { entry -> AccessorOutcome? in
            guard entry.generation == Generation.current, let answering = entry.answering else { return nil }
            return answering._withUnsafeGuaranteedRef { slot -> AccessorOutcome in
                if slot.copyPublished(into: result) { return .copied }
                return createStep(answering, entry: found, hasKey: entry.answeringHasKey)
            }
        }
    }

    /// `readStep` for an answering slot without a published instance: a new instance on the direct path, or the
    /// general path. Out of line, so that the common singleton read stays small. Call where `readStep` runs.
    @inline(never)
    private func createStep(
        _ answering: Unmanaged<Slot>, entry: Unmanaged<AccessorKeys.Entry>, hasKey: Bool
    ) -> AccessorOutcome {
        answering._withUnsafeGuaranteedRef { slot -> AccessorOutcome in
            guard let type = directType(for: slot) else { return .general }
            guard hasKey else { return .create(slot, type: type, entry: entry.retain()) }
            // As for a resolve at the slot's key: a hazard mark, or the slot retained by a thread out of marks.
            guard case .createMarked(let slot, let type, let mark) = markedStep(for: slot, type: type) else {
                return .create(slot, type: type, entry: nil)
            }
            return .createMarked(slot, type: type, mark: mark)
        }
    }

    /// What `resolveAccessor(_:into:)` decided under the lock.
    private enum AccessorOutcome {
        /// The published singleton was copied into the caller's storage.
        case copied
        /// Make a new instance on the direct path. The factory's frame points at the key in `entry`, retained once for
        /// the caller to release, or, without one, at the slot's own copy of it (`Slot.keyStorage`).
        case create(Slot, type: ObjectIdentifier, entry: Unmanaged<AccessorKeys.Entry>?)
        /// `create` at the slot's own key, without a reference to the slot: the calling thread's hazard mark `mark`
        /// for this container keeps it (`DirectStep.createMarked`).
        case createMarked(Unmanaged<Slot>, type: ObjectIdentifier, mark: Int)
        /// Leave the accessor to the generic path.
        case general
    }

    /// `accessorStep(_:in:)` that copies a published singleton into `result` right away (`.copied`), with no
    /// reference counting of the slot or its box. Call under the registry's lock; `registry` is only read.
    private func accessorStep(
        _ entry: AccessorKeys.Entry, in registry: inout Registry, into result: UnsafeMutableRawPointer
    ) -> AccessorStep {
        func step(_ slot: Slot) -> AccessorStep {
            // The slot under the accessor's key makes instances of its type, the caller's `T`. Copying a value runs
            // no user code, so it may happen under the lock.
            if slot.copyPublished(into: result) { return .copied }
            return directDecision(for: slot).map { .direct($0) } ?? .resolve
        }
        let generation = Generation.current
        if entry.generation == generation, let answering = entry.answering {
            return answering._withUnsafeGuaranteedRef(step)
        }
        let borrow = { (slot: Slot) in Unmanaged.passUnretained(slot) }
        var answering =
            isDefaultsOnly ? nil : registry.slots.withBorrowedValue(for: entry.key, hash: entry.hash, borrow)
        if answering == nil {
            // `implements(_:tag:)` under the key overrides the default too; the general path resolves through it,
            // since its instances are of another type than the accessor's.
            if !isDefaultsOnly, registry.hasForward(entry.key, hash: entry.hash) { return .resolve }
            // The default answers here only when no collaborator could hold an override.
            guard registry.accessorDefaults[entry.key, hash: entry.hash] != nil else { return .registerDefault }
            guard isDefaultsOnly || registry.collaborators.isEmpty else { return .resolve }
            answering = registry.accessorDefaults.withBorrowedValue(for: entry.key, hash: entry.hash, borrow)
        }
        guard let answering else { return .resolve }
        (entry.answering, entry.generation) = (answering, generation)
        entry.answeringHasKey = answering._withUnsafeGuaranteedRef { $0.key == entry.key }
        return answering._withUnsafeGuaranteedRef(step)
    }

    /// The engine's direct path for an accessor, out of line: its temporary storage would otherwise make every
    /// accessor call look up generic metadata.
    @inline(never)
    private func resolveAccessor<T>(directly decision: DirectDecision, _ key: DefinitionKey) throws -> T {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            guard let storage = buffer.baseAddress else { return try resolveExact(key) }
            try resolve(directly: decision, key, arguments: zeroSizedArguments, into: UnsafeMutableRawPointer(storage))
            return storage.move()
        }
    }

    /// Decides how to resolve the accessor key of `entry`. Call under the registry's lock.
    private func accessorStep(_ entry: AccessorKeys.Entry, in registry: Registry) -> AccessorStep {
        if !isDefaultsOnly, let slot = registry.slots[entry.key, hash: entry.hash] {
            return directDecision(for: slot).map { .direct($0) } ?? .resolve
        }
        if !isDefaultsOnly, registry.hasForward(entry.key, hash: entry.hash) { return .resolve }
        guard let slot = registry.accessorDefaults[entry.key, hash: entry.hash] else { return .registerDefault }
        // The default answers here only when no collaborator could hold an override.
        guard isDefaultsOnly || registry.collaborators.isEmpty else { return .resolve }
        return directDecision(for: slot).map { .direct($0) } ?? .resolve
    }

    /// Registers an override for an accessor's key: an ordinary definition under exactly that key, with the property
    /// hooks of `storage`, which replaces any earlier override and drops what it cached.
    func registerOverride<T>(
        _ key: DefinitionKey, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T
    ) {
        let definition = Definition<T, Void>(
            blueprint: Blueprint.makeNullary(scope: storage.scope, type: T.self, factory: make),
            site: CallSite(file: #fileID, line: #line))
        for hook in storage.hooks { definition.addHook(hook) }
        register(definition, tag: key.tag)
    }

    /// Adds a decorator for `key`: kept per key (so it survives re-registration), attached to the definition that
    /// answers the key here (override or declared default), whose cached instance is dropped.
    func addDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        let released = registry.withLock { registry -> [Any] in
            let decorators = Decorators.adding(decorator, to: registry.decorators[key])
            registry.decorators[key] = decorators
            var released: [Any] = []
            for case let slot? in [registry.slots[key], registry.accessorDefaults[key]] {
                guard let matching = decorators.matching(slot.blueprint) else { continue }
                slot.recipe = slot.recipe.with(decorators: matching)
                // A construction in progress was made without the decorator: it is not published either.
                released += slot.dropCached()
            }
            return released
        }
        withExtendedLifetime(released) {}
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
                    + "Use `try accessor.resolve()` to get the error instead.")
        }
        fatalError(
            "Plexus: could not resolve \(name): \(error). Use `try accessor.resolve()` to get the error instead.")
    }
}
