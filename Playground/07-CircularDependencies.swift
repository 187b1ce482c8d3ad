import Plexus

// Dip's client/server example: the client takes its server in its initializer, the server gets its client
// back through a property.
private protocol Client: AnyObject {
    var server: Server { get }
}

private protocol Server: AnyObject {
    var client: Client? { get set }
}

private final class ClientImp: Client {
    let server: Server
    init(server: Server) { self.server = server }
}

private final class ServerImp: Server {
    weak var client: Client?
}

// A presenter and a view that point at each other through properties only.
private final class Presenter: Resolvable {
    var view: View?
    private(set) var viewWasSetWhenDone = false
    func didResolveDependencies() { viewWasSetWhenDone = view != nil }
}

private final class View {
    weak var presenter: Presenter?
}

// Two classes whose initializers need each other: no order of construction can work.
private final class Chicken {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

private final class Egg {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}

@MainActor
func circularDependencies() throws {
    let container = DependencyContainer()
    let clientsMade = Locked(0)
    let serversMade = Locked(0)
    container.register { () -> Client in
        clientsMade.increment()
        return ClientImp(server: try container.resolve())
    }
    container.register { () -> Server in
        serversMade.increment()
        return ServerImp()
    }
    .resolvingProperties { container, server in server.client = try container.resolve() }

    let client: Client = try container.resolve()
    check(
        client.server.client === client,
        "constructor injection one way + resolvingProperties the other: client.server.client === client")
    check(clientsMade.value == 1 && serversMade.value == 1, "each factory of the cycle ran once")

    show("ServerImp.client is weak: the client owns its server, not the other way round.")

    container.register { Presenter() }
        .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
    container.register { View() }
        .resolvingProperties { container, view in view.presenter = try container.resolve() }
    let presenter: Presenter = try container.resolve()
    check(
        presenter.view?.presenter === presenter,
        "property injection on both sides: presenter.view.presenter === presenter (.shared closes the loop)")
    check(
        presenter.viewWasSetWhenDone,
        "Resolvable.didResolveDependencies() runs after every hook of the graph")

    container.register { c in Chicken(egg: try c.resolve()) }
    container.register { c in Egg(chicken: try c.resolve()) }
    let error = caught { try container.resolve() as Chicken }
    if case .circularDependency(let path)? = error as? ResolutionError {
        let description = "\(error!)"
        show(description)
        check(
            path.count == 3 && description.hasPrefix("Circular dependency: Chicken -> Egg -> Chicken"),
            "a cycle only constructors could close throws circularDependency with its path, no stack overflow")
    } else {
        check(false, "a constructor cycle throws circularDependency (got \(String(describing: error)))")
    }

    let afterError: Client = try container.resolve()
    check(afterError.server.client === afterError, "after the error the same container resolves correctly")

    // Each resolve call owns what it builds: a nested resolve that fails (a factory's `try?`) takes its objects and
    // their hooks with it, and a resolve made inside a hook returns an instance whose own hooks have run.
    let abandonedHooks = Locked(0)
    container.register { () -> Badge in Badge() }
        .resolvingProperties { _, _ in abandonedHooks.increment() }
    container.register { (c: DependencyContainer) throws -> Sticker in
        Sticker(badge: try c.resolve(), missing: try c.resolve())
    }
    container.register { c in Album(sticker: try? c.resolve() as Sticker) }
    let album: Album = try container.resolve()
    check(
        album.sticker == nil && abandonedHooks.value == 0,
        "a nested resolve that fails under try? drops what it built: none of its hooks run")
}

private final class Badge {}
private final class Missing {}
private final class Sticker {
    init(badge: Badge, missing: Missing) {}
}
private final class Album {
    let sticker: Sticker?
    init(sticker: Sticker?) { self.sticker = sticker }
}
