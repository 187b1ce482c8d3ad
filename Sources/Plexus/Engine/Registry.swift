internal import PlexusCore

/// A container's definitions and indexes; lives behind the container's lock.
///
/// Every lookup is a hash lookup or a scan of the few keys registered for one type: nothing on the resolve
/// path scans all definitions.
struct Registry {
    struct ForwardEntry {
        let slot: Slot
        let forward: Forward
    }

    /// What a lookup found: the slot to resolve, through a forwarding registration or not.
    struct Found {
        let slot: Slot
        let forward: Forward?
        /// Whether a tagged request was answered by an untagged registration (logged at `.errors`).
        var fellBackToUntagged = false
    }

    /// The container's answer generation: advanced by every change here that can move where a key resolves (see
    /// `Epoch`). The same object for the container's whole life: `reset`, `restore` and copies keep it.
    var epoch: Epoch
    private(set) var slots = KeyTable<Slot>()
    private var forwards = KeyTable<ForwardEntry>()
    /// Every key registered (directly or by forwarding) for a type: auto-wiring candidates and near misses. Built on
    /// its first use (`keys(for:)`), which most containers never make, from the keys of `slots` and `forwards` in the
    /// order their stamps say they were registered (`nextSequence`): kept from the first registration, a table entry
    /// and a list per type cost a distinct type's registration about a third of its instructions and of its memory
    /// (`Benchmarks/profile register-types/plexus`, `Benchmarks/heap`).
    private var keysByType = KeyTable<TypeKeys>()
    private var isIndexedByType = false
    /// The sequence the next key new to `slots` or `forwards` is stamped with: registration order, for
    /// `keysByType`. Wraps after four billion registrations, which only reorders the keys a message lists.
    private var nextSequence: UInt32 = 0
    /// The slot of each definition registered here, by the definition's identity: built on first need
    /// (`indexSlotsByDefinition()`), `nil` until then. A definition that the registration itself knows to be new here
    /// (`insert(…definitionIsNew:)`) needs no look in it, so a container whose definitions are each registered once
    /// and never changed afterwards keeps none. A registry made by copying always has it built: the definitions it
    /// holds do not know it.
    private var slotsByDefinition: IdentityTable<Slot>?
    private var nextOrder = 0
    var isBootstrapped = false
    /// Whether a tagged request with no definition for its tag is answered by the untagged definition (Dip's
    /// behaviour). Only read after the exact key missed, so the exact-key path never pays for it.
    var fallsBackToUntagged = true {
        didSet {
            // Remembered routes and auto-wiring answers may have been found by a fallback, or missed one.
            autoWiringCandidates = KeyTable()
            epoch.advance()
        }
    }
    var collaborators: [WeakContainer] = [] {
        didSet { epoch.advance() }
    }
    /// How many collaborators were found released and dropped from `collaborators`, so that "not found" can say
    /// that a collaborator is gone.
    var releasedCollaborators = 0
    /// The enum type a registration's tag came from, for tags made from enums (tags compare by raw value).
    var tagOrigins = KeyTable<TagOrigin>()
    /// Where keys not registered here were found through the collaborators; see `remember(_:for:)`.
    private(set) var routes = KeyTable<RememberedRoute>()
    /// What `autoWiringCandidate` answered, per requested key; emptied whenever a definition is added or removed.
    private var autoWiringCandidates = KeyTable<Found?>()
    /// Typed accessors: the declared defaults used so far, consulted after every override; and the
    /// decorators registered per key, attached to whichever slot answers the key here.
    var accessorDefaults = KeyTable<Slot>()
    var decorators = KeyTable<Decorators>()
    /// Typed accessors: the key of every accessor used here, by declaration site.
    var accessorKeys = AccessorKeys()
    /// A product's declarations whose instances this container keeps, by type and name (see `DeclarationIndex`).
    var declarationIndex = DeclarationIndex()
    /// Typed accessors with collaborators: per key, the generation at which the general path found no definition under
    /// exactly the key in any collaborator, so that the declared default here answers it alone while the generation
    /// holds (a registration in a collaborator advances it). Lets a container that collaborates answer its accessors
    /// on the fast path, as one without collaborators does.
    private var defaultsAnsweringAlone = KeyTable<Int>()

    /// An empty registry whose changes advance `epoch`, its container's.
    init(epoch: Epoch) {
        self.epoch = epoch
    }

    // MARK: Lookup

    /// Steps 1–3 of the lookup: exact key, untagged fallback, then forwarding registrations (exact tag first).
    /// `inheritsTag`: the tag was passed down from the instance being made (auto-wiring, auto-injection), so it falls
    /// back even where `fallsBackToUntagged` is off: strict mode is about the tags a caller writes.
    func find(_ key: DefinitionKey, inheritsTag: Bool = false) -> Found? {
        if let slot = slots[key] { return Found(slot: slot, forward: nil) }
        let fallsBack = fallsBackToUntagged || inheritsTag
        if key.storedTag != .none, fallsBack, let slot = slots[key.untagged] {
            return Found(slot: slot, forward: nil, fellBackToUntagged: true)
        }
        if let entry = forwards[key] { return Found(slot: entry.slot, forward: entry.forward) }
        if key.storedTag != .none, fallsBack, let entry = forwards[key.untagged] {
            return Found(slot: entry.slot, forward: entry.forward, fellBackToUntagged: true)
        }
        return nil
    }

    /// Typed accessors: only a definition registered under exactly `key`, directly or by forwarding.
    func findExact(_ key: DefinitionKey) -> Found? {
        if let slot = slots[key] { return Found(slot: slot, forward: nil) }
        if let entry = forwards[key] { return Found(slot: entry.slot, forward: entry.forward) }
        return nil
    }

    /// Typed accessors: whether a forwarding registration is under exactly `key` (whose `KeyTable` hash is `hash`).
    /// It overrides the accessor's declared default as a definition under the key does.
    func hasForward(_ key: DefinitionKey, hash: Int) -> Bool {
        forwards[key, hash: hash] != nil
    }

    /// Typed accessors: whether `key` is the key of an accessor whose declared default is registered here. A lookup
    /// of such a key answers as the accessor does (exact definitions only, here then in the collaborators, then that
    /// default), so that both styles give one answer for it.
    ///
    /// Inlined, and the table's count tested first: a container without accessor defaults pays no copy of the key.
    @inline(__always)
    func isAccessorKey(_ key: DefinitionKey) -> Bool {
        // An accessor's tag is a string. Matched, not compared: a comparison copies the tag (a retain and a release).
        guard accessorDefaults.count > 0, case .string = key.storedTag else { return false }
        return accessorDefaults[key] != nil
    }

    /// Typed accessors: registers the declared default for `key` unless one is registered already, so that
    /// concurrent first uses register it once. A route remembered for the key (a fallback found before) goes: the
    /// key now answers as the accessor does (`isAccessorKey`). `hooks` are the declaration's `resolvingProperties`
    /// hooks.
    @discardableResult
    mutating func registerAccessorDefault(
        _ key: DefinitionKey, hash: Int? = nil, blueprint: Blueprint, hooks: [Hook] = [], typeInfo: TypeInfo? = nil
    ) -> Slot? {
        // The key's hash, kept by the accessor's entry: its tag string is hashed once per site, not per table.
        let hash = hash ?? KeyTable<Slot>.hash(key)
        guard accessorDefaults[key, hash: hash] == nil else { return nil }
        // A container's first accessor is seldom its last: room for a first graph's, so that the table does not move.
        accessorDefaults.reserveCapacity(24)
        if routes.count > 0 { routes.removeValue(forKey: key, hash: hash) }
        // And every remembered answer found before, by the direct path too: a `T?` of the key, or the key itself,
        // answered by a fallback, now answers as the accessor does.
        epoch.advance()
        let slot = Slot(
            blueprint: blueprint,
            recipe: hooks.isEmpty ? Recipe.plain : Recipe(hooks: hooks, autoInjects: nil), key: key, order: nextOrder)
        nextOrder += 1
        slot.typeInfo = typeInfo
        if decorators.count > 0 {
            slot.recipe = slot.recipe.with(decorators: decorators[key, hash: hash]?.matching(blueprint))
        }
        accessorDefaults.updateValue(slot, forKey: key, hash: hash)
        return slot
    }

    /// Typed accessors: removes the declared default for `key`, with every answer remembered for it. Returns it, to
    /// be released outside the lock.
    mutating func removeAccessorDefault(_ key: DefinitionKey) -> Slot? {
        guard let slot = accessorDefaults.removeValue(forKey: key) else { return nil }
        routes[key] = nil
        epoch.advance()
        return slot
    }

    /// The definition to auto-wire `key` with: the definitions of the type that take arguments, same tag
    /// first, else untagged, with the most arguments. Throws if several with different arguments tie. The answer
    /// (also "none") is remembered until a definition is added or removed here.
    mutating func autoWiringCandidate(for key: DefinitionKey, inheritsTag: Bool = false) throws -> Found? {
        // The remembered answers follow `fallsBackToUntagged`; an inherited tag in strict mode is looked up anew.
        if inheritsTag, !fallsBackToUntagged { return try findAutoWiringCandidate(for: key, fallsBack: true) }
        if let remembered = autoWiringCandidates[key] { return remembered }
        let candidate = try findAutoWiringCandidate(for: key, fallsBack: fallsBackToUntagged)
        if autoWiringCandidates.count >= cacheLimit { autoWiringCandidates.removeAll() }
        autoWiringCandidates[key] = .some(candidate)
        return candidate
    }

    /// Remembers where a collaborator answered `key`, or, for a `T?` request, the definition of `T` here or there.
    mutating func remember(_ route: Route, for key: DefinitionKey) {
        remember(RememberedRoute(route, for: key), for: key)
    }

    /// Remembers that the request `key` is answered by this registry's own definition `found` for `requested`: the
    /// `T?` request `key` by `T`'s definition, or (`autoWires`) `key` itself by auto-wiring. Not through a forwarding
    /// registration, which the fast path does not take.
    @discardableResult
    mutating func remember(
        local found: Found, _ key: DefinitionKey, _ requested: DefinitionKey, autoWires: Bool = false
    ) -> RememberedRoute? {
        guard found.forward == nil else { return nil }
        let route = RememberedRoute(
            localSlot: found.slot, requested: requested, for: key, generation: epoch.current, autoWires: autoWires)
        remember(route, for: key)
        return route
    }

    private mutating func remember(_ route: RememberedRoute, for key: DefinitionKey) {
        if routes.count >= cacheLimit { routes.removeAll() }
        routes[key] = route
    }

    /// Typed accessors: notes that no collaborator holds a definition under exactly `key` at `generation` (see
    /// `defaultsAnsweringAlone`).
    mutating func noteDeclaredDefaultAnswersAlone(_ key: DefinitionKey, at generation: Int) {
        if defaultsAnsweringAlone.count >= cacheLimit { defaultsAnsweringAlone.removeAll() }
        defaultsAnsweringAlone[key] = generation
    }

    /// Typed accessors: whether the declared default of `key` (whose `KeyTable` hash is `hash`) answers it here when
    /// nothing is registered here under it: no collaborator could hold an override, or none held one at `generation`,
    /// the container's generation now.
    func declaredDefaultAnswersAlone(_ key: DefinitionKey, hash: Int, at generation: Int) -> Bool {
        collaborators.isEmpty || defaultsAnsweringAlone[key, hash: hash] == generation
    }

    /// How many answers a per-key cache keeps before it starts over. Requested keys include tags, which may come
    /// from runtime data (ids), so the caches are bounded by the number of definitions rather than by the requests.
    private var cacheLimit: Int { 256 + 4 * slots.count }

    private mutating func findAutoWiringCandidate(
        for key: DefinitionKey, fallsBack fallsBackToUntagged: Bool
    ) throws -> Found? {
        let keys = keys(for: key.type)
        guard !keys.isEmpty else { return nil }
        let withArguments = keys.filter { $0.typeOfArguments != Void.self }
        var candidates = key.tag == nil ? [] : withArguments.filter { $0.tag == key.tag }
        let fellBack = candidates.isEmpty && key.tag != nil
        if candidates.isEmpty, !fellBack || fallsBackToUntagged { candidates = withArguments.filter { $0.tag == nil } }
        let found = candidates.compactMap { candidate in
            slots[candidate].map { (candidate, Found(slot: $0, forward: nil, fellBackToUntagged: fellBack)) }
                ?? forwards[candidate].map {
                    (candidate, Found(slot: $0.slot, forward: $0.forward, fellBackToUntagged: fellBack))
                }
        }
        guard let most = found.map({ $0.1.slot.blueprint.argumentCount }).max() else { return nil }
        let longest = found.filter { $0.1.slot.blueprint.argumentCount == most }
        let argumentTypes = Set(longest.map { ObjectIdentifier($0.0.typeOfArguments) })
        if argumentTypes.count > 1 {
            throw ResolutionError.autoWiringFailed(
                type: key.type,
                underlyingError: ResolutionError.ambiguousDefinitions(type: key.type, definitions: longest.map(\.0)))
        }
        return longest.first { $0.1.forward == nil }?.1 ?? longest.first?.1
    }

    /// Why a decorator for `key` will not reach a definition that is registered for its type here, if one is: it is
    /// reached through a forwarding registration (`implements`), whose instances have the definition's own type, or
    /// it takes runtime arguments (another key). `nil` when a definition is registered under exactly `key`, or none
    /// is for the type (one may be registered later, and the decorator applies to it then).
    mutating func unreachableDecoratorTarget(for key: DefinitionKey) -> String? {
        if slots[key] != nil || accessorDefaults[key] != nil { return nil }
        if let entry = forwards[key] {
            return "\(key) is registered through `implements` by the definition of \(entry.slot.key): decorate "
                + "that type instead (decorators rewrite the instance the definition makes, of its own type)."
        }
        let withArguments = keys(for: key.type).filter { $0.tag == key.tag && $0.typeOfArguments != Void.self }
        if let other = withArguments.first {
            return "\(key) is registered with runtime arguments (\(other)); `decorate` applies to definitions "
                + "registered without them."
        }
        return nil
    }

    /// The keys registered for a type, in registration order, for auto-wiring, near-miss hints and decorator checks.
    mutating func keys(for type: Any.Type) -> [DefinitionKey] {
        indexKeysByType()
        guard let entry = keysByType[.typeOnly(type)] else { return [] }
        guard entry.staleCount > 0 else { return entry.keys }
        var seen = Set<DefinitionKey>()
        return entry.keys.filter { (slots[$0] != nil || forwards[$0] != nil) && seen.insert($0).inserted }
    }

    /// Builds `keysByType`, once: the keys of `slots` and `forwards`, each under its type in registration order.
    private mutating func indexKeysByType() {
        guard !isIndexedByType else { return }
        isIndexedByType = true
        let registered = (slots.sequencedKeys + forwards.sequencedKeys).sorted { $0.sequence < $1.sequence }
        for (key, _) in registered { keysByType.modify(.typeOnly(key.type), default: TypeKeys()) { $0.insert(key) } }
    }

    /// Lists `key`, new to `slots` or `forwards`, under its type, once `keysByType` is built; returns the sequence
    /// to stamp it with.
    private mutating func index(_ key: DefinitionKey) -> UInt32 {
        if isIndexedByType { keysByType.modify(.typeOnly(key.type), default: TypeKeys()) { $0.insert(key) } }
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// The directly registered keys with their slots, in registration order.
    var entriesInOrder: [(key: DefinitionKey, slot: Slot)] {
        slots.entries.map { (key: $0.key, slot: $0.value) }.sorted { $0.slot.order < $1.slot.order }
    }

    /// The forwarding registrations (`implements`) of a slot, with their keys, for `validate`.
    func forwardEntries(of slot: Slot) -> [(key: DefinitionKey, forward: Forward)] {
        forwards.entries.filter { $0.value.slot === slot }.map { (key: $0.key, forward: $0.value.forward) }
    }

    /// The slot that holds `definition`, if registered here.
    mutating func slot(of definition: AnyObject) -> (Slot)? {
        indexSlotsByDefinition()
        return slotsByDefinition?[ObjectIdentifier(definition)]
    }

    /// Builds `slotsByDefinition` from `slots`, if it is not built.
    private mutating func indexSlotsByDefinition() {
        if slotsByDefinition == nil { slotsByDefinition = builtSlotsByDefinition() }
    }

    /// `slotsByDefinition` as built from `slots` (a definition's slot is under each of its keys).
    private func builtSlotsByDefinition() -> IdentityTable<Slot> {
        if let slotsByDefinition { return slotsByDefinition }
        var built = IdentityTable<Slot>()
        for slot in slots.allValues { built[ObjectIdentifier(slot.definition)] = slot }
        return built
    }

    // MARK: Changes

    /// Registers `definition` under `key`, replacing (and returning, to be released outside the lock) what was
    /// registered under `key` before: the slot replaced is the result's `slot`. `hash`: `KeyTable.hash(key)`, if the caller has it. `definitionIsNew`: the
    /// definition has never been registered in this registry (its own record of registries says so), so it has no
    /// slot here yet.
    mutating func insert(
        _ definition: AnyObject, blueprint: Blueprint, key: DefinitionKey, hash: Int? = nil, recipe: Recipe,
        forwards definitionForwards: [Forward], definitionIsNew: Bool = false
    ) -> Released {
        let hash = hash ?? KeyTable<Slot>.hash(key)
        epoch.advance()
        if autoWiringCandidates.count > 0 { autoWiringCandidates = KeyTable() }
        // One probe for the key's old slot and the new one's place; `slots` changes nowhere else until the store below.
        let bucket = slots.bucket(for: key, hash: hash)
        let old = slots.value(in: bucket)
        // Registering a definition again under its key still drops what it cached.
        if let old, old.definition === definition {
            var released = Released()
            released.add(old.dropCached())
            return released
        }
        let order = nextOrder
        let slot: Slot
        let isNew: Bool
        if definitionIsNew, slotsByDefinition == nil {
            (slot, isNew) = (
                Slot(blueprint: blueprint, recipe: recipe, key: key, order: order), true
            )
        } else {
            indexSlotsByDefinition()
            (slot, isNew) = slotsByDefinition!.value(for: ObjectIdentifier(definition)) {
                Slot(blueprint: blueprint, recipe: recipe, key: key, order: order)
            }
        }
        if isNew { nextOrder += 1 }
        // An override takes the old slot's place in the table, and its key stays indexed for its type.
        let sequence = old == nil ? index(key) : 0
        slots.store(slot, in: bucket, forKey: key, hash: hash, sequence: sequence)
        slot.keyCount += 1
        var released = Released(slot: old)
        if let old { released.add(detach(old)) }
        if decorators.count > 0, let decorators = decorators[key, hash: hash]?.matching(blueprint) {
            slot.recipe = slot.recipe.with(decorators: decorators)  // decorators survive re-registration
        }
        for forward in definitionForwards {
            if let replaced = add(forward, to: slot, typeOfArguments: key.typeOfArguments) { released.add([replaced]) }
        }
        return released
    }

    /// Adds a forwarding registration to the slot of `definition`, if registered here.
    mutating func addForward(_ forward: Forward, of definition: AnyObject) -> Released {
        guard let slot = slot(of: definition) else { return Released() }
        var released = Released()
        if let replaced = add(forward, to: slot, typeOfArguments: slot.key.typeOfArguments) { released.add([replaced]) }
        return released
    }

    /// Adds a forwarding registration to `slot`; returns the one it replaced.
    private mutating func add(_ forward: Forward, to slot: Slot, typeOfArguments: Any.Type) -> ForwardEntry? {
        epoch.advance()
        autoWiringCandidates = KeyTable()
        let key = DefinitionKey(type: forward.type, typeOfArguments: typeOfArguments, tag: forward.tag)
        let sequence = forwards[key] == nil ? index(key) : 0
        let replaced = forwards.updateValue(ForwardEntry(slot: slot, forward: forward), forKey: key, sequence: sequence)
        return replaced
    }

    /// Removes the forwarding registration under `key` if it is the one made for `linkedHooks` (by
    /// `register(_:type:tag:)`). Returns what was removed, to be released outside the lock.
    mutating func removeForward(_ key: DefinitionKey, linkedHooks: Protected<[Hook]>) -> Released {
        guard let entry = forwards[key], entry.forward.linkedHooks === linkedHooks else { return Released() }
        epoch.advance()
        autoWiringCandidates = KeyTable()
        forwards[key] = nil
        unindex(key)
        var released = Released()
        released.add([entry])
        return released
    }

    /// Removes `key`; once a definition has no key left here, its forwarding registrations and cached instances go
    /// too. Returns what was removed, to be released outside the lock.
    mutating func remove(_ key: DefinitionKey) -> Released {
        guard let slot = slots.removeValue(forKey: key) else { return Released() }
        epoch.advance()
        if autoWiringCandidates.count > 0 { autoWiringCandidates = KeyTable() }
        unindex(key)
        var released = Released(slot: slot)
        released.add(detach(slot))
        return released
    }

    /// Accounts for one key of `slots` no longer naming `slot`; once none does, its forwarding registrations go too.
    /// Returns those, to be released outside the lock.
    /// `slot` itself is not among them: the caller keeps it.
    private mutating func detach(_ slot: Slot) -> [ForwardEntry] {
        slot.keyCount -= 1
        guard slot.keyCount == 0 else { return [] }
        slotsByDefinition?[ObjectIdentifier(slot.definition)] = nil
        guard forwards.count > 0 else { return [] }
        var released: [ForwardEntry] = []
        for (forwardKey, entry) in forwards.entries where entry.slot === slot {
            forwards[forwardKey] = nil
            unindex(forwardKey)
            released.append(entry)
        }
        return released
    }

    private mutating func unindex(_ key: DefinitionKey) {
        guard isIndexedByType else { return }
        let type = DefinitionKey.typeOnly(key.type)
        guard keysByType[type] != nil else { return }
        var emptied = false
        let (slots, forwards) = (slots, forwards)
        keysByType.modify(type, default: TypeKeys()) { keys in
            emptied = keys.remove(key) { slots[$0] != nil || forwards[$0] != nil }
        }
        if emptied { keysByType[type] = nil }
    }

    /// Forgets every definition and cached instance and the bootstrap state; keeps the collaborators.
    /// Returns the old registry, to be released outside the lock.
    mutating func reset() -> Registry {
        epoch.advance()
        let old = self
        self = Registry(epoch: epoch)
        collaborators = old.collaborators
        fallsBackToUntagged = old.fallsBackToUntagged
        nextOrder = old.nextOrder
        return old
    }

    /// Puts `restored` (a copy made by `copyingSlots()`) in place of this registry's content, keeping the
    /// collaborators. Returns the old registry, to be released outside the lock.
    mutating func restore(_ restored: Registry) -> Registry {
        epoch.advance()
        var restored = restored
        restored.epoch = epoch
        restored.collaborators = collaborators
        restored.releasedCollaborators = releasedCollaborators
        swap(&self, &restored)
        return restored
    }
}

// MARK: Snapshots

extension Registry {
    /// A copy of this registry whose slots are new objects holding what these hold now (definition, hooks,
    /// decorators, published singletons), with the per-request caches emptied. Slots are classes that cache
    /// instances: sharing them would let instances made after the copy leak into it. Call under the lock that
    /// guards the slots being copied.
    func copyingSlots() -> Registry {
        var copies = IdentityTable<Slot>()
        func copy(_ slot: Slot) -> Slot {
            if let made = copies[ObjectIdentifier(slot)] { return made }
            let made = Slot(
                blueprint: slot.blueprint, recipe: slot.recipe, key: slot.key,
                order: slot.order)
            (made.instance, made.weakInstance, made.typeInfo) = (slot.instance, slot.weakInstance, slot.typeInfo)
            made.keyCount = slot.keyCount
            copies[ObjectIdentifier(slot)] = made
            return made
        }
        var result = self
        // Mapped in place: each key keeps its bucket and the sequence its registration order is rebuilt from.
        result.slots = slots.mapValues(copy)
        result.forwards = forwards.mapValues { ForwardEntry(slot: copy($0.slot), forward: $0.forward) }
        result.accessorDefaults = accessorDefaults.mapValues(copy)
        result.slotsByDefinition = builtSlotsByDefinition().mapValues(copy)
        result.routes = KeyTable()
        result.autoWiringCandidates = KeyTable()
        result.defaultsAnsweringAlone = KeyTable()
        // Entries are objects that remember which slot answered here: a copy shares none (its own slots answer it).
        result.accessorKeys = AccessorKeys()
        result.declarationIndex = DeclarationIndex()
        return result
    }
}

// MARK: Invariants

extension Registry: InvariantChecked {
    /// Checks every table and how they agree, after each change under the container's lock in builds that check
    /// invariants (`Invariants`): a registered key is indexed under its type and its slot is its definition's; a
    /// slot's `keyCount` is the number of keys it is registered under; a forwarding registration's slot is
    /// registered; a type's index lists at least one key and no more stale ones than it has.
    var checkedSize: Int {
        slots.count + forwards.count + keysByType.count + accessorDefaults.count + decorators.count + tagOrigins.count
            + routes.count + autoWiringCandidates.count + (slotsByDefinition?.count ?? 0)
    }

    func checkInvariants() {
        slots.checkInvariants("slots")
        forwards.checkInvariants("forwards")
        keysByType.checkInvariants("keys by type")
        accessorDefaults.checkInvariants("accessor defaults")
        decorators.checkInvariants("decorators")
        tagOrigins.checkInvariants("tag origins")
        routes.checkInvariants("routes")
        autoWiringCandidates.checkInvariants("auto-wiring candidates")
        accessorKeys.checkInvariants()
        declarationIndex.checkInvariants()
        slotsByDefinition?.checkInvariants("slots by definition")
        let byDefinition = builtSlotsByDefinition()

        var indexed = Set<DefinitionKey>()
        if !isIndexedByType {
            Invariants.require(keysByType.count == 0, "keys indexed by type before the index is built")
            indexed.formUnion(slots.entries.map(\.key) + forwards.entries.map(\.key))
        }
        for (type, index) in keysByType.entries {
            Invariants.require(!index.keys.isEmpty, "an empty index of keys for \(type)")
            Invariants.require(index.staleCount <= index.keys.count, "more stale keys than keys for \(type)")
            indexed.formUnion(index.keys)
        }
        var keysPerSlot: [ObjectIdentifier: Int] = [:]
        for (key, slot) in slots.entries {
            let registered = byDefinition[ObjectIdentifier(slot.definition)]
            Invariants.require(registered === slot, "the slot of \(key) is not its definition's")
            Invariants.require(indexed.contains(key), "\(key) is registered but not indexed")
            keysPerSlot[ObjectIdentifier(slot), default: 0] += 1
        }
        if slotsByDefinition == nil {
            Invariants.require(
                byDefinition.count == Set(slots.allValues.map(ObjectIdentifier.init)).count,
                "a definition with two slots")
        }
        for slot in byDefinition.allValues {
            let keys = keysPerSlot[ObjectIdentifier(slot)] ?? 0
            Invariants.require(slot.keyCount == keys, "\(slot.key): keyCount \(slot.keyCount), \(keys) keys")
        }
        for (key, entry) in forwards.entries {
            Invariants.require(
                byDefinition[ObjectIdentifier(entry.slot.definition)] === entry.slot,
                "the forwarding registration \(key) names a slot that is not registered")
            Invariants.require(indexed.contains(key), "the forwarding registration \(key) is not indexed")
        }
    }
}

/// The type of the value a tag was made from.
struct TagOrigin {
    let type: Any.Type

    /// The origin of a tag made from a value of `type`, if that is an enum (or another custom tag type), not a
    /// `String`, `Int` or `DependencyContainer.Tag`.
    static func ofEnum(_ type: Any.Type) -> TagOrigin? {
        type == String.self || type == Int.self || type == DependencyContainer.Tag.self ? nil : TagOrigin(type: type)
    }
}

/// Reads for a thread that holds the lock while readers without it read too (`withLockKeepingReaders`): through a
/// pointer to the registry, each table read in place. A method called on the registry (`registry.pointee.find`)
/// would copy it first, retaining every table it holds: writes to memory those readers share.
extension Registry {
    /// `find(_:inheritsTag:)`, read in place.
    static func find(_ key: DefinitionKey, inheritsTag: Bool, in registry: UnsafePointer<Registry>) -> Found? {
        guard let slots = registry.pointer(to: \.slots), let forwards = registry.pointer(to: \.forwards) else {
            return nil
        }
        if let slot = KeyTable.withBorrowedValue(in: slots, for: key, { $0 }) { return Found(slot: slot, forward: nil) }
        let fallsBack = key.storedTag != .none && (registry.pointee.fallsBackToUntagged || inheritsTag)
        if fallsBack, let slot = KeyTable.withBorrowedValue(in: slots, for: key.untagged, { $0 }) {
            return Found(slot: slot, forward: nil, fellBackToUntagged: true)
        }
        if let entry = KeyTable.value(in: forwards, for: key) { return Found(slot: entry.slot, forward: entry.forward) }
        if fallsBack, let entry = KeyTable.value(in: forwards, for: key.untagged) {
            return Found(slot: entry.slot, forward: entry.forward, fellBackToUntagged: true)
        }
        return nil
    }

    /// `declaredDefaultAnswersAlone(_:hash:at:)`, read in place.
    static func declaredDefaultAnswersAlone(
        _ key: DefinitionKey, at generation: Int, in registry: UnsafePointer<Registry>
    ) -> Bool {
        // Read through `pointee`: an observed property has no address a key path can give.
        if registry.pointee.collaborators.isEmpty { return true }
        guard let answering = registry.pointer(to: \.defaultsAnsweringAlone) else { return false }
        return KeyTable.value(in: answering, for: key) == generation
    }

    /// The declared default of `key`, a typed accessor's, when it answers the key here: nothing registered under
    /// exactly the key, and no collaborator that could hold an override (`declaredDefaultAnswersAlone`); read in place.
    /// Out of line: the general path's lookup calls it only for an accessor's key.
    @inline(never)
    static func declaredDefaultAnsweringAlone(
        _ key: DefinitionKey, at generation: Int, in registry: UnsafePointer<Registry>
    ) -> Found? {
        guard let slots = registry.pointer(to: \.slots), let forwards = registry.pointer(to: \.forwards),
            let defaults = registry.pointer(to: \.accessorDefaults),
            KeyTable.withBorrowedValue(in: slots, for: key, { _ in true }) == nil,
            KeyTable.value(in: forwards, for: key) == nil,
            declaredDefaultAnswersAlone(key, at: generation, in: registry)
        else { return nil }
        return KeyTable.withBorrowedValue(in: defaults, for: key) { Found(slot: $0, forward: nil) }
    }

    /// `isAccessorKey(_:)`, read in place.
    static func isAccessorKey(_ key: DefinitionKey, in registry: UnsafePointer<Registry>) -> Bool {
        guard case .string = key.storedTag, let defaults = registry.pointer(to: \.accessorDefaults),
            defaults.pointee.count > 0
        else { return false }
        return KeyTable.withBorrowedValue(in: defaults, for: key) { _ in true } ?? false
    }

    /// The auto-wiring candidate `autoWiringCandidate(for:)` found for `key` without a tag passed down, if it looked
    /// (`.some(nil)` when it found none), read in place.
    static func rememberedAutoWiringCandidate(for key: DefinitionKey, in registry: UnsafePointer<Registry>) -> Found?? {
        guard let candidates = registry.pointer(to: \.autoWiringCandidates) else { return nil }
        return KeyTable.value(in: candidates, for: key)
    }
}
