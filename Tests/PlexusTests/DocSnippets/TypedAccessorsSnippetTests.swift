import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article TypedAccessors.md, kept here as the article writes them (with the fixture types
// they assume, and a fresh container where the article uses the shared one, since tests run in parallel) so that
// they cannot rot.

private protocol AnalyticsService: AnyObject, Sendable {}
private final class ConsoleAnalytics: AnalyticsService {}
private final class DeepLinkManager: Sendable {}
private final class NetworkManager: Sendable {}
private final class AuthService: Sendable {
    let network: NetworkManager
    init(apiKey: String, network: NetworkManager) { self.network = network }
}
private protocol PriceMapper: AnyObject, Sendable {}
private final class DefaultPriceMapper: PriceMapper {}
private final class CustomMapper: PriceMapper {}
private final class LoggingMapper: PriceMapper {
    let inner: PriceMapper
    init(decorating inner: PriceMapper) { self.inner = inner }
}
private protocol CellView: AnyObject, Sendable {}
private final class DefaultCellView: CellView {}
private final class CustomView: CellView {}
private struct ListSource: Sendable {
    var itemSize = 100
}
private struct Environment: Sendable {
    let currency: String
}
private final class Cart: Sendable {
    let environment: Environment
    init(environment: Environment) { self.environment = environment }
}
private final class CheckoutView: Sendable {
    let auth: AuthService
    init(auth: AuthService) { self.auth = auth }
}
private final class Database: Sendable {
    static func open() async throws -> Database { Database() }
}
@MainActor private final class CatalogViewModel {}
private final class Session: Sendable {}
private final class ListView {
    var presenter: ListPresenter?
}
private final class ListPresenter {
    weak var view: ListView?
    init(view: ListView) { self.view = view }
}
private final class Left: Sendable {
    init(right: Right) {}
}
private final class Right: Sendable {
    init(left: Left) {}
}

extension DependencyContainer {
    fileprivate var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.cached }
    fileprivate var deepLinks: Factory<DeepLinkManager> { self { DeepLinkManager() }.singleton }
    fileprivate var auth: Factory<AuthService> { self { AuthService(apiKey: "k", network: self.network()) } }
    fileprivate var network: Factory<NetworkManager> { self { NetworkManager() }.cached }

    fileprivate enum NamespaceMappers {}
    fileprivate typealias Mappers = Namespace<NamespaceMappers>
    fileprivate var mappers: Mappers { namespace() }
    fileprivate enum NamespaceViews {}
    fileprivate typealias Views = Namespace<NamespaceViews>
    fileprivate var views: Views { namespace() }
    fileprivate enum NamespaceDataSources {}
    fileprivate typealias DataSources = Namespace<NamespaceDataSources>
    fileprivate var dataSources: DataSources { namespace() }
    fileprivate enum NamespaceCheckout {}
    fileprivate typealias Checkout = Namespace<NamespaceCheckout>
    fileprivate var checkout: Checkout { namespace() }

    fileprivate var database: AsyncFactory<Database> { self { try await Database.open() }.singleton }
    fileprivate var catalog: MainActorFactory<CatalogViewModel> { self { @MainActor in CatalogViewModel() } }
    fileprivate var session: Factory<Session> { self { Session() }.weakSingleton }

    fileprivate var listView: Factory<ListView> {
        self { ListView() }.shared
            .resolvingProperties { container, view in view.presenter = container.listPresenter() }
    }
    fileprivate var listPresenter: Factory<ListPresenter> { self { ListPresenter(view: self.listView()) }.shared }

    fileprivate var left: Factory<Left> { self { Left(right: try self.right.resolve()) } }
    fileprivate var right: Factory<Right> { self { Right(left: try self.left.resolve()) } }
}

extension DependencyContainer.Mappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {  // one instance by default
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
}

extension DependencyContainer.Views {
    fileprivate var cellView: Factory<CellView> {  // a new view every time
        get { resolve { DefaultCellView() } }
        set { inject(newValue) }
    }
}

extension DependencyContainer.Views {
    fileprivate var badge: Factory<BadgeView> {
        get { resolve { BadgeView() } }
        set { inject(newValue) }
    }
}

private final class BadgeView {}

private final class ProductCell: HasSharedContainer {  // in an app, a UIView subclass
    lazy var priceMapper = container.mappers.priceMapper()
    let badge: BadgeView
    init(badge: BadgeView = container.views.badge()) { self.badge = badge }
}

private class Detail: @unchecked Sendable {  // immutable, and subclassed by the mock and the decorator
    let id: Int
    init(id: Int) { self.id = id }
}
private final class MockDetail: Detail, @unchecked Sendable {}
private final class LoggingDetail: Detail, @unchecked Sendable {
    let inner: Detail
    init(decorating inner: Detail) {
        self.inner = inner
        super.init(id: inner.id)
    }
}
private final class Row: Sendable {
    let id: Int
    let title: String
    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

extension DependencyContainer {
    fileprivate var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) } }
    fileprivate var row: ParameterFactory<(Int, String), Row> {
        self { id, title in Row(id: id, title: title) }.singleton
    }
}

extension DependencyContainer.DataSources {
    fileprivate var list: Factory<ListSource> {
        get { resolve { ListSource() } }
        set { inject(newValue) }
    }
}

extension DependencyContainer.Checkout {
    fileprivate var cart: SingletonFactory<Cart> {
        get { resolve { Cart(environment: try self.container.resolve()) } }
        set { inject(newValue) }
    }
}

extension DependencyContainer.Checkout {
    // Kept for the app's life while it holds a new AuthService: the captive dependency the report draws.
    fileprivate var view: SingletonFactory<CheckoutView> {
        get { resolve { CheckoutView(auth: self.container.auth()) } }
        set { inject(newValue) }
    }
}

private final class CheckoutViewModel {
    @Inject(\.analytics) var analytics: AnalyticsService
    @LazyInject(\.mappers.priceMapper) var mapper: PriceMapper
}

private final class ProfileScreen {
    @WeakLazyInject(\.session) var session: Session?
}

private func makeCheckoutContainer(environment: Environment, app: DependencyContainer) -> DependencyContainer {
    let checkout = DependencyContainer(name: "Checkout") { $0.inject(environment) }  // externals
    checkout.collaborate(with: app)  // dependsOn
    return checkout
}

@Suite(.silencingPlexusLogs) struct TypedAccessorsSnippetTests {
    @Test func factoryStyleAccessors() {
        let container = DependencyContainer()
        let analytics = container.analytics()
        #expect(analytics === container.analytics())
        #expect(container.auth().network === container.network())
        #expect(container.deepLinks() === container.deepLinks())
    }

    @Test func sdkStyleOverrides() {
        let c = DependencyContainer()  // the article uses DependencyContainer.shared
        c.mappers.priceMapper = .single { CustomMapper() }  // one instance
        #expect(c.mappers.priceMapper() === c.mappers.priceMapper())
        c.mappers.priceMapper = .factory { CustomMapper() }  // a new one every time
        #expect(c.mappers.priceMapper() !== c.mappers.priceMapper())
        c.mappers.priceMapper.replace { CustomMapper() }  // keeps the accessor's storage
        #expect(c.mappers.priceMapper() === c.mappers.priceMapper())
        c.views.cellView = .factory { CustomView() }
        #expect(c.views.cellView() is CustomView)
        c.mappers.priceMapper.decorate { LoggingMapper(decorating: $0) }
        c.mappers.priceMapper.decorate(LoggingMapper.init)
        #expect(((c.mappers.priceMapper() as? LoggingMapper)?.inner as? LoggingMapper)?.inner is CustomMapper)
        c.dataSources.list.decorate {
            var source = $0
            source.itemSize = 400
            return source
        }
        #expect(c.dataSources.list().itemSize == 400)
        #expect(c.defaults.mappers.priceMapper() is DefaultPriceMapper)  // ignoring every override
    }

    @Test func sharedContainerReachesTypesThatAdoptHasSharedContainer() {
        let cell = ProductCell()
        #expect(cell.priceMapper === DependencyContainer.shared.mappers.priceMapper())
        #expect(cell.badge !== ProductCell().badge)  // the view accessor makes a new badge for every cell
    }

    @Test func parameterFactoryAccessors() {
        let container = DependencyContainer()
        let detail = container.detail(42)
        let row = container.row((7, "Inbox"))
        container.detail.replace { id in MockDetail(id: id) }
        container.detail.decorate { LoggingDetail(decorating: $0) }

        #expect(detail.id == 42)
        #expect(row === container.row((7, "Inbox")))
        let decorated = container.detail(5) as? LoggingDetail
        #expect(decorated?.inner is MockDetail)
        #expect(decorated?.id == 5)
    }

    @Test func saberStyleModuleContainer() throws {
        let app = DependencyContainer(name: "App")
        let checkout = makeCheckoutContainer(environment: Environment(currency: "EUR"), app: app)
        #expect(try checkout.checkout.cart.resolve().environment.currency == "EUR")
        #expect(checkout.name == "Checkout")
    }

    @Test func throwingFormOfACycle() {
        let container = DependencyContainer()
        var described = ""
        // Circular dependency: Left (tag: …) -> Right (tag: …) -> Left (tag: …)
        do { _ = try container.left.resolve() } catch { described = "\(error)" }
        #expect(
            described.contains(
                "Left (tag: \"DependencyContainer.left\") -> Right (tag: \"DependencyContainer.right\") -> Left"))
    }

    @Test(.container) func propertyWrappersReadTheSharedContainer() {
        let model = CheckoutViewModel()
        #expect(model.analytics === DependencyContainer.shared.analytics())
        #expect(model.mapper === DependencyContainer.shared.mappers.priceMapper())
    }

    @Test @MainActor func asyncAndMainActorAccessors() async throws {
        let container = DependencyContainer()
        let database = try await container.database()
        @MainActor func makeCatalog() -> CatalogViewModel { container.catalog() }

        #expect(database === (try await container.database()))  // `.singleton`
        #expect(makeCatalog() !== makeCatalog())
    }

    @Test func resetsForgetTheOverrideTheKeptInstanceOrBoth() {
        let container = DependencyContainer()
        let declared = container.analytics()
        container.analytics.replace { ConsoleAnalytics() }
        let replaced = container.analytics()
        #expect(replaced !== declared)

        container.analytics.reset(.scope)  // only the kept instance: the override stays
        let remade = container.analytics()
        #expect(remade !== replaced && remade === container.analytics())
        container.analytics.reset(.override)  // only the override: the declaration answers again
        let fromDeclaration = container.analytics()
        #expect(fromDeclaration !== remade)
        container.analytics.replace { ConsoleAnalytics() }
        container.analytics.reset()  // both
        #expect(container.analytics() === container.analytics())
        #expect(container.analytics() !== remade)
    }

    @Test(.container) func weakLazyInjectReadsNilOnceTheInstanceIsReleased() {
        var owner: Session? = DependencyContainer.shared.session()
        let screen = ProfileScreen()
        #expect(screen.session === owner)
        owner = nil
        #expect(screen.session == nil)
    }

    @Test func validatingFromTheAccessorsDrawsTheCaptiveDependency() throws {
        let container = DependencyContainer()
        let report = try container.validate(roots: \.analytics, \.checkout.view)
        let mermaid = report.mermaid  // the article prints it
        let types = Set(report.nodes.map(\.key.type))
        #expect(types.isSuperset(of: ["AnalyticsService", "CheckoutView", "AuthService"]))
        #expect(report.findings(.unused).isEmpty)  // roots are never reported unused
        #expect(report.findings(.captiveDependency).map { $0.path.map(\.type) } == [["CheckoutView", "AuthService"]])
        #expect(mermaid.contains("legend"))
        #expect(mermaid.contains("captive|"))
        #expect(mermaid.contains("stroke:#e67e22"))  // orange
    }

    @Test @MainActor func validateAsyncBuildsTheAsyncMainActorAndArgumentRoots() async throws {
        let container = DependencyContainer()
        let report = try await container.validateAsync(roots: \.database, \.catalog, \.detail, arguments: [42])
        let types = Set(report.nodes.map(\.key.type))
        #expect(types.isSuperset(of: ["Database", "CatalogViewModel", "Detail"]))
    }

    @Test func aPropertyHookClosesTheCycleBetweenViewAndPresenter() {
        let container = DependencyContainer()
        let view = container.listView()  // view.presenter?.view === view
        #expect(view.presenter?.view === view)
    }
}
