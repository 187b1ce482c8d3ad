internal import PlexusCore

/// How to make instances of `T` from runtime arguments `U`: the factory, its scope and its property hooks.
///
/// `register` returns a definition; its methods are chainable and may be called right after registering:
///
/// ```swift
/// container.register { c in ListPresenter(interactor: try c.resolve()) }
///     .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
///     .implements(ListPresenterInput.self, ListViewOutput.self)
/// ```
///
/// `U` is `Void` for a factory without arguments, the argument's type for one, and a tuple for several.
/// A definition is a reference: changing it after registration changes it in every container it was
/// registered with. It is `Sendable` and may be changed from any thread, though configuring definitions while
/// other threads resolve them gives no guarantee about which resolutions see the change.
///
/// A definition is its own ``Blueprint``: registering it keeps no other object for its factory.
public final class Definition<T, U>: Blueprint, @unchecked Sendable {
    /// The definition's factory and scope, as the engine reads them: the definition itself.
    var blueprint: Blueprint { self }
    /// The mutable part, in the definition itself: only read and changed inside `state.withLock`.
    /// Unchecked for overlapping accesses: the shared lock orders every access.
    @exclusivity(unchecked) fileprivate nonisolated(unsafe) var stateValue = DefinitionState()
    /// The definition's mutable part, under the lock all definitions share (`DefinitionStateLock`).
    var state: DefinitionStateLock<T, U> { DefinitionStateLock(definition: self) }
    /// Where `register` was called: read by graph reports and error messages, never on the resolve path.
    let site: CallSite?

    /// A definition made of `parts`, registered at `site`.
    @usableFromInline
    init(_ parts: Parts, site: CallSite? = nil) {
        self.site = site
        super.init(parts, isMadeByPlexus: false)
    }

    /// A definition made of what `blueprint` is made of, registered at `site`. Not of a declared default, whose
    /// factory reads its own blueprint.
    convenience init(blueprint: Blueprint, site: CallSite? = nil) {
        precondition(
            Swift.type(of: blueprint) == Blueprint.self || !blueprint.isMadeByPlexus,
            "a declared default's factory is bound to its blueprint")
        self.init(blueprint.parts, site: site)
    }

    /// Adds a hook that sets properties of each new instance, for example the back-reference of a cycle.
    ///
    /// Hooks run in the order added, after the instance's factory has returned and the instance is cached in its
    /// scope, deferred until the outermost factory of the resolution graph has returned. The container passed to
    /// the hook is the one that owns this definition.
    ///
    /// A definition is resolvable as soon as `register` returns, before this hook is added: add hooks before other
    /// threads may resolve the key, or a resolve in between makes an instance without them. To replace a definition
    /// while other threads resolve it, complete the new one first and register it in one step:
    ///
    /// ```swift
    /// let presenter = DependencyContainer().register { Presenter() }
    ///     .resolvingProperties { c, p in p.view = try c.resolve() }
    /// container.register(presenter)   // resolvable only now, with its hook
    /// ```
    ///
    /// - Parameter block: Sets the properties; errors it throws propagate out of the outermost `resolve`.
    /// - Returns: This definition, for chaining.
    @inlinable
    @discardableResult
    public func resolvingProperties(
        _ block: @escaping @Sendable (DependencyContainer, T) throws -> Void
    ) -> Definition {
        // Inlinable so that the cast below is specialized where `T` is known.
        addHook { container, instance in
            if let instance = cast(instance, to: T.self) { try block(container, instance) }
        }
    }

    /// Appends a type-erased property hook.
    @usableFromInline
    @discardableResult
    func addHook(_ hook: @escaping Hook) -> Definition {
        update { $0.hooks.append(hook) }
    }

    /// Turns auto-injection of `@Injected` / `@InjectedWeak` properties on or off for this definition,
    /// overriding the container's `autoInjectProperties` setting.
    ///
    /// On a definition returned by ``DependencyContainer/register(_:type:tag:)`` it has no effect (its instances are
    /// made, and injected, by the original definition): it logs an error saying to call it on the original.
    /// - Parameter flag: Whether to auto-inject instances of this definition.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func autoInjectingProperties(_ flag: Bool = true) -> Definition {
        if state.withLock({ $0.linkedHooks != nil }) {
            log(
                .errors,
                "Plexus: autoInjectingProperties(\(flag)) on the definition that register(_:type:tag:) returned for "
                    + "\(typeName(T.self)) has no effect: its instances are the original definition's; call it on that "
                    + "definition.")
            return self
        }
        return update { $0.autoInjects = flag }
    }

    /// Applies a change to the definition's state and republishes it to every container it is registered with.
    @discardableResult
    func update(_ change: (inout DefinitionState) -> Void) -> Definition {
        // Released after the lock: a `deinit` is user code, which may register or configure definitions.
        var released: [Recipe] = []
        defer { withExtendedLifetime(released) {} }
        state.withLock { state in
            change(&state)
            state.recipe = Recipe(
                hooks: state.hooks, autoInjects: state.autoInjects, needsMainActor: state.hooksNeedMainActor)
            // A definition returned by `register(_:type:tag:)`: its hooks run through the forwarding it stands for.
            if let linkedHooks = state.linkedHooks {
                let hooks = state.hooks
                linkedHooks.withLock { $0 = hooks }
            }
            released += state.registrations.refresh(self, recipe: state.recipe, others: state.otherRegistries)
        }
        return self
    }
}

/// Access to a definition's mutable part. One lock serves every definition: a lock of its own would be two heap blocks
/// per definition, and definitions change only while they are registered or configured, never
/// while they resolve. The lock is only ever taken before a container's registry lock, never inside one, and never
/// for two definitions at once.
struct DefinitionStateLock<T, U> {
    let definition: Definition<T, U>

    /// Runs `body` with exclusive access to the definition's state.
    func withLock<R>(_ body: (inout DefinitionState) throws -> R) rethrows -> R {
        try definitionStates.withLock { _ in try body(&definition.stateValue) }
    }

    /// `withLock(_:)`, or, when the definition is `fresh` (just made by a caller that has not handed it out, so no
    /// other thread can reach it), `body` on its state without the lock.
    func withLock<R>(unlessFresh fresh: Bool, _ body: (inout DefinitionState) throws -> R) rethrows -> R {
        guard fresh else { return try withLock(body) }
        return try body(&definition.stateValue)
    }
}

/// The lock of every definition's state (`DefinitionStateLock`). It guards no value of its own; it holds a byte,
/// since a value of zero size would share its address with the lock itself, and ThreadSanitizer would see every
/// access to it race with the lock's own memory.
private let definitionStates = Protected(UInt8(0))

/// A container held weakly (collaborators, routes).
struct WeakContainer {
    weak var container: DependencyContainer?
}

/// A property hook with the instance type-erased.
@usableFromInline
typealias Hook = @Sendable (DependencyContainer, Any) throws -> Void

/// The mutable part of a definition, only touched under its lock. What only some definitions use (hooks, an
/// auto-injection setting, forwarding, its recipe, a second container) lives in `extras`, made on first use, so that a
/// plain registration keeps two words here.
struct DefinitionState {
    /// The registries of the containers it is registered with: the first here, the others (`otherRegistries`) in
    /// `extras`.
    private(set) var registrations = Registrations()
    private var extras: DefinitionExtras?

    /// The immutable snapshot the containers use while resolving; shared by every definition without hooks.
    var recipe: Recipe {
        get { extras?.recipe ?? Recipe.plain }
        set { changingExtras.recipe = newValue }
    }
    /// The registries after the first (`Registrations`).
    var otherRegistries: Registrations.Others? { extras?.otherRegistries }

    /// Records the registry of `container` (`Registrations.add`); returns whether the definition was never
    /// registered there.
    mutating func addRegistration(of container: DependencyContainer) -> Bool {
        if let extras { return registrations.add(container, others: &extras.otherRegistries) }
        var others: Registrations.Others?
        let isNew = registrations.add(container, others: &others)
        if let others { changingExtras.otherRegistries = others }
        return isNew
    }

    var hooks: [Hook] {
        get { extras?.hooks ?? [] }
        set { changingExtras.hooks = newValue }
    }
    var autoInjects: Bool? {
        get { extras?.autoInjects }
        set { changingExtras.autoInjects = newValue }
    }
    var forwards: [Forward] {
        get { extras?.forwards ?? [] }
        set { changingExtras.forwards = newValue }
    }
    /// What a definition returned by `register(_:type:tag:)` links to.
    var link: ForwardingLink? {
        get { extras?.link }
        set { changingExtras.link = newValue }
    }
    /// Whether a hook is `@MainActor` code: an async resolve then runs the graph's hooks on the main actor.
    var hooksNeedMainActor: Bool {
        get { extras?.hooksNeedMainActor ?? false }
        set { changingExtras.hooksNeedMainActor = newValue }
    }
    /// For a definition returned by `register(_:type:tag:)`: where its hooks go, and where `implements` on it
    /// sends its forwarding registrations (to the definition it was made from).
    var linkedHooks: Protected<[Hook]>? { link?.hooks }
    var relay: (@Sendable (Forward) -> Void)? { link?.relay }
    /// For a definition returned by `register(_:type:tag:)`: registering it in a container (under a tag) adds
    /// another forwarding registration of the definition it was made from, sharing that definition's instances,
    /// instead of a definition of its own with a second cache.
    var registerAsForwarding: (@Sendable (DependencyContainer, DependencyContainer.Tag?) -> Void)? {
        link?.registerAsForwarding
    }

    /// `extras`, made if needed. The state is never copied (it lives in its definition), so changing the object
    /// in place changes this state only.
    private var changingExtras: DefinitionExtras {
        mutating get {
            if let extras { return extras }
            let made = DefinitionExtras()
            extras = made
            return made
        }
    }
}

/// The rarely used part of a definition's state (`DefinitionState`).
private final class DefinitionExtras {
    var recipe = Recipe.plain
    var otherRegistries: Registrations.Others?
    var hooks: [Hook] = []
    var autoInjects: Bool?
    var forwards: [Forward] = []
    var link: ForwardingLink?
    var hooksNeedMainActor = false
}

/// What a definition returned by `register(_:type:tag:)` stands for: the hooks it adds to the forwarding, where
/// `implements` on it goes, and how registering it again adds another forwarding.
final class ForwardingLink: Sendable {
    let hooks: Protected<[Hook]>
    let relay: @Sendable (Forward) -> Void
    let registerAsForwarding: @Sendable (DependencyContainer, DependencyContainer.Tag?) -> Void

    init(
        hooks: Protected<[Hook]>, relay: @escaping @Sendable (Forward) -> Void,
        registerAsForwarding: @escaping @Sendable (DependencyContainer, DependencyContainer.Tag?) -> Void
    ) {
        self.hooks = hooks
        self.relay = relay
        self.registerAsForwarding = registerAsForwarding
    }
}

/// What a container needs to finish an instance after its factory returned; immutable, replaced on change.
final class Recipe: Sendable {
    let hooks: [Hook]
    let autoInjects: Bool?
    /// The decorators registered in the owning container for the slot's key, applied right after the
    /// factory; per slot, so a definition registered in several containers is decorated in each separately.
    let decorators: Decorators?
    /// Whether a hook is `@MainActor` code.
    let needsMainActor: Bool

    /// The recipe of a definition without hooks, decorators or an auto-injection setting: one for all of them.
    static let plain = Recipe(hooks: [], autoInjects: nil)

    init(hooks: [Hook], autoInjects: Bool?, decorators: Decorators? = nil, needsMainActor: Bool = false) {
        self.hooks = hooks
        self.autoInjects = autoInjects
        self.decorators = decorators
        self.needsMainActor = needsMainActor
    }

    /// The same recipe with other decorators.
    func with(decorators: Decorators?) -> Recipe {
        decorators === self.decorators
            ? self
            : Recipe(hooks: hooks, autoInjects: autoInjects, decorators: decorators, needsMainActor: needsMainActor)
    }
}
