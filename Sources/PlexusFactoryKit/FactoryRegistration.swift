import Foundation
import Plexus

/// A declaration's identity and its own factory: what ``Factory`` and ``ParameterFactory`` resolve through.
///
/// Factory's semantics sit here, Plexus's machinery underneath. `resolve(_:)` reads top to bottom: without a lock, the
/// store's index of declarations (Plexus's `readDeclaration`, in ``ContainerManager/plexus``) answers as a typed
/// accessor's read is answered: the instance the scope keeps, or that a unique instance is only what this
/// value's own factory makes (`makeOwnDirectly`: the factory runs under the resolution lock and the cycle check, in a
/// scope of the thread's resolution graph); a value naming the singleton scope reads the index of that scope's own
/// container (`readSingleton`). A declaration the index does not hold (a unique one with an override, a singleton
/// read through a value naming no scope) is answered the same two ways by its record (`DeclarationRecord`,
/// `makeDirectly`). Otherwise, under the resolution lock, run the container's auto-registration, find the
/// declaration's options and its slot (a typed accessor of the Plexus container its scope names:
/// ``ContainerManager/plexus``, or the singleton scope's own), return the instance the slot keeps if there is one,
/// else choose the factory (a context alternative beats an override, which beats the declaration's own) and resolve
/// the slot, which calls it (`FactoryHandOver`): Plexus keeps the instance, finds cycles and records the graph for
/// `validate`. The decorators run last, on every resolve. The record and the index entry are published after such a
/// resolve, when nothing but the kept instance (or the factory) has to see later reads.
public struct FactoryRegistration<P, T> {
    @usableFromInline let container: any ManagedContainer
    /// The declaration's name; with `T`, its key (the type is `T`'s, not stored: a word less in every value).
    @usableFromInline let name: StaticString
    @usableFromInline let factory: Own
    /// `pendingScope` and `once` in one byte, the word this value reads its manager's `plexus` index with
    /// (`ScopeName.readWord`, `ScopeName.mask`, `ScopeName.onceBit`). One field, not two: with seven scalar fields in
    /// all, the optimizer takes a value apart where it is resolved, rather than keep it in memory and destroy it
    /// through an outlined call (`Benchmarks/profile factorykit-cached/plexus`: about 70 instructions of a read).
    @usableFromInline var readWord: UInt8 = 0

    /// Whether the value was made `once()`.
    @inlinable var once: Bool {
        get { readWord & ScopeName.onceBit != 0 }
        set { readWord = newValue ? readWord | ScopeName.onceBit : readWord & ~ScopeName.onceBit }
    }

    /// A built-in scope named by a modifier property (`.cached`, `.graph`, …) of this value and not yet known to be
    /// the declaration's: applied by the value's next use (a resolve, an override, any other modifier, a reset).
    @inlinable var pendingScope: ScopeName {
        get { ScopeName(rawValue: readWord & ScopeName.mask) ?? .none }
        set { readWord = readWord & ScopeName.onceBit | newValue.rawValue }
    }

    /// The declaration's own factory, kept as it was written: a `() -> T` made into a `(Void) -> T` would need a
    /// thunk, an allocation on every read of the declaration.
    @usableFromInline
    enum Own {
        case plain(() -> T)
        case taking((P) -> T)
    }

    /// The declaration's identity: the type it makes and its name.
    @inlinable
    var key: FactoryKey { FactoryKey(type: T.self, name: name) }

    @inlinable
    init(name: StaticString, container: any ManagedContainer, factory: Own) {
        (self.name, self.container, self.factory) = (name, container, factory)
    }

    @inlinable
    init(key: StaticString, container: any ManagedContainer, factory: @escaping (P) -> T) {
        self.name = key
        self.container = container
        self.factory = .taking(factory)
    }

    @inlinable
    init(key: StaticString, container: any ManagedContainer, plain factory: @escaping () -> T) where P == Void {
        self.name = key
        self.container = container
        self.factory = .plain(factory)
    }

    /// Resolves an instance for `parameters`. Inlinable, as the functions it calls here: specialized where the
    /// declaration is resolved, it looks up no generic metadata for `P` and `T` on a call.
    @inlinable
    @inline(__always)
    func resolve(_ parameters: P) -> T {
        let manager = container.manager
        // Without the lock, as a typed accessor reads: the store's index of declarations answers when nothing but
        // the kept instance has to see this read (no decorator, context, time to live or trace) and this value's
        // scope property, if any, is already the declaration's; or it says that a unique instance is only what the
        // declaration's own factory makes.
        // A value naming the singleton scope reads the index of that scope's container instead (`readSingleton`). The
        // test compares the byte, not the enum: a scope property's constant then folds it away, and no branch before
        // the read keeps the optimizer from dropping the container's and the manager's retains on a kept read (they
        // cost about 80 instructions, `Benchmarks/profile factorykit-cached/plexus`).
        var direct: DirectGenerations?
        let namesSingleton = readWord & ScopeName.mask == ScopeName.singleton.rawValue
        if !namesSingleton,
            let instance = manager.plexus.readDeclaration(
                T.self, type: ObjectIdentifier(T.self), name: name, word: Int(readWord), direct: &direct)
        {
            return instance
        }
        if namesSingleton, let instance = Self.readSingleton(manager, name, once) { return instance }
        if let direct {
            switch factory {
            case .plain(let make):
                if let made = Self.makeOwnDirectly(direct, manager, container, key, make) { return made }
            case .taking(let make):
                if let made = Self.makeOwnDirectly(direct, manager, container, key, { make(parameters) }) {
                    return made
                }
            }
        }
        return Self.resolveFurther(container, name, factory, once, pendingScope, manager, parameters)
    }

    /// `resolve(_:)` when the store's index does not answer, for the value made of these parts. Out of line:
    /// `resolve(_:)` is inlined into every call and keeps only the index's read there; static, given the value's
    /// parts: as a method, it had the caller copy the whole value before the read (`Benchmarks/profile`, about 70
    /// instructions).
    @inlinable
    @inline(never)
    static func resolveFurther(
        _ container: any ManagedContainer, _ name: StaticString, _ factory: Own, _ once: Bool,
        _ pendingScope: ScopeName, _ manager: ContainerManager, _ parameters: P
    ) -> T {
        // The declaration's record, found without the lock: the same answers for a declaration the index does not
        // hold (a unique one with an override, a singleton read through a value naming no scope). A kept instance is read
        // before a value is made of the parts: making it retains what it holds.
        let record = manager.record(of: FactoryKey(type: T.self, name: name))
        let applied = record.map { pendingScope == .none || $0.hasApplied(pendingScope, once: once) } ?? false
        if applied, let instance = record?.keptInstance(T.self) { return instance }
        var registration = FactoryRegistration(name: name, container: container, factory: factory)
        (registration.once, registration.pendingScope) = (once, pendingScope)
        return registration.resolveFurther(applied ? record : nil, record, manager, parameters)
    }

    /// The kept instance of a declaration read through a value naming the singleton scope, from the index of the
    /// container of the singleton scope the task sees now (which holds this manager's item only if that scope is the
    /// declaration's); nil when it does not answer.
    @inlinable
    static func readSingleton(_ manager: ContainerManager, _ name: StaticString, _ once: Bool) -> T? {
        Scope.singleton.store.readDeclaration(
            T.self, owner: manager.number, type: ObjectIdentifier(T.self), name: name,
            word: ScopeName.readWord(.singleton, once: once))
    }

    /// `resolve(_:)` when neither the store's index nor the record's kept instance answers: the record's direct make
    /// (`direct`, the record when this value's scope property is applied), else under the lock.
    @inlinable
    func resolveFurther(
        _ direct: DeclarationRecord?, _ record: DeclarationRecord?, _ manager: ContainerManager, _ parameters: P
    ) -> T {
        if let direct, let made = makeDirectly(direct, manager, parameters) { return made }
        // What the resolve drops (an expired instance, one kept in the scope a property changed, a record replaced)
        // is released after the lock.
        let outermost = DependencyContainer.beginHoldingReleases()
        ResolutionLock.acquire()
        defer {
            ResolutionLock.release()
            DependencyContainer.endHoldingReleases(outermost)
        }
        applyPendingScope()
        return resolveLocked(record, manager, parameters)
    }

    /// Applies the scope a modifier property of this value named (see `pendingScope`), unless the declaration has it.
    @usableFromInline
    func applyPendingScope() {
        if pendingScope != .none { register(scope: pendingScope.scope) }
    }

    /// A unique instance made by this value's own factory, called here under the resolution lock and the cycle check,
    /// when the store's index said so at `generations` (no override, decorator, context or trace; the declaration
    /// answered in its store by its plain default alone) and they still hold; nil when they do not.
    ///
    /// Static, given the value's parts and the factory as a closure: as a method, or given the factory's enum, it had
    /// the caller copy the whole value.
    @inlinable
    @inline(never)
    static func makeOwnDirectly(
        _ generations: DirectGenerations, _ manager: ContainerManager, _ container: any ManagedContainer,
        _ key: FactoryKey, _ own: () -> T
    ) -> T? {
        // The lock and the cycle frames from one object (`ResolutionLock.acquire()` would reach it again).
        let diagnostics = Diagnostics.shared
        diagnostics.lockResolution()
        defer { diagnostics.unlockResolution() }
        // Both generations again, under the lock: the index answered before it was taken, and a change made in the
        // store meanwhile (a registration, a decorator, a collaborator) advances only the store's.
        guard generations.record == DeclarationRecordGeneration.current,
            generations.container == manager.plexus.answerGeneration, diagnostics.checksCycles
        else { return nil }
        return make(diagnostics, manager, container, key, own)
    }

    /// A unique instance made by calling the chosen factory here, under the resolution lock and the cycle check,
    /// when the record says the container would do nothing else (`DeclarationRecord.directGeneration`); nil when it
    /// does not.
    @inlinable
    func makeDirectly(_ record: DeclarationRecord, _ manager: ContainerManager, _ parameters: P) -> T? {
        guard let direct = record.directGeneration, direct == record.slot.store.answerGeneration,
            !DependencyContainer.isRecordingGraph
        else { return nil }
        let diagnostics = Diagnostics.shared
        diagnostics.lockResolution()
        defer { diagnostics.unlockResolution() }
        // Under the lock the options may be read; the record must still describe them. With the product's cycle check
        // off, only the slot's own check stops a declaration that comes back to itself: it goes through the slot.
        // The record being current also says that tracing is off (turning it on forgets the records): no trace line.
        guard record.generation == DeclarationRecordGeneration.current, let options = record.options,
            diagnostics.checksCycles, direct == record.slot.store.answerGeneration
        else {
            return resolveLocked(record, manager, parameters)
        }
        if let registered = options.registration as? Maker<P, T> {
            return Self.make(diagnostics, manager, container, key) { registered.make(parameters) }
        }
        switch factory {
        case .plain(let make): return Self.make(diagnostics, manager, container, key, make)
        case .taking(let make): return Self.make(diagnostics, manager, container, key) { make(parameters) }
        }
    }

    /// Calls `make` (an override, else the value's own factory), as the declaration's slot would: under the cycle check
    /// (untraced: a direct make happens only while tracing is off), in a scope of the thread's resolution graph, so
    /// that the `.graph` declarations it resolves share one instance. Call under the resolution lock.
    @inlinable
    static func make(
        _ diagnostics: Diagnostics, _ manager: ContainerManager, _ container: any ManagedContainer, _ key: FactoryKey,
        _ make: () -> T
    ) -> T {
        diagnostics.enterUntraced(manager, type(of: container), key: key)
        let scope = DependencyContainer.openDeclarationScope()
        let instance = make()
        do {
            try DependencyContainer.closeDeclarationScope(scope)
        } catch {
            diagnostics.stop(couldNotMake: T.self, error)
        }
        diagnostics.leave()
        return instance
    }

    /// `resolve(_:)` once the resolution lock is held: finds the options and slot (from `record` while it is
    /// current), takes the instance the scope keeps or makes one through the slot, runs the decorators, and
    /// publishes the declaration's record when it was missing or stale.
    @inlinable
    func resolveLocked(_ record: DeclarationRecord?, _ manager: ContainerManager, _ parameters: P) -> T {
        let generation = DeclarationRecordGeneration.current
        let options: ContainerManager.Options
        let slot: DeclarationSlot
        let publishes: Bool
        if let record, let known = record.options, record.generation == generation {
            // Nothing changed since the record was published: auto-registration ran, the options and slot are these.
            (options, slot, publishes) = (known, record.slot, false)
        } else {
            container.runAutoRegistrationIfNeeded()
            options = manager.declaration(key)
            let scope = options.scope ?? manager.state.defaultScope ?? Scope.unique
            slot = manager.slot(of: options, key: key, T.self, in: container, scope: scope, keeping: parameters)
            publishes = record?.generation != generation
        }

        let instance: T
        let made: Bool
        // Plexus's `.shared` is Factory's `.graph`: kept by the resolution graph, not in the slot.
        if slot.storage != .unique, slot.storage != .shared, !Diagnostics.shared.isTracing,
            let kept: T = slot.store.publishedDeclaration(at: slot.site)
        {
            // Kept by the scope: no factory runs, so neither a cycle nor a trace line can start here.
            (instance, made) = (kept, false)
        } else {
            let frame = Diagnostics.shared.enter(manager, type(of: container), key: key, type: T.self)
            (instance, made) = construct(parameters, options, slot)
            Diagnostics.shared.leave(frame, instance: instance, made: made, options)
        }
        // Published after the instance is made, so that the record can say where it is kept and whether the slot
        // answers alone; unless something changed the options meanwhile (a factory that registers).
        if publishes, DeclarationRecordGeneration.current == generation {
            manager.publishRecord(of: key, options, slot: slot)
        }

        if let decorator = options.decorator {
            (decorator as? Decorator<T>)?.body(instance, made)
        } else if let decorator = manager.state.decorator {
            decorator(instance)
        }
        return instance
    }

    /// Resolves the declaration's slot, whose factory calls the factory chosen here when the scope keeps no instance;
    /// returns the instance and whether that factory made it.
    @inlinable
    func construct(_ parameters: P, _ options: ContainerManager.Options, _ slot: DeclarationSlot) -> (T, Bool) {
        let chosen = chooseFactory(options, parameters)
        if P.self != Void.self, slot.storage == .unique, Diagnostics.shared.reentersUnchecked(key) {
            // A declaration with an argument calls itself (a recursion over its argument) with the cycle check off,
            // which Factory allows: the slot's own cycle check would stop it, and a unique instance needs no slot.
            // Without an argument, calling itself is a cycle, which the slot stops.
            return (chosen(), true)
        }
        let (instance, made) = FactoryHandOver.shared.making(
            { factory in
                do {
                    return try slot.store.resolveDeclaration(at: slot.site, scope: slot.storage, make: factory)
                } catch {
                    Diagnostics.shared.stop(couldNotMake: T.self, error)
                }
            }, make: chosen)
        if made, slot.storage != .unique, let optional = instance as? any OptionalType, optional.wrappedValue == nil {
            // Factory keeps no nil: the next resolve asks again.
            slot.store.dropDeclaredInstance(at: slot.site)
        }
        return (instance, made)
    }

    /// The factory this resolve uses, with its argument: a context alternative, else an override, else the
    /// declaration's own.
    @inlinable
    func chooseFactory(_ options: ContainerManager.Options, _ parameters: P) -> () -> T {
        if options.contexts != nil || options.argumentContexts != nil,
            let alternative = options.alternativeForCurrentContext() as? Maker<P, T>
        {
            return { alternative.make(parameters) }
        }
        if let registered = options.registration as? Maker<P, T> {
            return { registered.make(parameters) }
        }
        switch factory {
        case .plain(let make): return make
        case .taking(let make): return { make(parameters) }
        }
    }
}

extension FactoryRegistration {
    /// Changes this declaration's options, unless they were frozen by ``FactoryModifying/once()`` and this
    /// registration is not the one that froze them.
    func changeOptions(_ change: (ContainerManager.Options) -> Void) {
        applyPendingScope()
        ResolutionLock.withLock {
            container.runAutoRegistrationIfNeeded()
            let options = container.manager.declaration(key)
            guard options.once == once else { return }
            change(options)
        }
    }

    /// Registers an override; outside auto-registration it also drops the instance the scope keeps.
    func register(_ make: @escaping (P) -> T) {
        let factory = Maker(make: make)
        applyPendingScope()
        ResolutionLock.withLock {
            container.runAutoRegistrationIfNeeded()
            let manager = container.manager
            let known = manager.options[key] != nil
            let options = manager.declaration(key)
            guard !known || options.once == once else { return }
            // The override replaced (and what it captures) is released after the lock.
            DependencyContainer.holdRelease(of: options.registration)
            options.registration = factory
            if known, !manager.isAutoRegistering {
                manager.dropSingletonMadeElsewhere(of: key, T.self)
                manager.dropInstances(of: key)
            }
        }
    }

    /// Sets the scope; the next resolve moves the declaration to it (see `ContainerManager.slot`).
    @inlinable
    func register(scope: Scope?) {
        // Every `scope(_:)` comes here, and a scope property's first use (see `applyPendingScope`): when the record says
        // the scope is applied already (or frozen by `once()`), there is nothing to do, and nothing to lock.
        if container.manager.scopeIsApplied(of: key, scope: scope.map(ObjectIdentifier.init), once: once) { return }
        ResolutionLock.acquire()
        defer { ResolutionLock.release() }
        container.runAutoRegistrationIfNeeded()
        let manager = container.manager
        if let options = manager.options[key] {
            guard options.once == once, options.scope !== scope else { return }
            options.scope = scope
        } else {
            manager.declaration(key).scope = scope
        }
    }

    /// Registers an alternative for a context.
    func register(context: FactoryContextType, _ make: @escaping (P) -> T) {
        let factory = Maker(make: make)
        changeOptions { options in
            switch context {
            case .arg(let argument):
                options.argumentContexts = (options.argumentContexts ?? [:]).merging([argument: factory]) { $1 }
            case .args(let arguments):
                var table = options.argumentContexts ?? [:]
                for argument in arguments { table[argument] = factory }
                options.argumentContexts = table
            default:
                options.contexts = (options.contexts ?? [:]).merging([context.name: factory]) { $1 }
            }
        }
    }

    /// Drops what `options` names from this declaration.
    func reset(_ options: FactoryResetOptions) {
        guard options != .none else { return }
        applyPendingScope()
        var dropped: Any?
        defer { withExtendedLifetime(dropped) {} }
        ResolutionLock.withLock {
            let manager = container.manager
            switch options {
            case .all:
                manager.dropSingletonMadeElsewhere(of: key, T.self)
                manager.forget(key)
                // Moved out of the table before it is released (after the lock): see `Sendability.swift`.
                dropped = manager.options.removeValue(forKey: key)
            case .context:
                dropped = manager.options[key]?.takeContexts()
            case .registration:
                dropped = manager.options[key]?.takeRegistration()
            case .scope:
                manager.dropSingletonMadeElsewhere(of: key, T.self)
                manager.dropInstances(of: key)
            case .none:
                break
            }
        }
    }
}

extension ContainerManager.Options {
    /// The alternative the current context selects: a launch or runtime argument first, then preview, test,
    /// simulator, device, debug.
    @usableFromInline
    func alternativeForCurrentContext() -> AnyObject? {
        guard argumentContexts?.isEmpty == false || contexts?.isEmpty == false else { return nil }
        let context = FactoryContext.current
        if let argumentContexts, !argumentContexts.isEmpty {
            for argument in context.arguments {
                if let found = argumentContexts[argument] { return found }
            }
            for argument in context.runtimeArguments.values {
                if let found = argumentContexts[argument] { return found }
            }
        }
        guard let contexts, !contexts.isEmpty else { return nil }
        if context.isPreview, let found = contexts["preview"] { return found }
        if context.isTest, let found = contexts["test"] { return found }
        if context.isSimulator, let found = contexts["simulator"] { return found }
        if !context.isSimulator, let found = contexts["device"] { return found }
        #if DEBUG
            if let found = contexts["debug"] { return found }
        #endif
        return nil
    }
}

/// A factory kept in a manager's options, boxed so its type is recovered with one cast whatever `P` is (a
/// `() -> T` and a `(Void) -> T` do not cast to each other).
@usableFromInline
final class Maker<P, T> {
    @usableFromInline let make: (P) -> T
    init(make: @escaping (P) -> T) { self.make = make }
}

/// A declaration's decorator, boxed for the same reason.
@usableFromInline
final class Decorator<T> {
    @usableFromInline let body: (T, Bool) -> Void
    init(body: @escaping (T, Bool) -> Void) { self.body = body }
}

/// The built-in scopes a modifier property names, as a byte the value carries: reading a scope's `static let`
/// (or the task-local singleton scope) on every read of a declaration costs more than the check it feeds.
@usableFromInline
enum ScopeName: UInt8 {
    case none, unique, cached, graph, shared, singleton

    /// How a scope modifier property names `scope`; `none` when none does (a custom scope, no scope). Every singleton
    /// scope, a clone too, is `.singleton`: `DeclarationRecord.hasApplied` compares a singleton's identity.
    static func name(of scope: Scope?) -> ScopeName {
        switch scope {
        case let scope? where scope === Scope.unique: .unique
        case let scope? where scope === Scope.cached: .cached
        case let scope? where scope === Scope.graph: .graph
        case let scope? where scope === Scope.shared: .shared
        case let scope? where scope is Scope.Singleton: .singleton
        default: .none
        }
    }

    /// The word a declaration value reads its store's index of declarations with: the scope its property named and
    /// its `once`, below 16 (see `DeclarationRecord.acceptedReadWords`).
    @inlinable
    static func readWord(_ pending: ScopeName, once: Bool) -> Int {
        Int(pending.rawValue | (once ? onceBit : 0))
    }

    /// The bits of a read word that name the scope (every case's raw value is below 8).
    @inlinable static var mask: UInt8 { 7 }

    /// The bit of a read word that says the value was made `once()`.
    @inlinable static var onceBit: UInt8 { 8 }

    /// The scope object, read when the scope is applied.
    var scope: Scope? {
        switch self {
        case .none: nil
        case .unique: Scope.unique
        case .cached: Scope.cached
        case .graph: Scope.graph
        case .shared: Scope.shared
        case .singleton: Scope.singleton
        }
    }
}
