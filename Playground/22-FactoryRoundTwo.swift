import Plexus

// What a Factory user reaches for next: property hooks on accessors, accessors with runtime arguments, async and
// main-actor accessors, contexts, resets, @WeakLazyInject and validating from accessor roots.

private final class ListView: @unchecked Sendable {  // safe: `presenter` is set by the hook, before the resolve returns
    var presenter: ListPresenter?
}
private final class ListPresenter: @unchecked Sendable {  // safe: `view` is set once, by the initializer
    weak var view: ListView?
    init(view: ListView) { self.view = view }
}
private final class Product: Sendable {
    let id: Int
    let note: String
    init(id: Int, note: String = "") {
        self.id = id
        self.note = note
    }
}
private final class Catalog: Sendable {
    let name: String
    init(name: String) { self.name = name }
    static func load() async throws -> Catalog { Catalog(name: "loaded") }
}
@MainActor private final class CatalogViewModel {
    let title = "catalog"
}
private protocol Payments: Sendable {
    var name: String { get }
}
private struct LivePayments: Payments {
    let name = "live"
}
private struct MockPayments: Payments {
    let name = "mock"
}
private final class Session: Sendable {}
private final class Clock: Sendable {}
private final class Ledger: Sendable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

extension DependencyContainer {
    fileprivate var listView: Factory<ListView> {
        self { ListView() }.shared
            .resolvingProperties { container, view in view.presenter = container.listPresenter() }
    }
    fileprivate var listPresenter: Factory<ListPresenter> { self { ListPresenter(view: self.listView()) }.shared }
    fileprivate var product: ParameterFactory<Int, Product> { self { id in Product(id: id) }.singleton }
    fileprivate var productRow: ParameterFactory<(Int, String), Product> {
        self { id, note in Product(id: id, note: note) }
    }
    fileprivate var catalog: AsyncFactory<Catalog> { self { try await Catalog.load() }.singleton }
    fileprivate var catalogModel: MainActorFactory<CatalogViewModel> { self { @MainActor in CatalogViewModel() } }
    fileprivate var payments: Factory<Payments> {
        self { LivePayments() }.onArg("--mock-payments") { MockPayments() }.onPreview { MockPayments() }
    }
    fileprivate var previewProduct: ParameterFactory<Int, Product> {
        self { id in Product(id: id) }.onPreview { id in Product(id: id, note: "preview") }
    }
    fileprivate var mockCatalog: AsyncFactory<Catalog> {
        self { try await Catalog.load() }.onArg("--mock-catalog") { Catalog(name: "mock") }
    }
    fileprivate var session: Factory<Session> { self { Session() }.weakSingleton }
    fileprivate var clock: Factory<Clock> { self { Clock() } }
    fileprivate var ledger: Factory<Ledger> { self { Ledger(clock: self.clock()) }.singleton }
}

private final class ProfileScreen {
    @WeakLazyInject var session: Session?
    init(container: DependencyContainer) { _session = WeakLazyInject(\.session, container: container) }
}

@MainActor
func factoryRoundTwo() async throws {
    let container = DependencyContainer(name: "App")

    let view = container.listView()
    check(view.presenter?.view === view, ".resolvingProperties closes the view <-> presenter cycle")

    check(container.product(7) === container.product(7), "ParameterFactory .singleton: one Product per argument value")
    check(container.product(7) !== container.product(8), "…and another for another value")
    check(container.productRow((1, "new")).note == "new", "several arguments are one tuple")
    container.product.replace { id in Product(id: id, note: "override") }
    check(container.product(7).note == "override", "replace { id in … } overrides it")

    let catalog = try await container.catalog()
    let again = try await container.catalog()
    check(again === catalog, "AsyncFactory: try await container.catalog(), kept once")
    check(container.catalogModel().title == "catalog", "MainActorFactory: called on the main actor")

    check(container.payments().name == "live", "no launch argument, no preview: the declared default")
    check(
        container.previewProduct(3).note == "", "every accessor kind has contexts: ParameterFactory's take the argument"
    )
    let mockCatalog = try await container.mockCatalog()
    check(mockCatalog.name == "loaded", "…and AsyncFactory's may await")
    show(
        "`.onTest { … }`, `.onPreview { … }`, `.onDebug { … }`, `.onArg(\"--mock-payments\") { … }` and `.context(.test) { … }` choose another default"
    )

    let ledger = container.ledger()
    container.ledger.reset(.scope)
    check(container.ledger() !== ledger, "reset(.scope) drops the kept instance")
    container.ledger.replace { Ledger(clock: Clock()) }
    let overridden = container.ledger()
    container.ledger.reset()
    check(container.ledger() !== overridden, "reset() drops the override and the instance")

    let screen = ProfileScreen(container: container)
    var session = screen.session
    check(
        session != nil && screen.session === session, "@WeakLazyInject keeps the instance while someone else holds it")
    session = nil
    check(screen.session == nil, "…and reads nil once it is released")

    let report = try DependencyContainer(name: "Fresh").validate(roots: \.ledger)
    check(report.nodes.count == 2, "validate(roots: \\.ledger) builds what the accessor reaches without calling it")
    check(
        report.findings.contains { $0.kind == .captiveDependency }, "…and finds the captive Clock inside the Ledger")
    check(report.dot.contains("captive"), "the DOT export labels the captive edge and carries a legend")

    let withArgument = try DependencyContainer(name: "Fresh").validate(roots: \.product, arguments: [7])
    check(
        withArgument.nodes.contains { $0.key.type == "Product" && $0.key.arguments != nil },
        "a ParameterFactory root is built with an argument set of its type")
    let awaited = try await DependencyContainer(name: "Fresh").validateAsync(roots: \.catalog, \.catalogModel)
    check(awaited.nodes.count == 2, "validateAsync(roots:) builds AsyncFactory and MainActorFactory roots")
}
