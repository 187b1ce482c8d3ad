import Plexus
import Swinject

extension Scenario {
    /// A six-object wireframe: view, presenter, interactor and router shared per resolution (Swinject: `.graph`),
    /// an API client and a store as singletons; view and presenter point at each other (property injection).
    static var graph: Scenario {
        Scenario(id: "graph", title: "6-object graph, mixed scopes") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                let api = ApiClient()
                let store = Store(api: api)
                return Runner { count in
                    for _ in 0..<count {
                        let view = View()
                        let interactor = Interactor(api: api, store: store)
                        let presenter = Presenter(interactor: interactor, router: Router())
                        view.presenter = presenter
                        presenter.view = view
                        blackHole(view)
                    }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(ApiClient.self) { _ in ApiClient() }.inObjectScope(.container)
                container.register(Store.self) { r in Store(api: r.resolve(ApiClient.self)!) }
                    .inObjectScope(.container)
                container.register(Interactor.self) { r in
                    Interactor(api: r.resolve(ApiClient.self)!, store: r.resolve(Store.self)!)
                }
                container.register(Router.self) { _ in Router() }
                container.register(Presenter.self) { r in
                    Presenter(interactor: r.resolve(Interactor.self)!, router: r.resolve(Router.self)!)
                }
                .initCompleted { r, presenter in presenter.view = r.resolve(View.self) }
                container.register(View.self) { _ in View() }
                    .initCompleted { r, view in view.presenter = r.resolve(Presenter.self) }
                precondition(isWired(container.resolve(View.self)), "Swinject graph not wired")
                return Runner(note: "`.graph` scope and `initCompleted` for the view <-> presenter cycle") { count in
                    for _ in 0..<count { blackHole(container.resolve(View.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                container.register(.singleton) { Store(api: try container.resolve()) }
                container.register { Interactor(api: try container.resolve(), store: try container.resolve()) }
                container.register { Router() }
                container.register { Presenter(interactor: try container.resolve(), router: try container.resolve()) }
                    .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
                container.register { View() }
                    .resolvingProperties { container, view in view.presenter = try container.resolve() }
                precondition(isWired(try? container.resolve() as View), "Plexus graph not wired")
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as View) }
                }
            }
        }
    }
}

/// Whether a graph came out complete: checked once when a scenario is prepared, never while measuring.
private func isWired(_ view: View?) -> Bool {
    guard let view, let presenter = view.presenter else { return false }
    return presenter.view === view
}
