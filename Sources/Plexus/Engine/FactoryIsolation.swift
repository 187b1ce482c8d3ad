import Dispatch
internal import PlexusCore

/// Where a definition's factory can run.
@usableFromInline
enum FactoryIsolation: Sendable {
    /// A synchronous factory: runs anywhere, in any resolve.
    case none
    /// An `async` factory: only an async resolve can run it.
    case async
    /// A synchronous `@MainActor` factory: runs in a synchronous resolve on the main thread; an async resolve hops
    /// to the main actor to run it.
    case mainActor
}

/// The factory of an `async` or `@MainActor` definition as the async resolve calls it.
@usableFromInline
struct AwaitableFactory: Sendable {
    /// Makes the instance from the runtime arguments (`Any` holding the factory's argument tuple), inside `graph`.
    let run: @Sendable (_ arguments: Any, _ graph: GraphToken) async throws -> Any
    /// Resolves the factory's arguments with the async resolve (auto-wiring), as their tuple; `nil` if it takes none.
    let autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?) async throws -> Any)?
}

/// A task's resolution graph handed to code that runs on the main actor while the task waits for it.
// `@unchecked Sendable`: the graph is only touched by the task resolving with it, one step at a time; while that
// task awaits a `@MainActor` factory, the main actor's code is the only one touching it.
struct GraphToken: @unchecked Sendable {
    let graph: ResolutionGraph
}

/// A `@MainActor` factory's runtime arguments on their way to the main actor, or its instance on the way back to
/// the async resolve that asked for it.
// `@unchecked Sendable`: the arguments were given to this resolve to be handed to the factory, and the caller waits
// while the factory runs; a `@MainActor` factory's instance is usually main-actor isolated (then `Sendable` anyway),
// and Plexus only passes it through to its caller, as a synchronous resolve on the main actor would.
struct MainActorHandOver<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Whether the caller runs on the main actor: on the main thread, or in a job of the main dispatch queue, which is
/// where the main actor runs its jobs (on Linux, test runners drain it on another thread than the process's first).
var isMainThread: Bool {
    CurrentThread.isProcessMain || DispatchQueue.getSpecific(key: mainQueueMarker) == true
}

/// Marks the main dispatch queue, so that code can tell it runs there (set once, by the lazy global initializer).
private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

extension Blueprint {
    /// Erases an `async` factory taking any number of arguments. The synchronous `factory` is never called: the
    /// isolation check (Slot+Isolation.swift) stops a synchronous resolve before it.
    static func makeAsync<T, each A>(
        scope: ComponentScope,
        factory: @escaping @Sendable (repeat each A) async throws -> T
    ) -> Blueprint {
        let plain = Blueprint.make(scope: scope, type: T.self) { (_: repeat each A) throws -> T in
            throw ResolutionError.requiresAwait(
                key: DefinitionKey(type: T.self, typeOfArguments: (repeat each A).self, tag: nil))
        }
        let async = AwaitableFactory.make(T.self, argumentCount: plain.argumentCount) {
            (_: GraphToken, arguments: repeat each A) in try await factory(repeat each arguments)
        }
        return plain.with(isolation: .async, asyncFactory: async)
    }

    /// Erases a synchronous `@MainActor` factory: the synchronous `factory` runs it in place on the main thread
    /// (the isolation check has made sure of that), the async one hops to the main actor.
    static func makeMainActor<T, each A>(
        scope: ComponentScope,
        factory: @escaping @MainActor @Sendable (repeat each A) throws -> T
    ) -> Blueprint {
        let plain = Blueprint.make(scope: scope, type: T.self) { (arguments: repeat each A) throws -> T in
            nonisolated(unsafe) var made: T?
            // Checked by the caller: this is the main thread. The arguments and the result stay on it.
            let passed = MainActorHandOver((repeat each arguments))
            try MainActor.assumeIsolated {
                let arguments = passed.value
                made = try factory(repeat each arguments)
            }
            guard let made else {
                throw ResolutionError.requiresMainActor(
                    key: DefinitionKey(type: T.self, typeOfArguments: (repeat each A).self, tag: nil))
            }
            return made
        }
        let async = AwaitableFactory.make(T.self, argumentCount: plain.argumentCount) {
            (token: GraphToken, arguments: repeat each A) in
            let passed = MainActorHandOver((repeat each arguments))
            let result = try await MainActor.run {
                let arguments = passed.value
                return try token.graph.installed { MainActorHandOver<Any>(try factory(repeat each arguments)) }
            }
            return result.value
        }
        return plain.with(isolation: .mainActor, asyncFactory: async)
    }

    /// The blueprint of a ``MainActorFactory``'s declared default: `makeMainActor(scope:factory:)`'s, making each
    /// instance of a synchronous resolve with `declared` (specialized by the accessor's caller) from the factory
    /// called as a plain function (`MainActorAccessorCore.plain`).
    static func makeMainActor<T>(
        scope: ComponentScope, factory: @escaping @MainActor @Sendable () throws -> T,
        declared: DeclaredFactory<T>
    ) -> Blueprint {
        DeclaredBlueprint(
            scope: scope, declared: MainActorAccessorCore.plain(factory), factory: declared, isolation: .mainActor,
            asyncFactory: makeMainActor(scope: scope, factory: factory).asyncFactory)
    }

    /// This blueprint with another isolation and async factory. Only for a plain blueprint: the factory of a
    /// `DeclaredBlueprint` reads the declared factory from its own blueprint.
    private func with(isolation: FactoryIsolation, asyncFactory: AwaitableFactory) -> Blueprint {
        precondition(Swift.type(of: self) == Blueprint.self, "a declared default's factory is bound to its blueprint")
        return Blueprint(parts.with(isolation: isolation, asyncFactory: asyncFactory))
    }
}

extension AwaitableFactory {
    /// The async factory of a definition of `T` taking the arguments `A…`: unpacks them for `run` (after the graph),
    /// and auto-wires
    /// them with the async resolve when it takes any.
    static func make<T, each A>(
        _: T.Type, argumentCount: Int,
        run: @escaping @Sendable (GraphToken, repeat each A) async throws -> Any
    ) -> AwaitableFactory {
        var autoWire: (@Sendable (DependencyContainer, DependencyContainer.Tag?) async throws -> Any)?
        if argumentCount > 0 {
            autoWire = { container, tag in
                let arguments = (repeat try await container.resolveArgumentAsync((each A).self, tag: tag))
                return arguments
            }
        }
        return AwaitableFactory(
            run: { arguments, token in
                guard let arguments = arguments as? (repeat each A) else {
                    throw ResolutionError.invalidType(
                        resolved: Swift.type(of: arguments),
                        key: DefinitionKey(type: T.self, typeOfArguments: (repeat each A).self, tag: nil))
                }
                return try await run(token, repeat each arguments)
            },
            autoWire: autoWire)
    }
}
