/// How to make instances of `T` from runtime arguments `U`: the factory, its scope and its property hooks.
///
/// `register` returns a definition; its methods are chainable and may be called right after registering:
///
/// ```swift
/// container.register { ListPresenter(interactor: try container.resolve()) }
///     .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
///     .implements(ListPresenterInput.self, ListViewOutput.self)
/// ```
///
/// `U` is `Void` for a factory without arguments, the argument's type for one, and a tuple for several.
/// A definition is a reference: changing it after registration changes it in every container it was
/// registered with. It is `Sendable` and may be changed from any thread, though configuring definitions while
/// other threads resolve them gives no guarantee about which resolutions see the change.
public final class Definition<T, U>: Sendable {
    /// How long instances live.
    public let scope: ComponentScope
    let factory: @Sendable (U) throws -> T
    /// Resolves the factory's arguments from a container for auto-wiring; `nil` when there are none.
    let autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?) throws -> U)?
    /// The number of runtime arguments the factory takes.
    let argumentCount: Int
    let state: Protected<DefinitionState<T>>

    init(
        scope: ComponentScope,
        argumentCount: Int,
        factory: @escaping @Sendable (U) throws -> T,
        autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?) throws -> U)?
    ) {
        self.scope = scope
        self.argumentCount = argumentCount
        self.factory = factory
        self.autoWire = autoWire
        self.state = Protected(DefinitionState())
    }

    /// Adds a hook that sets properties of each new instance, for example the back-reference of a cycle.
    ///
    /// Hooks run in the order added, after the instance's factory has returned and the instance is cached in its
    /// scope, deferred until the outermost factory of the resolution graph has returned. The container passed to
    /// the hook is the one that owns this definition.
    ///
    /// - Parameter block: Sets the properties; errors it throws propagate out of the outermost `resolve`.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func resolvingProperties(
        _ block: @escaping @Sendable (DependencyContainer, T) throws -> Void
    ) -> Definition {
        update { $0.hooks.append(block) }
    }

    /// Turns auto-injection of `@Injected` / `@InjectedWeak` properties on or off for this definition,
    /// overriding the container's `autoInjectProperties` setting.
    /// - Parameter flag: Whether to auto-inject instances of this definition.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func autoInjectingProperties(_ flag: Bool = true) -> Definition {
        update { $0.autoInjects = flag }
    }

    /// Applies a change to the definition's state and republishes it to every container it is registered with.
    @discardableResult
    func update(_ change: (inout DefinitionState<T>) -> Void) -> Definition {
        state.withLock { state in
            change(&state)
            state.recipe = Recipe(hooks: state.hooks, autoInjects: state.autoInjects)
            state.registrations.removeAll { $0.container == nil }
            for registration in state.registrations {
                registration.container?.refresh(self, recipe: state.recipe)
            }
        }
        return self
    }
}

/// A container that a definition has been registered with, held weakly.
struct WeakContainer {
    weak var container: DependencyContainer?
}

/// The mutable part of a definition, only touched under its lock.
struct DefinitionState<T> {
    var hooks: [@Sendable (DependencyContainer, T) throws -> Void] = []
    var autoInjects: Bool?
    var forwards: [Forward] = []
    var registrations: [WeakContainer] = []
    /// The immutable snapshot the containers use while resolving.
    var recipe = Recipe<T>(hooks: [], autoInjects: nil)
}

/// What a container needs to finish an instance after its factory returned; immutable, replaced on change.
final class Recipe<T>: Sendable {
    let hooks: [@Sendable (DependencyContainer, T) throws -> Void]
    let autoInjects: Bool?

    init(hooks: [@Sendable (DependencyContainer, T) throws -> Void], autoInjects: Bool?) {
        self.hooks = hooks
        self.autoInjects = autoInjects
    }
}
