internal import PlexusCore

// The engine's façade: every change the public API makes to a container's registry, and every read of it the
// resolve path does not make itself. Each change does three things, here and nowhere else outside the engine:
//
// 1. it takes the registry's lock (`Protected.withLock`, which first waits out the lock-free readers);
// 2. the registry's own mutating function advances the generation (`epoch.advance()`, see `Epoch`) under that lock whenever
//    it removes or replaces a slot or changes what a lookup finds, so no remembered route or accessor answer
//    outlives what it points at;
// 3. what it dropped comes back typed (`Released`) and goes to `release(_:)` after the lock, which keeps the slots a
//    thread still runs the factory of (a hazard mark) and releases the rest: a `deinit` is user code.
//
// `.ci/fence` fails when `registry.` appears outside `Sources/Plexus/Engine/`.

extension DependencyContainer {
    // MARK: Registering and removing

    /// What a registration replaced, for telling an intended override from a surprising one.
    struct Collision {
        let oldOrigin: Any.Type?
        let oldArgumentCount: Int
    }

    /// What registering a definition did.
    enum Registration {
        /// It is registered under the key; `collision` says what it replaced, if that looks like a mistake.
        case inserted(collision: Collision?)
        /// It stands for a forwarding registration (returned by `register(_:type:tag:)`): the caller adds that,
        /// after every lock.
        case forwarding(@Sendable (DependencyContainer, Tag?) -> Void)
    }

    /// Registers `definition` under `key` (whose `KeyTable` hash is `hash`), with the enum type its tag came from.
    /// Takes the definition's lock, then the registry's (the definition records this container), and releases what
    /// the registration replaced after both.
    /// `isFresh`: no other thread can reach the definition yet (`register(_:tag:isFresh:)`), so its lock is not taken.
    func insert<T, U>(
        _ definition: Definition<T, U>, key: DefinitionKey, hash: Int, origin: TagOrigin?, isFresh: Bool = false
    ) -> Registration {
        // Values returned, not variables captured: the closures stay as cheap as the registration they wrap.
        let (registration, released) = definition.state.withLock(unlessFresh: isFresh) {
            state -> (Registration, Released) in
            if let registerAsForwarding = state.registerAsForwarding {
                return (.forwarding(registerAsForwarding), Released())
            }
            let isNew = state.addRegistration(of: self)
            let (released, collision) = registry.withLock { registry in
                Self.insert(
                    definition, blueprint: definition.blueprint, key: key, hash: hash, origin: origin,
                    recipe: state.recipe, forwards: state.forwards, definitionIsNew: isNew, into: &registry)
            }
            return (.inserted(collision: collision), released)
        }
        guard case .inserted = registration else { return registration }
        release(released)
        return registration
    }

    /// Registers a definition Plexus makes itself (a typed accessor's override) under `key` (whose `KeyTable` hash
    /// is `hash`): the blueprint stands for the definition. Releases what it replaced after the lock.
    func insert(_ blueprint: Blueprint, key: DefinitionKey, hash: Int, recipe: Recipe) -> Collision? {
        let (released, collision) = registry.withLock { registry in
            Self.insert(
                blueprint, blueprint: blueprint, key: key, hash: hash, origin: nil, recipe: recipe, forwards: [],
                into: &registry)
        }
        release(released)
        return collision
    }

    /// Registers `definition` under `key` in `registry`, under its lock.
    private static func insert(
        _ definition: AnyObject, blueprint: Blueprint, key: DefinitionKey, hash: Int, origin: TagOrigin?,
        recipe: Recipe, forwards: [Forward], definitionIsNew: Bool = false, into registry: inout Registry
    ) -> (Released, Collision?) {
        let released = registry.insert(
            definition, blueprint: blueprint, key: key, hash: hash, recipe: recipe, forwards: forwards,
            definitionIsNew: definitionIsNew)
        // The slot it replaced, another definition's, told by what `insert` returns: the key is looked up once.
        var collision: Collision?
        if let old = released.slot {
            collision = Collision(
                oldOrigin: registry.tagOrigins[key, hash: hash]?.type, oldArgumentCount: old.blueprint.argumentCount)
        }
        if let origin {
            registry.tagOrigins.updateValue(origin, forKey: key, hash: hash)
        } else if registry.tagOrigins.count > 0 {
            registry.tagOrigins.removeValue(forKey: key, hash: hash)
        }
        return (released, collision)
    }

    /// Whether `definition` is registered here now (a `remove` or `reset` may have dropped it since it was).
    func isRegistered(_ definition: AnyObject) -> Bool {
        registry.withLock { $0.slot(of: definition) != nil }
    }

    /// Adds a forwarding registration to `definition`, if registered here; releases what it replaced.
    func addForward(_ forward: Forward, of definition: AnyObject) {
        release(registry.addForward(forward, of: definition))
    }

    /// Removes the registration of `definition` under `key`: the forwarding registration made for `linkedHooks`
    /// when it stands for one, else its slot if that is the definition's. Releases what it dropped.
    func remove(_ definition: AnyObject, key: DefinitionKey, linkedHooks: Protected<[Hook]>?) {
        let released = registry.withLock { registry -> Released in
            if let linkedHooks { return registry.removeForward(key, linkedHooks: linkedHooks) }
            guard let slot = registry.slots[key], slot.definition === definition else { return Released() }
            return registry.remove(key)
        }
        release(released)
    }

    /// Forgets every definition, cached instance and the bootstrap state; keeps the collaborators.
    func removeAll() {
        let old = registry.withLock { $0.reset() }
        release(Released(registry: old))
    }

    /// Whether a tagged request with no definition for its tag is answered by the untagged one.
    var fallsBackToUntagged: Bool {
        get { registry.withLock { $0.fallsBackToUntagged } }
        set { registry.withLock { $0.fallsBackToUntagged = newValue } }
    }

    // MARK: Collaborators

    /// Appends `containers` to the collaborators (not this one, nor one already there), dropping those released.
    func addCollaborators(_ containers: [DependencyContainer]) {
        registry.withLock { registry in
            let count = registry.collaborators.count
            registry.collaborators.removeAll { $0.container == nil }
            registry.releasedCollaborators += count - registry.collaborators.count
            for container in containers
            where container !== self && !registry.collaborators.contains(where: { $0.container === container }) {
                // Before a lookup here can go through it: from now on its changes advance this container's epoch.
                container.epoch.addDependent(epoch)
                registry.collaborators.append(WeakContainer(container: container))
            }
        }
    }

    /// The collaborators still alive, in order.
    func liveCollaborators() -> [DependencyContainer] {
        registry.withLock { $0.collaborators.compactMap(\.container) }
    }

    /// How many collaborators have been released.
    func releasedCollaboratorCount() -> Int {
        registry.withLock { $0.releasedCollaborators + $0.collaborators.count { $0.container == nil } }
    }

    // MARK: Snapshots

    /// A copy of the registry (`Registry.copyingSlots()`), for a snapshot.
    func copyRegistry() -> RegistryCopy {
        RegistryCopy(registry: Protected(registry.withLock { $0.copyingSlots() }))
    }

    /// Puts a copy of `copy` in place of the registry, keeping the collaborators; releases the old registry.
    func restoreRegistry(_ copy: RegistryCopy) {
        let restored = copy.registry.withLock { $0.copyingSlots() }
        let old = registry.withLock { $0.restore(restored) }
        release(Released(registry: old))
    }

    /// Gives `copy`, a container just made, a copy of this registry's definitions and the instances they keep now,
    /// without the collaborators. Nothing can have looked anything up in `copy` yet, so the generation stays.
    func copyRegistrations(into copy: DependencyContainer) {
        var copied = registry.withLock { $0.copyingSlots() }
        // The copy's own epoch first: clearing the collaborators advances the epoch the registry holds.
        copied.epoch = copy.epoch
        copied.collaborators = []
        copied.releasedCollaborators = 0
        let empty = copy.registry.withLock { current -> Registry in
            swap(&current, &copied)
            return copied
        }
        copy.release(Released(registry: empty))
    }

    // MARK: Bootstrap and validate

    /// Marks the container not bootstrapped and returns its eager singletons' keys and slots, in registration order.
    func beginBootstrap() -> [(key: DefinitionKey, slot: Slot)] {
        registry.withLock { registry in
            registry.isBootstrapped = false
            return registry.entriesInOrder.filter { $0.slot.scope == .eagerSingleton }
        }
    }

    /// Marks the container bootstrapped.
    func endBootstrap() {
        registry.withLock { $0.isBootstrapped = true }
    }

    /// Whether the last bootstrap completed.
    func hasBootstrapped() -> Bool {
        registry.withLock { $0.isBootstrapped }
    }

    /// What `validate` resolves, in order: each definition with the keys it is forwarded under, then the typed
    /// accessors' declared defaults used so far that no override here replaces.
    func validationEntries() -> [(DefinitionKey, Slot, [(key: DefinitionKey, forward: Forward)])] {
        registry.withLock { registry in
            let registered = registry.entriesInOrder.map { entry in
                (entry.key, entry.slot, registry.forwardEntries(of: entry.slot).sorted { "\($0.key)" < "\($1.key)" })
            }
            let defaults = registry.accessorDefaults.entries.filter { registry.slots[$0.key] == nil }
                .sorted { $0.value.order < $1.value.order }
                .map { ($0.key, $0.value, [(key: DefinitionKey, forward: Forward)]()) }
            return registered + defaults
        }
    }

    // MARK: Typed accessors

    /// The entry (key and its hash) of the accessor declared at `site`, made on first use.
    func accessorEntry(_ site: AccessorSite) -> AccessorKeys.Entry {
        registry.withLock { $0.accessorKeys.entry(for: site) }
    }

    /// Adds a decorator for `key`: kept per key (so it survives re-registration), attached to the definition that
    /// answers the key here (override or declared default), whose cached instance is dropped.
    func addDecorator<T>(_ key: DefinitionKey, _ decorator: @escaping @Sendable (T) -> T) {
        let released = registry.withLock { registry -> Released in
            let decorators = Decorators.adding(decorator, to: registry.decorators[key])
            registry.decorators[key] = decorators
            // An answer remembered as "the plain default alone" (`publishDeclaration`) is one no longer.
            registry.epoch.advance()
            var released = Released()
            for case let slot? in [registry.slots[key], registry.accessorDefaults[key]] {
                guard let matching = decorators.matching(slot.blueprint) else { continue }
                slot.recipe = slot.recipe.with(decorators: matching)
                // A construction in progress was made without the decorator: it is not published either.
                released.add(slot.dropCached())
            }
            return released
        }
        release(released)
    }

    /// Forgets, for the accessor key `key`, the override registered under it (`override`) and the instances kept
    /// for it (`instances`); decorators stay.
    func forgetAccessor(_ key: DefinitionKey, override: Bool, instances: Bool) {
        let released = registry.withLock { registry -> Released in
            var released = Released()
            if override { released.append(registry.remove(key)) }
            if instances {
                for case let slot? in [registry.slots[key], registry.accessorDefaults[key]] {
                    released.add(slot.dropCached())
                }
            }
            return released
        }
        release(released)
    }

    /// Forgets the accessor declared at `site`: its declared default, an override under its key, and the instances
    /// kept for them.
    func forgetAccessor(at site: AccessorSite) {
        let released = registry.withLock { registry -> Released in
            let key = registry.accessorKeys.entry(for: site).key
            var released = registry.remove(key)
            if let slot = registry.removeAccessorDefault(key) { released.add(slot) }
            return released
        }
        release(released)
    }

    /// Whether a declared default here keeps an instance (a published singleton, cached or weak instance).
    func accessorDefaultsKeepInstances() -> Bool {
        registry.withLock { registry in
            registry.accessorDefaults.allValues.contains { $0.instance != nil || $0.weakInstance != nil }
        }
    }

    /// Drops every instance the declared defaults here keep; they stay registered.
    func dropAccessorDefaultInstances() {
        let released = registry.withLock { registry -> Released in
            var released = Released()
            for slot in registry.accessorDefaults.allValues { released.add(slot.dropCached()) }
            return released
        }
        release(released)
    }

    /// Removes every declared default here, with what it keeps.
    func removeAccessorDefaults() {
        let released = registry.withLock { registry -> Released in
            var released = Released()
            for (key, _) in registry.accessorDefaults.entries {
                if let slot = registry.removeAccessorDefault(key) { released.add(slot) }
            }
            return released
        }
        release(released)
    }

    /// Drops the instance of every `.cached` definition and declared default here.
    func dropCachedInstances() {
        let released = registry.withLock { registry -> Released in
            var released = Released()
            for slot in registry.slots.allValues + registry.accessorDefaults.allValues where slot.scope == .cached {
                if let instance = slot.instance { released.add(Slot.Cached(instance: instance)) }
                slot.instance = nil
            }
            return released
        }
        release(released)
    }

    // MARK: Introspection (messages, `validate`'s report)

    /// Why a decorator for `key` will not reach the definition registered for its type here, if one is
    /// (`Registry.unreachableDecoratorTarget(for:)`).
    func unreachableDecoratorTarget(for key: DefinitionKey) -> String? {
        registry.withLock { $0.unreachableDecoratorTarget(for: key) }
    }

    /// Where the definition (or declared default) registered here under exactly `key` was registered.
    func registrationSite(of key: DefinitionKey) -> CallSite? {
        registry.withLock { registry in
            (registry.findExact(key)?.slot ?? registry.accessorDefaults[key])?.site
        }
    }

    /// The keys registered for `type` here, and whether untagged definitions answer tagged requests here.
    func nearMissCandidates(for type: Any.Type) -> (keys: [DefinitionKey], fallsBack: Bool) {
        registry.withLock { ($0.keys(for: type), $0.fallsBackToUntagged) }
    }

    /// The directly registered keys with their slots, in registration order.
    func entriesInOrder() -> [(key: DefinitionKey, slot: Slot)] {
        registry.withLock { $0.entriesInOrder }
    }

    /// The slots of the definitions in registration order, then of the declared defaults used so far.
    func slotsInOrder() -> [Slot] {
        registry.withLock { registry in
            registry.entriesInOrder.map(\.slot) + registry.accessorDefaults.allValues.sorted { $0.order < $1.order }
        }
    }

    /// Whether a declared default is registered here under `key`.
    func hasAccessorDefault(_ key: DefinitionKey) -> Bool {
        registry.withLock { $0.accessorDefaults[key] != nil }
    }

    /// For each of `entries` (another container's), the slot of another definition registered here under its key.
    func definitions(hiddenBy entries: [(key: DefinitionKey, slot: Slot)]) -> [(Slot, Slot)] {
        registry.withLock { registry in
            entries.compactMap { key, slot -> (Slot, Slot)? in
                guard let theirs = registry.slots[key], theirs.definition !== slot.definition else { return nil }
                return (slot, theirs)
            }
        }
    }
}

/// A copy of a registry (a snapshot's), reached only under its own lock, and only to be copied again.
struct RegistryCopy: Sendable {
    fileprivate let registry: Protected<Registry>
}

// What a definition changes after it is registered reaches each registry it is registered in, from the definition's
// side (it holds the registries, not the containers).
extension Protected where Value == Registry {
    /// Re-publishes a definition's hooks after it changed. Called with the definitions' lock held: returns the old
    /// recipe, to be released after that lock (its hooks may hold objects whose `deinit` is user code).
    func refresh(_ definition: AnyObject, recipe: Recipe) -> Recipe? {
        withLock { registry in
            guard let slot = registry.slot(of: definition) else { return nil }
            defer { slot.recipe = recipe.with(decorators: slot.recipe.decorators) }  // decorators stay
            return slot.recipe
        }
    }

    /// Adds a forwarding registration of `definition`. Returns what it replaced, to be released after the lock the
    /// caller holds: a replaced forwarding registration only, whose slot stays registered (a slot's forwarding
    /// registrations go when it does), so no slot needs the look for marks.
    func addForward(_ forward: Forward, of definition: AnyObject) -> Released {
        withLock { $0.addForward(forward, of: definition) }
    }
}
