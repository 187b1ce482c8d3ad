import Plexus

private final class Analytics {}

private final class Router {}

private final class Interactor {
    let router: Router
    let analytics: Analytics
    init(router: Router, analytics: Analytics) {
        self.router = router
        self.analytics = analytics
    }
}

private final class ListPresenter {
    let interactor: Interactor
    let router: Router
    let analytics: Analytics
    init(interactor: Interactor, router: Router, analytics: Analytics) {
        self.interactor = interactor
        self.router = router
        self.analytics = analytics
    }
}

@MainActor
func sharedInstances() throws {
    show(".shared (the default) gives one instance per definition to everything one outermost resolve builds,")
    show("in every container it reaches, and forgets it when that resolve returns.")

    let root = DependencyContainer()
    root.register(.shared) { Analytics() }

    let list = DependencyContainer()
    list.collaborate(with: root)
    list.register { Router() }
    list.register { c in Interactor(router: try c.resolve(), analytics: try c.resolve()) }
    list.register { c in
        ListPresenter(interactor: try c.resolve(), router: try c.resolve(), analytics: try c.resolve())
    }

    let presenter: ListPresenter = try list.resolve()
    check(presenter.router === presenter.interactor.router, "the presenter and its interactor get the same Router")
    check(
        presenter.analytics === presenter.interactor.analytics,
        "the Analytics defined in the root container is shared too: one graph spans containers")

    let other: ListPresenter = try list.resolve()
    check(other.router !== presenter.router, "a second resolve is a second graph with its own Router (!==)")

    weak var watcher: Analytics?
    do {
        let interactor: Interactor = try list.resolve()
        watcher = interactor.analytics
        withExtendedLifetime(interactor) {
            check(watcher != nil, "the Analytics lives as long as the objects that use it…")
        }
    }
    check(watcher == nil, "…and no container keeps it once the graph is done")

    let unique = DependencyContainer()
    unique.register(.unique) { Router() }
    unique.register { c in Interactor(router: try c.resolve(), analytics: Analytics()) }
    unique.register { c in
        ListPresenter(interactor: try c.resolve(), router: try c.resolve(), analytics: Analytics())
    }
    let uniquePresenter: ListPresenter = try unique.resolve()
    check(
        uniquePresenter.router !== uniquePresenter.interactor.router,
        "with .unique instead, the presenter and its interactor get two Routers (!==)")

    // One definition registered in two containers is still one definition: one instance per graph.
    let feature = DependencyContainer()
    let settings = DependencyContainer()
    let sharedRouter = feature.register(.shared) { Router() }
    settings.register(sharedRouter)
    settings.collaborate(with: feature)
    settings.register { [unowned settings, unowned feature] in
        Interactor(router: try feature.resolve(), analytics: Analytics()).router === (try settings.resolve() as Router)
    }
    let sameRouter: Bool = try settings.resolve()
    check(sameRouter, "a .shared definition registered in two containers gives one instance per graph across both")
}
