internal import PlexusCore

// Typed accessors through the engine: which slot answers an accessor (`answer`, decided under the lock for writing and
// remembered in its entry), and the generic path for a first use, an override elsewhere, hooks or a recording
// `validate`. The fast step for an accessor's declaration site is decided beside its fast entry, in
// DependencyContainer+Core.swift.

extension DependencyContainer {
    /// Which slot answers an accessor here, decided under the registry's lock.
    enum AccessorAnswer {
        /// This container's slot under exactly the accessor's key (an override), or its declared default.
        case slot(Borrowed<Slot>)
        /// The declared default is not registered yet here: register it, then resolve.
        case registerDefault
        /// The general path decides: a forwarding registration under the key, or collaborators that may hold an
        /// override.
        case general
    }

    /// Whether the declared default here of the accessor of `entry` answers it when no override is registered here:
    /// when no collaborator could hold one, or the general path found none in them at this generation
    /// (`Registry.declaredDefaultAnswersAlone`), or in the `defaults` companion, which ignores overrides.
    private func declaredDefaultAnswersAlone(_ entry: AccessorKeys.Entry, _ registry: borrowing Registry) -> Bool {
        isDefaultsOnly || registry.declaredDefaultAnswersAlone(entry.key, hash: entry.hash, at: generation.current)
    }

    /// Which slot answers the accessor of `entry` here, remembered in the entry until the generation moves: the
    /// definition registered under exactly its key, else (with no forwarding registration under it and no
    /// collaborator that could hold an override) its declared default. Call under the registry's lock for writing;
    /// `registry` is only read (`inout`: passed by address, a closure's borrow of the captured registry copied it).
    func answer(_ entry: AccessorKeys.Entry, in registry: inout Registry) -> AccessorAnswer {
        let generation = generation.current
        if let answering = entry.currentAnswer(at: generation) { return .slot(answering) }
        let borrow = { (slot: Slot) in Borrowed(slot) }
        var answering =
            isDefaultsOnly ? nil : registry.slots.withBorrowedValue(for: entry.key, hash: entry.hash, borrow)
        if answering == nil {
            // `implements(_:tag:)` under the key overrides the default too; the general path resolves through it,
            // since its instances are of another type than the accessor's.
            if !isDefaultsOnly, registry.hasForward(entry.key, hash: entry.hash) { return .general }
            guard registry.accessorDefaults[entry.key, hash: entry.hash] != nil else { return .registerDefault }
            guard declaredDefaultAnswersAlone(entry, registry) else { return .general }
            answering = registry.accessorDefaults.withBorrowedValue(for: entry.key, hash: entry.hash, borrow)
        }
        guard let answering else { return .general }
        let hasKey = answering.with { $0.key == entry.key }
        entry.answer(with: answering, at: generation, hasKey: hasKey)
        return .slot(answering)
    }

    /// Resolves a typed accessor: the definition registered here under exactly its key (an override); else one
    /// under exactly that key in the collaborators, depth-first as for every lookup; else the declared default,
    /// which is registered here on first use, once even when several threads use it first at the same time.
    ///
    /// The ``defaults`` companion skips the first two steps. The resolution joins the calling thread's resolution
    /// graph, so accessors and `register`/`resolve` definitions share `.shared` instances and cycle detection.
    ///
    /// `factory` is made by the caller, specialized for `T`: the declared default's blueprint (`DeclaredBlueprint`)
    /// makes each instance with it.
    ///
    /// `AccessorCore` registers a first use's declared default itself (`registerAccessorDefaultIfNeeded`) and tries
    /// the fast call again before it calls this, so this does not register it first.
    @usableFromInline
    func resolveAccessor<T>(
        _ site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        factory: DeclaredFactory<T>
    ) throws -> T {
        try resolveAccessorInGeneral(site, arguments: .none, onMainActor: false) {
            DeclaredDefault(
                DeclaredBlueprint(scope: storage.scope, declared: make, factory: factory), hooks: storage.hooks)
        }
    }

    /// Registers the declared default (`make`, with `storage`) of the accessor at `site` on its first use here, and
    /// returns whether `tryFastAccessor(_:into:)` is worth trying again (see
    /// `registerAccessorDefaultIfNeeded(_:declared:)`). The caller tries it again from its own frame: a graph of
    /// accessors resolved for the first time (an app's start) then recurses with no more stack per level than later
    /// resolves.
    ///
    /// Inlinable, so that the declared default's blueprint is made where the accessor is called: its type,
    /// `DeclaredBlueprint<T>`, is then known there, where generic code here would look it up at run time.
    @inlinable
    func registerAccessorDefaultIfNeeded<T>(
        _ site: AccessorSite, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T,
        factory: DeclaredFactory<T>
    ) -> Bool {
        registerAccessorDefaultIfNeeded(site) {
            DeclaredDefault(
                DeclaredBlueprint(scope: storage.scope, declared: make, factory: factory), hooks: storage.hooks)
        }
    }

    /// Resolves the typed accessor declared at `site` as `resolveAccessor(_:storage:make:factory:)` does, with its
    /// runtime argument at `arguments` (zero-sized for none) and `declared` making its declared default's blueprint
    /// and hooks, called only to register it.
    func resolveAccessor<T>(
        _ site: AccessorSite, arguments: ResolveArguments, onMainActor: Bool = false,
        declared: () -> DeclaredDefault
    ) throws -> T {
        // A first use registers the declared default, then tries the non-generic call again: a graph of accessors
        // resolved for the first time (an app's start) then recurses through the fast path, as later resolves do,
        // instead of the general path below, whose frames are several times larger.
        if registerAccessorDefaultIfNeeded(site, declared: declared) {
            // The storage is allocated here rather than through `withResolveStorage`, which would add a frame and a
            // closure to each level of a nested first use in a debug build.
            let resolved = try InstanceStorage.filledIfWritten(T.self) {
                try tryFastAccessor(site, arguments: arguments, onMainActor: onMainActor, into: $0)
            }
            if let resolved { return resolved }
        }
        return try resolveAccessorInGeneral(site, arguments: arguments, onMainActor: onMainActor, declared: declared)
    }

    /// `resolveAccessor(_:arguments:onMainActor:declared:)` through the engine's general path, or a fast step decided here under
    /// the lock. Out of line: its frame stays off the stack of first uses that the fast path answers.
    @inline(never)
    private func resolveAccessorInGeneral<T>(
        _ site: AccessorSite, arguments: ResolveArguments, onMainActor: Bool, declared: () -> DeclaredDefault
    ) throws -> T {
        // Graph report: while `validate` records, the engine's general path resolves, where edges are seen.
        let recording = GraphRecorder.isActive
        var unanswered: (key: DefinitionKey, entry: AccessorKeys.Entry, registers: Bool)?
        let answered = try InstanceStorage.filledIfWritten(T.self) { result -> Bool in
            let (step, entry, registers) = registry.withLock {
                registry -> (FastStep, AccessorKeys.Entry, Bool) in
                let entry = registry.accessorKeys.entry(for: site)
                switch answer(entry, in: &registry) {
                case .slot(let answering) where !recording:
                    let step = answering.with { slot -> FastStep in
                        if slot.copyPublished(into: result) { return .copied }
                        return accessorStep(
                            answering, entry: Borrowed(entry), hasKey: entry.answeringHasKey,
                            onMainActor, locked: true) ?? .general
                    }
                    return (step, entry, false)
                case .slot, .general:
                    return (.general, entry, false)
                case .registerDefault:
                    return (.general, entry, true)
                }
            }
            let key = entry.key
            if recording { GraphRecorder.noteAccessor(key) }
            let done = try carryOut(step, arguments: arguments, into: result) {
                try carryOut($0, at: nil, arguments: arguments, into: result)
            }
            if !done { unanswered = (key, entry, registers) }
            return done
        }
        if let answered { return answered }
        guard let (key, entry, registers) = unanswered else {
            preconditionFailure("Plexus: an accessor step ended undone")
        }
        if registers { registerAccessorDefault(key, declared()) }
        return try resolveExact(key, argumentsAt: arguments, entry: entry, declaredDefault: declared)
    }

    /// Registers the declared default of the accessor at `site` if it is not registered here yet (its first use), so
    /// that the non-generic `tryFastAccessor(_:into:)` can answer it; returns whether that call is worth trying
    /// again: `false` when the default is registered already (the call already said no), when a collaborator may
    /// hold an override (the general path searches them first), or while `validate` records (the general path notes
    /// the accessor's edges).
    @usableFromInline
    func registerAccessorDefaultIfNeeded(_ site: AccessorSite, declared: () -> DeclaredDefault) -> Bool {
        guard !GraphRecorder.isActive else { return false }
        let needed = registry.withLock { registry -> (AccessorKeys.Entry, generation: Int)? in
            let entry = registry.accessorKeys.entry(for: site)
            guard case .registerDefault = answer(entry, in: &registry), declaredDefaultAnswersAlone(entry, registry)
            else { return nil }
            return (entry, generation.current)
        }
        guard let (entry, seen) = needed else { return false }
        // Made outside the lock: making a blueprint looks up its type's value operations, and what its instances
        // need is looked up too, each behind a lock of its own.
        let declared = declared()
        let typeInfo = TypeInfo.learned(
            declared.blueprint.type, injecting: autoInjectProperties, completing: callsResolvable)
        registry.withLock { registry in
            // Whether anything that could change the answer happened since the section above (each such change
            // advances this container's generation, made here or in a container it reaches).
            let unchanged = generation.current == seen
            let slot = registry.registerAccessorDefault(
                entry.key, hash: entry.hash, blueprint: declared.blueprint, hooks: declared.hooks, typeInfo: typeInfo)
            // Answered now, so that the call tried again finds the answer by reading instead of locking to write.
            // With nothing changed, the new default answers, as the section above found: no definition or
            // forwarding registration under the key, no collaborator.
            if unchanged, let slot {
                entry.answer(with: Borrowed(slot), at: generation.current, hasKey: true)
            } else {
                _ = answer(entry, in: &registry)
            }
        }
        if declared.blueprint.scope == .cached { watchMemoryPressure() }
        return true
    }

    /// Registers `declared` (its blueprint and hooks) as the declared default of the accessor key `key`.
    private func registerAccessorDefault(_ key: DefinitionKey, _ declared: DeclaredDefault) {
        registry.withLock { _ = $0.registerAccessorDefault(key, blueprint: declared.blueprint, hooks: declared.hooks) }
        if declared.blueprint.scope == .cached { watchMemoryPressure() }
    }
}

extension DependencyContainer {
    /// `resolveAccessor(_:storage:make:factory:)` for a ``MainActorFactory`` called on the main actor.
    @usableFromInline
    @MainActor
    func resolveMainActorAccessor<T>(
        _ site: AccessorSite, storage: ComponentScope, make: @escaping @MainActor @Sendable () throws -> T,
        factory: DeclaredFactory<T>
    ) throws -> T {
        try resolveAccessor(site, arguments: .none, onMainActor: true) {
            DeclaredDefault(Blueprint.makeMainActor(scope: storage, factory: make, declared: factory))
        }
    }

    /// Copies the instance an accessor's singleton published into `result`, if it answers the accessor here and is
    /// published: what an ``AsyncFactory`` checks before the async resolve, which the common hit then skips. Never
    /// runs a factory. The lock is taken for writing only to remember which slot answers (a first use, or after a
    /// change).
    @usableFromInline
    func copyPublishedAccessor(_ site: AccessorSite, into result: UnsafeMutableRawPointer) -> Bool {
        copyPublishedAccessor(site, into: InstanceStorage(uninitialized: result, for: nil))
    }

    /// `copyPublishedAccessor(_:into:)` into the core's storage.
    func copyPublishedAccessor(_ site: AccessorSite, into result: InstanceStorage) -> Bool {
        if GraphRecorder.isActive { return false }
        if let copied = registry.withBiasedRead({ copyPublished(site, in: $0, into: result) }) ?? nil {
            return copied
        }
        if let copied = registry.withLockKeepingReaders({ copyPublished(site, in: $0, into: result) }) {
            return copied
        }
        // With collaborators, a slot here answers only if it is an override, or once the general path found none in
        // them; else the answer is not remembered, and every call would take the lock for writing (which stops this
        // container's readers) for nothing.
        let answersAlone = registry.withLockKeepingReaders { registry -> Bool in
            guard let keys = registry.pointer(to: \.accessorKeys),
                let key = AccessorKeys.withExistingEntry(in: keys, for: site, { $0.key })
            else { return isDefaultsOnly || registry.pointee.collaborators.isEmpty }
            return isDefaultsOnly || Registry.declaredDefaultAnswersAlone(key, at: generation.current, in: registry)
        }
        guard answersAlone else { return false }
        return registry.withLock { registry in
            guard case .slot(let answering) = answer(registry.accessorKeys.entry(for: site), in: &registry) else {
                return false
            }
            // Copying a value runs no user code, so it may happen under the lock.
            return answering.with { $0.copyPublished(into: result) }
        }
    }

    /// `copyPublishedAccessor(_:into:)` for a product's declaration whose entry it kept (`DeclarationEntry`): the
    /// entry's current answer read under the reader bias, without finding the site; else as that call does.
    @usableFromInline
    func copyPublishedDeclaration(_ declaration: DeclarationEntry, into result: UnsafeMutableRawPointer) -> Bool {
        if GraphRecorder.isActive { return false }
        let result = InstanceStorage(uninitialized: result, for: nil)
        // Borrowed: the caller keeps the entry's keeper for the call.
        let entry = declaration.entry
        let biased = registry.withBiasedRead { _ -> Bool? in
            entry.with { entry in
                entry.currentAnswer(at: generation.current)?.with { $0.copyPublished(into: result) }
            }
        }
        if case .some(.some(let copied)) = biased { return copied }
        return copyPublishedAccessor(entry.with { $0.site }, into: result)
    }

    /// The key of the accessor declared at `site`, as this container keeps it (built on first use).
    func accessorKey(_ site: AccessorSite) -> DefinitionKey {
        if let key = registry.withLockKeepingReaders({ $0.pointee.accessorKeys.existingEntry(for: site)?.key }) {
            return key
        }
        return registry.withLock { $0.accessorKeys.entry(for: site).key }
    }

    /// `copyPublishedAccessor(_:into:)` reading the registry as `readStep` does: `nil` when the accessor has no
    /// current answer here.
    private func copyPublished(
        _ site: AccessorSite, in registry: UnsafePointer<Registry>, into result: InstanceStorage
    ) -> Bool? {
        guard let keys = registry.pointer(to: \.accessorKeys) else { return nil }
        let copied = AccessorKeys.withExistingEntry(in: keys, for: site) { entry -> Bool? in
            guard let answering = entry.currentAnswer(at: generation.current) else { return nil }
            return answering.with { $0.copyPublished(into: result) }
        }
        return copied ?? nil
    }
}

extension DependencyContainer {
    /// Publishes a product's declaration at `site` in this container's `DeclarationIndex` under (`owner`, `type`,
    /// `name`; not without a name, nor when it `accepts` no read word; `owner` nil in a container of one owner), with
    /// the product's `recordGeneration`; with `direct`, also finds the generation at which the declaration is answered
    /// here by its registered default alone, a plain one (no hooks, no decorators, no main actor): nil when an
    /// override, a forward or a collaborator could answer instead, or a hook or decorator must see its instances.
    /// While this container's generation equals it, a unique instance of the declaration is exactly what its own
    /// factory makes: the product that declared it may call that factory itself. Returns that generation and the
    /// site's accessor entry. Takes the lock for writing once, as a first use does, to remember the answer.
    func publishDeclaration(
        _ site: AccessorSite, owner: UInt?, type: ObjectIdentifier, name: StaticString,
        recordGeneration: Int, accepts: UInt, direct: Bool
    ) -> DeclarationPublication {
        registry.withLock { registry -> DeclarationPublication in
            let entry = registry.accessorKeys.entry(for: site)
            var directGeneration: Int?
            if direct, case .slot(let answering) = answer(entry, in: &registry) {
                let slot = answering.object
                let isDefault =
                    registry.accessorDefaults.withBorrowedValue(for: entry.key, hash: entry.hash) { $0 === slot }
                    ?? false
                if isDefault, slot.hasPlainRecipe, slot.hasDirectRecipe { directGeneration = generation.current }
            }
            // An item that accepts no read would only take room: none is made (a stale one answers nothing).
            if accepts != 0, name.hasPointerRepresentation {
                let item = registry.declarationIndex.item(
                    owner: owner ?? 0, type: type, name: UnsafeRawPointer(name.utf8Start),
                    entry: entry)
                (item.recordGeneration, item.accepts) = (recordGeneration, accepts)
                item.directGeneration = directGeneration ?? -1
            }
            return DeclarationPublication(
                direct: directGeneration, entry: DeclarationEntry(entry: Borrowed(entry)),
                keeper: entry)
        }
    }

    /// A product's read of its declaration (`type`, `name`) here, through `DeclarationIndex`: the instance the
    /// declaration keeps, copied into `result`; or that its own factory may make a unique one
    /// (`publishDeclaration`); or a miss, when the product must look further (the index's item is stale, does not
    /// accept `word`, or nothing is kept). Reads under the reader bias, else under the lock without stopping readers,
    /// as a typed accessor's answer is read.
    ///
    /// Releases no object, which `@_effects(releasenone)` promises the optimizer (undefined behaviour if broken): it
    /// reads under the bias or the lock and retains only the instance it copies out. With the promise, a product's
    /// caller keeps its container and manager unretained across the call (`Benchmarks/profile
    /// factorykit-cached/plexus`: about 80 instructions); `Benchmarks/guard` checks the release build calls no release
    /// from here (*Optimizer promises*, in the engine README). A checked build makes no promise: the contract of its
    /// result storage (`InstanceStorage`) is an object the call allocates and releases.
    @usableFromInline
    #if !PLEXUS_CHECK_INVARIANTS
        @_effects(releasenone)
    #endif
    func readDeclaration(
        type: ObjectIdentifier, name: UnsafeRawPointer, word: Int, into result: UnsafeMutableRawPointer
    ) -> DeclarationRead {
        readDeclaration(owner: 0, type: type, name: name, word: word, into: result)
    }

    /// `readDeclaration(type:name:word:into:)` in a container that keeps the instances of several owners'
    /// declarations: the item `owner` published.
    @usableFromInline
    func readDeclaration(
        owner: UInt, type: ObjectIdentifier, name: UnsafeRawPointer, word: Int, into result: UnsafeMutableRawPointer
    ) -> DeclarationRead {
        if GraphRecorder.isActive { return .missed }
        let result = InstanceStorage(uninitialized: result, for: nil)
        if let read = registry.withBiasedRead({ readDeclaration(in: $0, owner, type, name, word, into: result) }) {
            return read
        }
        return registry.withLockKeepingReaders { readDeclaration(in: $0, owner, type, name, word, into: result) }
    }

    /// The instance the declaration `name` of `type` published here keeps (`publishDeclaration`), read as a typed
    /// accessor's is, when the product's read `word` (below the word size) is one it accepts; nil otherwise. `direct` is set to the product's
    /// generation when instead the declaration's own factory may make a unique instance. Never runs a factory.
    @inlinable
    package func readDeclaration<T>(
        _: T.Type, type: ObjectIdentifier, name: StaticString, word: Int, direct: inout DirectGenerations?
    ) -> T? {
        guard name.hasPointerRepresentation else { return nil }
        let name = UnsafeRawPointer(name.utf8Start)
        var read = DeclarationRead.missed
        let instance = AccessorStorage.instance(of: T.self) {
            read = readDeclaration(type: type, name: name, word: word, into: $0)
            return read.copied
        }
        if case .direct(let generation) = read { direct = generation }
        return instance
    }

    /// The instance the declaration `name` of `type` that `owner` published here keeps, in a container that keeps the
    /// instances of several owners' declarations, read as `readDeclaration(_:type:name:word:direct:)` reads one; nil
    /// when the index does not answer. Never runs a factory.
    @inlinable
    package func readDeclaration<T>(
        _: T.Type, owner: UInt, type: ObjectIdentifier, name: StaticString, word: Int
    ) -> T? {
        guard name.hasPointerRepresentation else { return nil }
        let name = UnsafeRawPointer(name.utf8Start)
        return AccessorStorage.instance(of: T.self) {
            readDeclaration(owner: owner, type: type, name: name, word: word, into: $0).copied
        }
    }

    private func readDeclaration(
        in registry: UnsafePointer<Registry>, _ owner: UInt, _ type: ObjectIdentifier, _ name: UnsafeRawPointer,
        _ word: Int, into result: InstanceStorage
    ) -> DeclarationRead {
        guard let index = registry.pointer(to: \.declarationIndex) else { return .missed }
        let read = DeclarationIndex.withItem(in: index, owner: owner, type: type, name: name) {
            item -> DeclarationRead in
            let recordGeneration = DeclarationRecordGeneration.current
            guard item.recordGeneration == recordGeneration, item.accepts >> UInt(word) & 1 == 1 else { return .missed }
            let now = generation.current
            if let answering = item.entry.with({ $0.currentAnswer(at: now) }),
                answering.with({ $0.copyPublished(into: result) })
            {
                return .copied
            }
            guard item.directGeneration == now else { return .missed }
            return .direct(DirectGenerations(record: recordGeneration, container: now))
        }
        return read ?? .missed
    }
}

/// The generations at which a product may make a unique instance of its declaration itself
/// (`DependencyContainer.readDeclaration`): its own (`DeclarationRecordGeneration`) and the container's
/// (`DependencyContainer.answerGeneration`). A product checks both again under its own lock before making one: a
/// change in the container does not advance the product's generation. Package access.
@usableFromInline
package struct DirectGenerations {
    @usableFromInline package let record: Int
    @usableFromInline package let container: Int
}

/// What `DependencyContainer.publishDeclaration` found: the generation at which the declaration may be made directly
/// (nil when it may not), and its accessor entry, valid while `keeper` is kept. Package access.
package struct DeclarationPublication {
    package let direct: Int?
    package let entry: DeclarationEntry
    package let keeper: AnyObject
}

/// What `DependencyContainer.readDeclaration` found. Package access.
@usableFromInline
package enum DeclarationRead {
    /// Nothing the index can answer: the product looks further.
    case missed
    /// The kept instance, copied into the caller's storage.
    case copied
    /// A unique instance is what the declaration's own factory makes, while the product's generation and this
    /// container's are these.
    case direct(DirectGenerations)

    /// Whether the instance was copied.
    @inlinable package var copied: Bool {
        if case .copied = self { return true }
        return false
    }
}

/// A declaration's entry in one container's table of accessor sites, kept by a product so that reading the instance
/// the declaration keeps does not find its site again (`DependencyContainer.publishedDeclaration(at:)`).
/// The entry is read only under that container's lock or reader bias, as the table's own readers read it (why it is
/// `@unchecked Sendable`); an entry the table no longer holds still answers correctly: its answer is current only while
/// the generation it was found at is, during which the registry holds the slot it names.
///
/// Unretained, so that reading through it counts no reference: whoever keeps it keeps the keeper
/// `DependencyContainer.publishDeclaration` gave with it too (`DeclarationPublication`), for as long.
@usableFromInline
package struct DeclarationEntry: @unchecked Sendable {
    let entry: Borrowed<AccessorKeys.Entry>
}

/// A light scope of the calling thread's resolution graph that a product opened around a factory it calls itself
/// (`DependencyContainer.openDeclarationScope()`), to be closed on the same thread. Package access.
@usableFromInline
package struct DeclarationScope {
    let graph: Borrowed<ResolutionGraph>
    let light: ResolutionGraph.LightScope
}

extension DependencyContainer {
    /// Opens a scope around a factory a product calls itself (see `publishDeclaration`): one light scope of the
    /// calling thread's resolution graph, opened here when outermost, as a container runs a declaration's
    /// factory, so that the resolves the factory makes share the graph's `.shared` instances. Close it with
    /// ``closeDeclarationScope(_:)`` on the same thread once the factory returned. Not generic and without a closure:
    /// the factory is called between the two, in the product's own specialized code. The graph is borrowed from the
    /// thread-local slot that keeps it alive while the thread runs (`ResolutionGraph.unretainedCurrent`).
    @usableFromInline
    package static func openDeclarationScope() -> DeclarationScope {
        let graph = ResolutionGraph.unretainedCurrent
        return DeclarationScope(graph: graph, light: graph.with { $0.openLightScope() })
    }

    /// Closes a scope ``openDeclarationScope()`` opened; an outermost scope releases what the graph held. If closing
    /// fails (a hook of an instance made inside throws), the scope is abandoned and the error thrown.
    @usableFromInline
    package static func closeDeclarationScope(_ scope: DeclarationScope) throws {
        try scope.graph.with { graph in
            defer { if graph.depth == 0 { graph.releaseLeftovers() } }
            do {
                try graph.closeLightScope(scope.light)
            } catch {
                graph.abandonLightScope(scope.light, after: error)
                throw error
            }
        }
    }
}
