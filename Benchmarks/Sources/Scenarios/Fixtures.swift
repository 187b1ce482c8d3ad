import Plexus

// The objects every contender builds. Plain classes with public initialisers: what the container adds is measured,
// not the objects.

/// An object with no dependencies.
public final class Leaf: Sendable {
    /// Creates it.
    public init() {}
}

/// An object made from three runtime arguments.
public final class Cell {
    let id: Int
    let title: String
    let score: Double

    /// Creates it.
    public init(id: Int, title: String, score: Double) {
        self.id = id
        self.title = title
        self.score = score
    }
}

// MARK: The six-object wireframe graph (VIPER style): view <-> presenter cycle, shared per graph; api, store singletons.

/// A singleton of the graph.
public final class ApiClient: Sendable {
    /// Creates it.
    public init() {}
}

/// A singleton of the graph that depends on the other one.
public final class Store {
    let api: ApiClient

    /// Creates it.
    public init(api: ApiClient) {
        self.api = api
    }
}

/// Shared per graph.
public final class Interactor {
    let api: ApiClient
    let store: Store

    /// Creates it.
    public init(api: ApiClient, store: Store) {
        self.api = api
        self.store = store
    }
}

/// Shared per graph.
public final class Router {
    /// Creates it.
    public init() {}
}

/// Shared per graph; holds its view weakly (the back-reference of the cycle, set after creation).
public final class Presenter {
    let interactor: Interactor
    let router: Router
    weak var view: View?

    /// Creates it.
    public init(interactor: Interactor, router: Router) {
        self.interactor = interactor
        self.router = router
    }
}

/// The root of the graph; gets its presenter after creation.
public final class View {
    var presenter: Presenter?

    /// Creates it.
    public init() {}
}

// MARK: Auto-wiring and auto-injection

/// A dependency of ``Wired``.
public final class PartA {
    /// Creates it.
    public init() {}
}

/// A dependency of ``Wired``.
public final class PartB {
    /// Creates it.
    public init() {}
}

/// Made from two dependencies that the container finds itself (auto-wiring).
public final class Wired {
    let a: PartA
    let b: PartB

    /// Creates it.
    public init(a: PartA, b: PartB) {
        self.a = a
        self.b = b
    }
}

/// Two dependencies filled by Plexus auto-injection after creation.
public final class InjectedClient {
    @Injected var api: ApiClient?
    @Injected var store: Store?

    /// Creates it.
    public init() {}
}

/// The same two dependencies as ordinary properties, set by hand or by a Swinject `initCompleted` hook.
public final class PropertyClient {
    var api: ApiClient?
    var store: Store?

    /// Creates it.
    public init() {}
}

/// Three dependencies filled by Plexus auto-injection after creation.
public final class InjectedClient3 {
    @Injected var api: ApiClient?
    @Injected var store: Store?
    @Injected var router: Router?

    /// Creates it.
    public init() {}
}

/// The same three dependencies as ordinary properties, set by hand.
public final class PropertyClient3 {
    var api: ApiClient?
    var store: Store?
    var router: Router?

    /// Creates it.
    public init() {}
}

/// A type with ordinary stored properties and no `@Injected` one: auto-injection should cost it nothing.
public final class PlainModel {
    let id = 1
    let name = "plain"
    var count = 0
    var ratio = 0.5

    /// Creates it.
    public init() {}
}

// MARK: Filler types for the large-container scenario

/// A distinct type per `Path`: registering `Filler<Left<Left<Root>>>`, `Filler<Left<Right<Root>>>`, … fills a
/// container with thousands of different keys without declaring thousands of types.
struct Filler<Path> {}
enum Root {}
enum Left<Parent> {}
enum Right<Parent> {}
