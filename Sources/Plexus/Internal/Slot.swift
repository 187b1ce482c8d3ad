/// One definition as registered in one container: the scope cache lives here, so instances are cached per
/// definition (and per container), never per requested key.
///
/// Every `var` of a slot is read and written only while the owning container's registry lock is held; the slot
/// never runs user code under that lock. The only implementation is `Slot<T, U>`; this protocol is its
/// type-erased face for the registry's indexes.
protocol AnySlot: AnyObject {
    var scope: ComponentScope { get }
    /// The key the definition was first registered under in this container; names it in messages.
    var key: DefinitionKey { get }
    /// Registration order in the container, for `bootstrap` and `validate`.
    var order: Int { get }
    /// The definition object, for identity checks.
    var definitionObject: AnyObject { get }
    /// The number of runtime arguments the factory takes.
    var argumentCount: Int { get }

    /// Resolves with type-erased arguments; returns `nil` if `arguments` do not have the factory's argument type.
    func resolveErased(
        arguments: Any, requested: DefinitionKey, owner: DependencyContainer, forward: Forward?,
        graph: ResolutionGraph
    ) throws -> Any?

    /// Resolves by auto-wiring the factory's arguments from the owner, passing the requested tag down.
    func resolveAutoWired(
        requested: DefinitionKey, owner: DependencyContainer, forward: Forward?, graph: ResolutionGraph
    ) throws -> Any

    /// Publishes the value built under `pending` as the singleton. Called under the owner's lock.
    func commit(_ pending: Pending)
    /// Forgets the construction in progress without publishing it. Called under the owner's lock; returns the
    /// instance it dropped, to be released after the lock (its `deinit` is user code).
    func rollBack(_ pending: Pending) -> Any?
    /// Replaces the hooks snapshot. Called under the owner's lock.
    func refresh(recipe: AnyObject)
}

/// A singleton under construction by one resolution graph. Other graphs wait on `latch` until it is committed
/// or rolled back.
final class Pending: Sendable {
    /// The graph constructing it.
    let owner: ObjectIdentifier
    /// The slot whose factory runs.
    let slot: ObjectIdentifier
    /// The requested key, for cycle paths.
    let key: DefinitionKey
    let latch = Latch()

    init(owner: ObjectIdentifier, slot: ObjectIdentifier, key: DefinitionKey) {
        self.owner = owner
        self.slot = slot
        self.key = key
    }
}

/// What a slot says, under its container's lock, when asked for an instance.
enum Acquisition<T> {
    /// A singleton already made, or one made earlier in the same graph.
    case cached(T)
    /// Call the factory. `claim` is set when this graph now constructs the singleton.
    case create(Recipe<T>, claim: Pending?, typeInfo: TypeInfo?)
    /// Another graph is constructing the singleton.
    case wait(Pending)
}

final class Slot<T, U>: AnySlot {
    let scope: ComponentScope
    let key: DefinitionKey
    let order: Int
    let definition: Definition<T, U>
    var recipe: Recipe<T>
    /// The singleton being constructed, if any.
    var pending: Pending?
    /// The value of `pending` once its factory returned, visible to its own graph before the commit.
    var pendingValue: T?
    /// The singleton; for `.weakSingleton`, see `weakInstance`.
    var instance: T?
    weak var weakInstance: AnyObject?
    /// What the last instance's dynamic type needs after creation (Resolvable, auto-injection).
    var typeInfo: TypeInfo?

    init(definition: Definition<T, U>, recipe: Recipe<T>, key: DefinitionKey, order: Int) {
        self.definition = definition
        self.recipe = recipe
        self.scope = definition.scope
        self.key = key
        self.order = order
    }

    var definitionObject: AnyObject { definition }
    var argumentCount: Int { definition.argumentCount }

    func refresh(recipe: AnyObject) {
        if let recipe = recipe as? Recipe<T> { self.recipe = recipe }
    }

    /// Decides how to get an instance. Must be called under the owner's lock.
    func acquire(_ requested: DefinitionKey, graph: ResolutionGraph) -> Acquisition<T> {
        switch scope {
        case .unique, .shared:
            return .create(recipe, claim: nil, typeInfo: typeInfo)
        case .singleton, .eagerSingleton, .weakSingleton:
            if let instance { return .cached(instance) }
            if let object = weakInstance, let instance = object as? T { return .cached(instance) }
            if let pending {
                if pending.owner == graph.id, let pendingValue { return .cached(pendingValue) }
                return .wait(pending)
            }
            let claim = Pending(owner: graph.id, slot: ObjectIdentifier(self), key: requested)
            pending = claim
            return .create(recipe, claim: claim, typeInfo: typeInfo)
        }
    }

    /// Resolves an instance, starting from what `acquire` said under the lock. `arguments` is only called when
    /// the factory must run.
    func resolve(
        _ first: Acquisition<T>,
        arguments: () throws -> U,
        requested: DefinitionKey,
        owner: DependencyContainer,
        forward: Forward?,
        graph: ResolutionGraph
    ) throws -> T {
        var acquisition = first
        while true {
            switch acquisition {
            case .cached(let instance):
                return instance
            case .wait(let pending):
                if let cyclePath = try graph.wait(for: pending, requested: requested, slot: self) {
                    // Waiting would deadlock. If the factory already returned, use the instance whose hooks the
                    // other graph is still running rather than hang; if it is still running, it is a
                    // constructor cycle across threads.
                    if let value = owner.registry.withLock({ _ in pending === self.pending ? pendingValue : nil }) {
                        return value
                    }
                    throw ResolutionError.circularDependency(path: cyclePath)
                }
                acquisition = owner.registry.withLock { _ in acquire(requested, graph: graph) }
            case .create(let recipe, let claim, let typeInfo):
                if scope == .shared, let instance = graph.sharedInstance(of: self) as? T {
                    return instance
                }
                return try create(
                    recipe: recipe, claim: claim, typeInfo: typeInfo, arguments: arguments,
                    requested: requested, owner: owner, forward: forward, graph: graph)
            }
        }
    }

    private func create(
        recipe: Recipe<T>,
        claim: Pending?,
        typeInfo cachedInfo: TypeInfo?,
        arguments: () throws -> U,
        requested: DefinitionKey,
        owner: DependencyContainer,
        forward: Forward?,
        graph: ResolutionGraph
    ) throws -> T {
        let instance: T
        let context: DependencyContainer.Context
        do {
            context = try graph.enterFactory(of: self, requested: requested)
            defer { graph.leaveFactory() }
            // Inside the frame, so that auto-wired arguments that lead back here are reported as a cycle.
            instance = try definition.factory(arguments())
        } catch {
            if let claim {
                let dropped = owner.registry.withLock { _ in rollBack(claim) }
                claim.latch.open()
                withExtendedLifetime(dropped) {}
            }
            throw error
        }

        switch scope {
        case .unique:
            break
        case .shared:
            graph.storeShared(instance, of: self)
        case .singleton, .eagerSingleton, .weakSingleton:
            if let claim {
                owner.registry.withLock { _ in
                    if pending === claim { pendingValue = instance }
                }
                graph.willCommit(claim, slot: self, owner: owner)
            }
        }

        let info: TypeInfo
        if let cachedInfo, cachedInfo.matches(instance) {
            info = cachedInfo
        } else {
            info = TypeInfo.of(instance)
            owner.registry.withLock { _ in typeInfo = info }
        }
        let autoInjects = info.hasInjectedProperties && (recipe.autoInjects ?? owner.autoInjectProperties)
        if !recipe.hooks.isEmpty || autoInjects || info.isResolvable || forward?.hooks.isEmpty == false {
            graph.defer(
                DeferredHooks(
                    instance: instance, recipe: recipe, autoInjects: autoInjects, isResolvable: info.isResolvable,
                    forward: forward, owner: owner, context: context))
        }
        return instance
    }

    func commit(_ pending: Pending) {
        guard self.pending === pending else { return }
        self.pending = nil
        guard let value = pendingValue else { return }
        pendingValue = nil
        if scope == .weakSingleton {
            weakInstance = value as AnyObject
        } else {
            instance = value
        }
    }

    func rollBack(_ pending: Pending) -> Any? {
        guard self.pending === pending else { return nil }
        self.pending = nil
        defer { pendingValue = nil }
        return pendingValue
    }

    func resolveErased(
        arguments: Any, requested: DefinitionKey, owner: DependencyContainer, forward: Forward?,
        graph: ResolutionGraph
    ) throws -> Any? {
        guard let arguments = arguments as? U else { return nil }
        let first = owner.registry.withLock { _ in acquire(requested, graph: graph) }
        return try resolve(
            first, arguments: { arguments }, requested: requested, owner: owner, forward: forward, graph: graph)
    }

    func resolveAutoWired(
        requested: DefinitionKey, owner: DependencyContainer, forward: Forward?, graph: ResolutionGraph
    ) throws -> Any {
        guard let autoWire = definition.autoWire else {
            throw ResolutionError.definitionNotFound(key: requested)
        }
        let first = owner.registry.withLock { _ in acquire(requested, graph: graph) }
        return try resolve(
            first,
            arguments: {
                do {
                    return try autoWire(owner, requested.tag)
                } catch {
                    throw ResolutionError.autoWiringFailed(type: requested.type, underlyingError: error)
                }
            },
            requested: requested, owner: owner,
            forward: forward, graph: graph)
    }
}

/// The property work due on a new instance, queued until the outermost factory of the graph has returned.
struct DeferredHooks {
    let run: (ResolutionGraph) throws -> Void
    /// The context of the instance's resolution, restored while its hooks run.
    let context: DependencyContainer.Context

    init<T>(
        instance: T,
        recipe: Recipe<T>,
        autoInjects: Bool,
        isResolvable: Bool,
        forward: Forward?,
        owner: DependencyContainer,
        context: DependencyContainer.Context
    ) {
        self.context = context
        self.run = { graph in
            if autoInjects {
                try AutoInjector.inject(into: instance, container: owner, graph: graph)
            }
            for hook in recipe.hooks {
                try hook(owner, instance)
            }
            if let forward {
                for hook in forward.hooks { try hook(owner, instance) }
            }
            if isResolvable, let resolvable = instance as? Resolvable {
                resolvable.resolveDependencies(owner)
                graph.didResolve(resolvable)
            }
        }
    }
}
