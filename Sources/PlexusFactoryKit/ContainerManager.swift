import Foundation
import Plexus

/// What a container knows about its declarations: overrides, scopes, contexts and decorators, the instances its
/// scopes keep, and the switches that change how it resolves.
///
/// Every field is read and changed under the module's process-wide resolution lock (why it is `Sendable`: see
/// `Sendability.swift`).
///
/// ```swift
/// Container.shared.manager.push()                  // keep today's registrations
/// Container.shared.analytics.register { MockAnalytics() }
/// Container.shared.manager.pop()                   // back to them
/// ```
public final class ContainerManager: @unchecked Sendable {
    /// What one declaration has registered beyond its own factory, and where its slot is. A reference, changed in
    /// place under the resolution lock; ``push()`` copies them.
    @usableFromInline
    final class Options {
        // Each field a lock-free read depends on forgets the records when it changes (see `DeclarationRecord`).
        @exclusivity(unchecked) @usableFromInline var registration: AnyObject? {
            didSet { ContainerManager.forgetRecords() }
        }
        @exclusivity(unchecked) @usableFromInline var scope: Scope? { didSet { ContainerManager.forgetRecords() } }
        @exclusivity(unchecked) var scopeOnParameters = false { didSet { ContainerManager.forgetRecords() } }
        @exclusivity(unchecked) var timeToLive: TimeInterval? { didSet { ContainerManager.forgetRecords() } }
        @exclusivity(unchecked) @usableFromInline var argumentContexts: [String: AnyObject]? {
            didSet { ContainerManager.forgetRecords() }
        }
        @exclusivity(unchecked) @usableFromInline var contexts: [String: AnyObject]? {
            didSet { ContainerManager.forgetRecords() }
        }
        @exclusivity(unchecked) @usableFromInline var decorator: AnyObject? {
            didSet { ContainerManager.forgetRecords() }
        }
        @usableFromInline var once = false { didSet { ContainerManager.forgetRecords() } }
        /// The scope the declaration's slot was registered with in Plexus, and the type it makes: a resolve in
        /// another scope (a modifier, a new default scope) forgets that slot first.
        @exclusivity(unchecked) var slotScope: Scope? { didSet { ContainerManager.forgetRecords() } }
        var instanceType: Any.Type = Void.self
        /// The type of the container that declares it, whose name the key's tag starts with.
        var containerType: Any.Type = Void.self
        /// The arguments instances are kept for (`scopeOnParameters`), each with the number its slot's name ends with.
        var arguments: [AnyHashable: Int] = [:]
        /// When each slot's instance was last resolved, for ``FactoryModifying/timeToLive(_:)``.
        var resolvedAt: [String: TimeInterval] = [:]
        /// The slot of the declaration without an argument, once resolved in `slotScope`.
        @exclusivity(unchecked) var slot: DeclarationSlot? { didSet { ContainerManager.forgetRecords() } }

        init() {}

        /// Clears the context alternatives and returns them, to be released after the lock (see `reset(options:)`).
        func takeContexts() -> Any {
            defer { (contexts, argumentContexts) = (nil, nil) }
            return (contexts, argumentContexts)
        }

        /// Clears the override and returns it, to be released after the lock.
        func takeRegistration() -> Any {
            defer { registration = nil }
            return registration as Any
        }

        /// A copy, for ``push()``.
        func copy() -> Options {
            let copy = Options()
            (copy.registration, copy.scope, copy.scopeOnParameters, copy.timeToLive) =
                (registration, scope, scopeOnParameters, timeToLive)
            (copy.argumentContexts, copy.contexts, copy.decorator, copy.once) =
                (argumentContexts, contexts, decorator, once)
            (copy.slotScope, copy.instanceType, copy.containerType, copy.arguments, copy.resolvedAt) =
                (slotScope, instanceType, containerType, arguments, resolvedAt)
            copy.slot = slot
            return copy
        }
    }

    /// The options of `key`, made empty on first use. Call under the resolution lock.
    @usableFromInline
    func declaration(_ key: FactoryKey) -> Options {
        if let options = options[key] { return options }
        let options = Options()
        self.options[key] = options
        return options
    }

    /// Container-wide settings a full reset restores.
    @usableFromInline
    struct State {
        var autoRegistrationNeeded = true
        @usableFromInline var decorator: ((Any) -> Void)?
        @usableFromInline var defaultScope: Scope?
        var promiseTriggersError = FactoryContext.current.isDebug && !FactoryContext.current.isPreview
    }

    @exclusivity(unchecked) @usableFromInline var options: [FactoryKey: Options] = [:] {
        didSet { Self.forgetRecords() }
    }
    @exclusivity(unchecked) @usableFromInline var state = State() { didSet { Self.forgetRecords() } }
    var isAutoRegistering = false
    private var saved: [(options: [FactoryKey: Options], plexus: DependencyContainer.Snapshot, state: State)] = []

    /// The Plexus container behind this one. Each declaration is a typed accessor of it, keyed by its type and
    /// `"<Container type>.<property>"`, whose slot keeps what the scope keeps (but `.singleton`'s instances, which
    /// are the scope's): `validate` and the graph report see the declarations, and a Dip-style module container it
    /// collaborates with (`manager.plexus.collaborate(with: payments)`) answers a `promised()` declaration or a
    /// ``Resolving`` lookup with no registration of its own.
    public let plexus: DependencyContainer

    /// A number no other manager of this process has had: the singleton scope's container, which keeps every manager's
    /// singletons, keeps this manager's index items by it (an address may be given to a manager made after this one
    /// is released, a number is not).
    @usableFromInline let number: UInt

    /// Makes an empty manager.
    public init() {
        // Without the resolution lock: a container is often made by a lazy `static let`, whose initialization another
        // thread holding the lock may wait for.
        number = DeclarationOwnerNumbers.next()
        plexus = DependencyContainer(name: "PlexusFactoryKit", autoInjectProperties: false, callsResolvable: false)
        DependencyContainer.trimOnMemoryPressure(self) { $0.trimCaches() }
    }

    deinit {
        Self.records.removeAll(owner: ObjectIdentifier(self))
    }

    /// The scope of every declaration that names none; nil (unique) by default.
    public var defaultScope: Scope? {
        get { ResolutionLock.withLock { state.defaultScope } }
        set { ResolutionLock.withLock { state.defaultScope = newValue } }
    }

    /// Whether a resolution that comes back to a declaration already being resolved stops the process with the
    /// path it took; process-wide, on by default in every build.
    public var circularDependencyTesting: Bool {
        get { ResolutionLock.withLock { Diagnostics.shared.checksCycles } }
        set { ResolutionLock.withLock { Diagnostics.shared.checksCycles = newValue } }
    }

    /// Whether resolving a `promised()` declaration nothing was registered for
    /// stops the process (true by default in debug builds outside previews) instead of returning nil.
    public var promiseTriggersError: Bool {
        get { ResolutionLock.withLock { state.promiseTriggersError } }
        set { ResolutionLock.withLock { state.promiseTriggersError = newValue } }
    }

    /// Whether every outermost resolution logs the tree it resolved, one line per declaration; process-wide.
    public var trace: Bool {
        get { ResolutionLock.withLock { Diagnostics.shared.isTracing } }
        set { ResolutionLock.withLock { Diagnostics.shared.isTracing = newValue } }
    }

    /// Where ``trace`` lines and cycle reports go (standard output by default); process-wide.
    public var logger: (String) -> Void {
        get { ResolutionLock.withLock { Diagnostics.shared.logger } }
        set { ResolutionLock.withLock { Diagnostics.shared.logger = newValue } }
    }

    /// Whether the container holds nothing of the kind `options` names: `.registration` overrides, `.context`
    /// alternatives, `.scope` kept instances (singletons are the scope's own), `.all` of them; `.none` is always
    /// empty.
    /// - Parameter options: The kind of state to look at.
    /// - Returns: True when there is none.
    public func isEmpty(_ options: FactoryResetOptions) -> Bool {
        ResolutionLock.withLock {
            let noRegistrations = self.options.values.allSatisfy { $0.registration == nil }
            let noContexts = self.options.values.allSatisfy { $0.contexts == nil && $0.argumentContexts == nil }
            switch options {
            case .all: return !plexus.keepsDeclaredInstances && noRegistrations && noContexts
            case .context: return noContexts
            case .none: return true
            case .registration: return noRegistrations
            case .scope: return !plexus.keepsDeclaredInstances
            }
        }
    }

    /// Drops what `options` names from every declaration: `.all` also restores the default scope, the
    /// decorator and the promise switch, and runs ``AutoRegistering/autoRegister()`` again on next use.
    /// Singletons are kept (reset them with `Scope.singleton.reset()`).
    /// - Parameter options: What to drop; `.all` by default.
    public func reset(options: FactoryResetOptions = .all) {
        // What a reset drops is released after it, outside every access to these fields: its `deinit`s may resolve
        // declarations of this container (see `Sendability.swift`).
        var dropped: [Any] = []
        ResolutionLock.withLock {
            switch options {
            case .all:
                dropped = [self.options, state]
                self.options = [:]
                plexus.forgetDeclarations()
                state = State()
            case .context:
                dropped = self.options.values.map { $0.takeContexts() }
            case .none:
                break
            case .registration:
                dropped = self.options.values.map { $0.takeRegistration() }
                state.autoRegistrationNeeded = true
            case .scope:
                plexus.dropDeclaredInstances()
                // A singleton's slots, per argument too, are the process's: this reset leaves them alone.
                for (key, declaration) in self.options where !(declaration.slotScope is Scope.Singleton) {
                    forgetArgumentSlots(of: key, declaration)
                    declaration.resolvedAt = [:]
                }
            }
        }
        withExtendedLifetime(dropped) {}
    }

    /// Releases the instances one scope keeps in this container (a custom scope, `.cached`, `.shared`).
    /// `.singleton` is not the container's: use `Scope.singleton.reset()`.
    /// - Parameter scope: The scope whose instances to release.
    public func reset(scope: Scope) {
        ResolutionLock.withLock {
            if scope is Scope.Singleton {
                Diagnostics.shared.logger(
                    "PlexusFactoryKit: singletons are not the container's; use Scope.singleton.reset()")
            } else {
                for (key, options) in self.options where options.slotScope === scope {
                    dropInstances(of: key, options)
                }
            }
        }
    }

    /// Saves the registrations, kept instances and settings, for ``pop()`` to restore.
    public func push() {
        ResolutionLock.withLock { saved.append((options.mapValues { $0.copy() }, plexus.snapshot(), state)) }
    }

    /// Restores what the last ``push()`` saved; does nothing when nothing is saved.
    public func pop() {
        var dropped: [Any] = []
        ResolutionLock.withLock {
            guard let last = saved.popLast() else { return }
            dropped = [options, state]
            options = last.options
            plexus.restore(last.plexus)
            state = last.state
        }
        // Released outside the fields' accesses, as in `reset(options:)`.
        withExtendedLifetime(dropped) {}
    }

    /// Where the declaration `key` of `container` keeps its instance for `parameters` in `scope`: moves it there
    /// from another scope, numbers a new argument of `scopeOnParameters`, and expires an instance whose time to live
    /// has passed. Call under the resolution lock.
    @usableFromInline
    func slot<P, T>(
        of options: Options, key: FactoryKey, _: T.Type, in container: any ManagedContainer, scope: Scope,
        keeping parameters: P
    ) -> DeclarationSlot {
        if options.slotScope.map(scope.keepsSlot(of:)) != true {
            if options.slotScope != nil { forget(key, options) }
            options.slotScope = scope
            options.instanceType = T.self
            options.containerType = type(of: container)
            options.arguments = [:]
            options.slot = nil
        } else if options.slotScope !== scope {
            // Another singleton scope (a clone a test runs in): the same slot, in that scope's container.
            options.slotScope = scope
        }
        let slot: DeclarationSlot
        if options.scopeOnParameters, let argument = parameters as? any Hashable {
            let argument = AnyHashable(argument)
            let number: Int
            if let singleton = scope as? Scope.Singleton {
                // A singleton's slot is the process's: its argument numbers are the scope's, alike in every
                // container, and only the scope keeps the argument, so that resetting the scope releases it.
                number = singleton.number(of: argument, for: key)
            } else {
                number = options.arguments[argument] ?? options.arguments.count
                options.arguments[argument] = number
            }
            slot = DeclarationSlot(
                T.self, scope: scope, manager: self, containerType: options.containerType, name: key.text + "#\(number)"
            )
        } else if let known = options.slot, known.store === scope.storage(in: self).1 {
            slot = known
        } else {
            slot = DeclarationSlot(
                T.self, scope: scope, manager: self, containerType: options.containerType, name: key.text)
            options.slot = slot
        }
        if let timeToLive = options.timeToLive {
            let now = Date.timeIntervalSinceReferenceDate
            let expired: Bool
            if let singleton = scope as? Scope.Singleton {
                // The process's instance: its clock is the scope's, whichever container reads it.
                expired = singleton.expires(slot.name, of: key, timeToLive: timeToLive, now: now)
            } else {
                expired = options.resolvedAt[slot.name].map { $0 + timeToLive <= now } ?? false
                options.resolvedAt[slot.name] = now
            }
            if expired { slot.store.dropDeclaredInstance(at: slot.site) }
        }
        return slot
    }

    /// Releases the singleton of the declaration `key` when this manager has not resolved it yet, and forgets the
    /// slots kept for its arguments with their numbers and clocks: the instance is the process's, another container
    /// may have made it, and an override or a reset made here must reach it. Call under the resolution lock.
    func dropSingletonMadeElsewhere<T>(of key: FactoryKey, _: T.Type) {
        guard let options = options[key], options.slotScope == nil,
            let singleton = (options.scope ?? state.defaultScope) as? Scope.Singleton
        else { return }
        // A singleton's slot is named by type and property alone, whatever container type declared it; so are the
        // slots `scopeOnParameters` keeps for its arguments.
        let own = DeclarationSlot(T.self, scope: singleton, manager: self, containerType: Void.self, name: key.text)
        own.store.dropDeclaredInstance(at: own.site)
        for number in singleton.argumentNumbers(of: key) {
            let name = key.text + "#\(number)"
            let slot = DeclarationSlot(T.self, scope: singleton, manager: self, containerType: Void.self, name: name)
            slot.store.forgetDeclaration(at: slot.site)
        }
        singleton.forgetArguments(of: key)
    }

    /// Releases the instances the declaration `key` keeps, whatever argument they were kept for (the slots of
    /// arguments go too, so that a declaration resolved with ever new arguments does not grow between resets).
    func dropInstances(of key: FactoryKey) {
        guard let options = options[key] else { return }
        dropInstances(of: key, options)
    }

    /// Forgets the slots of the declaration `key` in Plexus, with what they keep.
    func forget(_ key: FactoryKey) {
        guard let options = options[key] else { return }
        forget(key, options)
    }

    private func dropInstances(of key: FactoryKey, _ options: Options) {
        for slot in slots(of: key, options, arguments: false) {
            slot.store.dropDeclaredInstance(at: slot.site)
        }
        forgetArgumentSlots(of: key, options)
        options.resolvedAt = [:]
    }

    private func forget(_ key: FactoryKey, _ options: Options) {
        for slot in slots(of: key, options, arguments: true) {
            slot.store.forgetDeclaration(at: slot.site)
        }
        (slotScope(of: options) as? Scope.Singleton)?.forgetArguments(of: key)
        options.slot = nil
        (options.arguments, options.resolvedAt) = ([:], [:])
    }

    /// Forgets the slots `scopeOnParameters` made for arguments, the numbers of those arguments and the clocks of
    /// those slots; for a singleton, whose numbers and clocks are the scope's, the clock of its own slot too (the
    /// callers empty that slot).
    func forgetArgumentSlots(of key: FactoryKey, _ options: Options) {
        guard let scope = slotScope(of: options) else { return }
        for number in argumentNumbers(of: key, options, in: scope) {
            let name = key.text + "#\(number)"
            let slot = DeclarationSlot(
                options.instanceType, scope: scope, manager: self, containerType: options.containerType, name: name)
            slot.store.forgetDeclaration(at: slot.site)
            options.resolvedAt[name] = nil
        }
        options.arguments = [:]
        (scope as? Scope.Singleton)?.forgetArguments(of: key)
    }

    /// The slots the declaration has in the scope it was last resolved in: its own, and with `arguments` one per
    /// argument kept.
    private func slots(of key: FactoryKey, _ options: Options, arguments: Bool) -> [DeclarationSlot] {
        guard let scope = slotScope(of: options) else { return [] }
        let names =
            [key.text] + (arguments ? argumentNumbers(of: key, options, in: scope).map { key.text + "#\($0)" } : [])
        return names.map {
            DeclarationSlot(
                options.instanceType, scope: scope, manager: self, containerType: options.containerType, name: $0)
        }
    }

    /// The numbers of the arguments whose slots the declaration has in `scope`: a singleton's, every argument any
    /// container resolved it with (the slots are the process's); otherwise those this container did.
    private func argumentNumbers(of key: FactoryKey, _ options: Options, in scope: Scope) -> [Int] {
        if let singleton = scope as? Scope.Singleton { return singleton.argumentNumbers(of: key) }
        return Array(options.arguments.values)
    }

    /// The scope whose container holds the declaration's slot now: for a singleton, the singleton scope the latest
    /// read of the declaration named (a test's clone), where a reset or an override must reach.
    private func slotScope(of options: Options) -> Scope? {
        if options.slotScope is Scope.Singleton, let current = options.scope as? Scope.Singleton { return current }
        return options.slotScope
    }
}

/// Where a declaration keeps its instance in Plexus: the container (the declaring container's
/// ``ContainerManager/plexus``, or the singleton scope's own), the key's namespace marker and name, and the storage
/// the scope maps to.
@usableFromInline
struct DeclarationSlot: Sendable {
    @usableFromInline let store: DependencyContainer
    @usableFromInline let site: DeclarationSite
    let name: String
    @usableFromInline let storage: ComponentScope

    init(_ type: Any.Type, scope: Scope, manager: ContainerManager, containerType: Any.Type, name: String) {
        (storage, store) = scope.storage(in: manager)
        // Singletons are one per process across container types, as Factory keeps them: by type and name alone.
        site = DeclarationSite(
            type, marker: scope is Scope.Singleton ? Scope.Singleton.self : containerType, name: name)
        self.name = name
    }
}

/// What a reset drops.
public enum FactoryResetOptions: Sendable {
    /// The override, the contexts, the kept instance and the modifiers.
    case all
    /// Nothing.
    case none
    /// The override registered with `register { }`.
    case registration
    /// The context alternatives (`onTest`, `onArg`, …).
    case context
    /// The kept instance.
    case scope
}

extension ContainerManager {
    /// Releases every instance this container keeps in ``Scope/cached``; the next resolve of each makes a new one.
    /// On Apple platforms the container calls it when the system signals memory pressure; call it yourself
    /// elsewhere. Custom scopes and `.shared` instances are kept.
    public func trimCaches() {
        plexus.trimCaches()
    }
}

/// What a read of a declaration finds without the resolution lock, one record per declaration and manager, published
/// by a resolve under the lock and forgotten by every change of a declaration's options, of a manager's table or
/// settings, or of tracing (each `didSet` of those fields): a record a reader finds is as current as a read under the
/// lock. It answers the reads that need no user code: a scope modifier already applied (for `scope(_:)`, the record's
/// tag in the table: its scope's identity, which the options hold, so no other scope has its address, and `once`;
/// for a scope property, the record's `scopeName`, `scope` and `once`, see `hasApplied`), and the
/// instance the scope keeps (`keptStore`, set only when no decorator, context alternative, time to live, per-argument
/// scope or trace has to see the read), and when a unique instance is only what the chosen factory makes
/// (`directGeneration`). Under the lock, a record still current (`generation`) also gives the options and the slot,
/// so that a resolve that makes an instance looks nothing up. The same answers are published in the index of the
/// declaration's store too (`publishDeclaration`: the manager's own container, or the singleton scope's, where the
/// item is this manager's), where a read finds them first: one probe under that container's reader bias, as a typed
/// accessor's read (see `FactoryRegistration`).
///
/// `@unchecked Sendable`: every field is a constant; `options`, the one that is not `Sendable`, is only read under
/// the resolution lock, as every `Options` is (see `Sendability.swift`).
@usableFromInline
final class DeclarationRecord: @unchecked Sendable {
    /// The container to read the kept instance from without the lock, or nil when a read must take the lock.
    @usableFromInline let keptStore: DependencyContainer?
    /// The slot's entry in `keptStore`, read without finding the declaration's site there again; unretained, kept
    /// alive by `entryKeeper`, as long as the record.
    @usableFromInline let keptEntry: DeclarationEntry?
    let entryKeeper: AnyObject?
    /// The options, when the slot needs no update on a resolve (no time to live, no per-argument scope).
    @usableFromInline let options: ContainerManager.Options?
    @usableFromInline let slot: DeclarationSlot
    /// `DeclarationRecordGeneration.current` when published: while equal, nothing the record describes changed.
    @usableFromInline let generation: Int
    /// For a unique declaration that nothing but its factory has to see (no decorator, context or trace), answered
    /// in its container by its own plain default alone: the container generation that answer holds for. While
    /// that container's `answerGeneration` (the slot's store's) equals it, a resolve calls the chosen factory itself, under the
    /// resolution lock and the cycle check, as the slot's factory would (`FactoryRegistration.makeDirectly`).
    @usableFromInline let directGeneration: Int?
    /// The declaration's scope when published, as a scope modifier property names it (`none` for another scope or
    /// none), and its identity.
    @usableFromInline let scopeName: ScopeName
    @usableFromInline let scope: ObjectIdentifier?
    /// Whether `once()` froze the options.
    @usableFromInline let once: Bool

    init(
        _ options: ContainerManager.Options, slot: DeclarationSlot, kept: DeclarationPublication?,
        directGeneration: Int?, generation: Int
    ) {
        scope = options.scope.map(ObjectIdentifier.init)
        scopeName = .name(of: options.scope)
        once = options.once
        keptStore = kept == nil ? nil : slot.store
        (keptEntry, entryKeeper) = (kept?.entry, kept?.keeper)
        self.options = options.timeToLive == nil && !options.scopeOnParameters ? options : nil
        self.slot = slot
        self.directGeneration = directGeneration
        self.generation = generation
    }

    /// Whether the declaration has the scope a modifier property of a declaration value named (`pending`), or
    /// ignores it: `once()` froze the options through another value (one whose `once` differs).
    @inlinable
    func hasApplied(_ pending: ScopeName, once: Bool) -> Bool {
        if pending == .none || self.once != once { return true }
        // The singleton scope is task-local (a test may run with a clone): compare the one this task sees.
        if pending == .singleton { return scope == ObjectIdentifier(Scope.singleton) }
        return scopeName == pending
    }

    /// The read words (`ScopeName.readWord`) of the declaration values whose scope property the declaration
    /// has applied (as `hasApplied` says), as bits, for the store's index of declarations: a value naming no scope,
    /// one whose `once` differs from the declaration's, or one naming the declaration's scope. A value naming the
    /// singleton scope reads the index of the singleton scope its task sees now, whose container holds the
    /// declaration only if that scope is the declaration's: the identity `hasApplied` compares.
    static func acceptedReadWords(scopeName: ScopeName, once: Bool) -> UInt {
        var accepted: UInt = 0
        for valueOnce in [false, true] {
            for pending in [ScopeName.none, .unique, .cached, .graph, .shared, .singleton] {
                let applied = pending == .none || valueOnce != once || pending == scopeName
                if applied { accepted |= 1 << UInt(ScopeName.readWord(pending, once: valueOnce)) }
            }
        }
        return accepted
    }

    /// The instance the scope keeps, read without the lock, if the record allows it and there is one.
    @inlinable
    func keptInstance<T>(_: T.Type) -> T? {
        guard let keptStore, let keptEntry else { return nil }
        return keptStore.publishedDeclaration(at: keptEntry)
    }
}

extension ContainerManager {
    /// The records of every manager's declarations (see `DeclarationRecord`).
    static let records = DeclarationRecords<DeclarationRecord>()

    /// The record of `key`, found without the resolution lock.
    @usableFromInline
    func record(of key: FactoryKey) -> DeclarationRecord? {
        Self.records.record(owner: ObjectIdentifier(self), type: key.type, name: key.name)
    }

    /// Publishes the record of `key` from its `options`, whose slot is `slot`. Call under the resolution lock, after
    /// auto-registration, `slot(of:…)` and the resolve that used them.
    @usableFromInline
    func publishRecord(of key: FactoryKey, _ options: Options, slot: DeclarationSlot) {
        let noContexts = options.contexts?.isEmpty != false && options.argumentContexts?.isEmpty != false
        let seenByNothingElse =
            options.decorator == nil && state.decorator == nil && noContexts && options.timeToLive == nil
            && !options.scopeOnParameters && !Diagnostics.shared.isTracing && !state.autoRegistrationNeeded
        let readsKept = seenByNothingElse && slot.storage != .unique && slot.storage != .shared
        let generation = DeclarationRecordGeneration.current
        // Made directly only under the product's own cycle check (turning it off forgets the records).
        let wantsDirect = seenByNothingElse && slot.storage == .unique && Diagnostics.shared.checksCycles
        var publication: DeclarationPublication?
        if readsKept || wantsDirect {
            // Published in the store's index too, when the index can answer alone: a kept instance, or a unique
            // declaration without an override, whose own factory is then the one to call. The store is this
            // manager's own container, or for a singleton the singleton scope's, which keeps every manager's
            // singletons: there the item is this manager's (`number`). One lock section gives the record its entry
            // too.
            let own = slot.store === plexus
            let indexed = readsKept || (own && options.registration == nil)
            let scopeName = ScopeName.name(of: options.scope)
            let accepts = indexed ? DeclarationRecord.acceptedReadWords(scopeName: scopeName, once: options.once) : 0
            publication = slot.store.publishDeclaration(
                at: slot.site, owner: own ? nil : number, type: key.type, name: key.name,
                recordGeneration: generation, accepts: accepts, direct: wantsDirect)
        }
        let record = DeclarationRecord(
            options, slot: slot, kept: readsKept ? publication : nil, directGeneration: publication?.direct,
            generation: generation)
        Self.records.insert(
            record, tag: Self.scopeTag(options.scope.map(ObjectIdentifier.init), once: options.once),
            owner: ObjectIdentifier(self), type: key.type, name: key.name)
    }

    /// Whether the record of `key` says that its scope is `scope` already, or that its options were frozen by
    /// `once()` through another declaration value than one whose `once` is `once`: a scope modifier then has nothing
    /// to do. Reads the record's tag, without the lock and without touching the record.
    @usableFromInline
    func scopeIsApplied(of key: FactoryKey, scope: ObjectIdentifier?, once: Bool) -> Bool {
        guard let tag = Self.records.tag(owner: ObjectIdentifier(self), type: key.type, name: key.name) else {
            return false
        }
        return (tag & 1 == 1) != once || tag & ~1 == Self.scopeTag(scope, once: false)
    }

    /// A record's tag: the declared scope's address (a scope is an object: its low bit is clear; 0 for none) and
    /// whether `once()` froze the options, in the low bit.
    @usableFromInline
    static func scopeTag(_ scope: ObjectIdentifier?, once: Bool) -> UInt {
        (scope.map { UInt(bitPattern: $0) } ?? 0) | (once ? 1 : 0)
    }

    /// Forgets every record: something a record describes changed. Call under the resolution lock.
    @usableFromInline
    static func forgetRecords() {
        DeclarationRecordGeneration.advance()
        records.removeAll()
    }
}
