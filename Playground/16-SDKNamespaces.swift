import Plexus

// An SDK's dependencies, grouped by layer in namespaces of the shared container, that an app customises without
// forking the SDK: replace a mapper, decorate a data source, swap the navigator.

// MARK: The SDK's types

private struct Product {
    let name: String
    let pence: Int
}

private protocol PriceMapper: AnyObject {
    func label(for product: Product) -> String
}
private final class PenceMapper: PriceMapper {
    func label(for product: Product) -> String {
        let pence = product.pence % 100
        return "£\(product.pence / 100).\(pence < 10 ? "0" : "")\(pence)"
    }
}
private protocol ProductRepository: AnyObject {
    func products() -> [Product]
}
private final class StaticProductRepository: ProductRepository {
    func products() -> [Product] { [Product(name: "Tea", pence: 250), Product(name: "Cake", pence: 1_095)] }
}
private final class ProductService {
    let repository: ProductRepository
    init(repository: ProductRepository) { self.repository = repository }
}
private protocol Navigator: AnyObject {
    var trail: [String] { get set }
}
private final class NavigationHelper: Navigator {
    var trail: [String] = []
}
private final class NetworkSession {}
private final class ResourceResolver {
    func string(_ key: String) -> String { key.uppercased() }
}
private final class ProductCoordinator {
    let navigator: Navigator
    init(navigator: Navigator) { self.navigator = navigator }
    func open(_ product: Product) { navigator.trail.append(product.name) }
}
private struct ProductListDataSource {
    var itemHeight = 44
    let labels: [String]
}
private final class ProductCellView {
    let title: String
    init(title: String) { self.title = title }
}

// MARK: The SDK's container

extension DependencyContainer {
    fileprivate enum NamespaceMappers {}
    fileprivate enum NamespaceRepositories {}
    fileprivate enum NamespaceServices {}
    fileprivate enum NamespaceCoordinators {}
    fileprivate enum NamespaceDataSources {}
    fileprivate enum NamespaceViews {}
    fileprivate typealias Mappers = Namespace<NamespaceMappers>
    fileprivate typealias Repositories = Namespace<NamespaceRepositories>
    fileprivate typealias Services = Namespace<NamespaceServices>
    fileprivate typealias Coordinators = Namespace<NamespaceCoordinators>
    fileprivate typealias DataSources = Namespace<NamespaceDataSources>
    fileprivate typealias Views = Namespace<NamespaceViews>
    fileprivate var mappers: Mappers { namespace() }
    fileprivate var repositories: Repositories { namespace() }
    fileprivate var services: Services { namespace() }
    fileprivate var coordinators: Coordinators { namespace() }
    fileprivate var dataSources: DataSources { namespace() }
    fileprivate var views: Views { namespace() }

    // The special objects live on the container itself.
    fileprivate var navigator: Factory<Navigator> { self { NavigationHelper() }.singleton }
    fileprivate var networkSession: Factory<NetworkSession> { self { NetworkSession() }.singleton }
    fileprivate var resourceResolver: Factory<ResourceResolver> { self { ResourceResolver() }.singleton }
}

extension DependencyContainer.Mappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {
        get { resolve { PenceMapper() } }
        set { inject(newValue) }
    }
}
extension DependencyContainer.Repositories {
    fileprivate var products: SingletonFactory<ProductRepository> {
        get { resolve { StaticProductRepository() } }
        set { inject(newValue) }
    }
}
extension DependencyContainer.Services {
    fileprivate var products: SingletonFactory<ProductService> {
        get { resolve { ProductService(repository: self.container.repositories.products()) } }
        set { inject(newValue) }
    }
}
extension DependencyContainer.Coordinators {
    fileprivate var product: Factory<ProductCoordinator> {
        get { resolve { ProductCoordinator(navigator: self.container.navigator()) } }
        set { inject(newValue) }
    }
}
extension DependencyContainer.DataSources {
    // Data sources and views are `Factory`: never shared by accident (`= .single { … }` does not compile).
    fileprivate var productList: Factory<ProductListDataSource> {
        get {
            resolve {
                let container = self.container
                let mapper = container.mappers.priceMapper()
                let products = container.services.products().repository.products()
                return ProductListDataSource(labels: products.map { "\($0.name) \(mapper.label(for: $0))" })
            }
        }
        set { inject(newValue) }
    }
}
extension DependencyContainer.Views {
    fileprivate var productCell: Factory<ProductCellView> {
        get { resolve { ProductCellView(title: self.container.resourceResolver().string("product")) } }
        set { inject(newValue) }
    }
}

// MARK: The app

private final class RoundedMapper: PriceMapper {
    func label(for product: Product) -> String { "about £\((product.pence + 50) / 100)" }
}
private final class AuditingMapper: PriceMapper {
    let inner: PriceMapper
    var audited = 0
    init(decorating inner: PriceMapper) { self.inner = inner }
    func label(for product: Product) -> String {
        audited += 1
        return inner.label(for: product)
    }
}
private final class DeepLinkNavigator: Navigator {
    var trail: [String] = ["deep link"]
}

@MainActor
func sdkNamespaces() throws {
    let c = DependencyContainer.shared
    defer { c.reset() }  // the tour leaves the shared container as it found it

    let labels = c.dataSources.productList().labels
    show("c.dataSources.productList().labels → \(labels)")
    check(labels == ["Tea £2.50", "Cake £10.95"], "the SDK's defaults build the data source through three layers")
    check(c.mappers.priceMapper() === c.mappers.priceMapper(), "mappers are SingletonFactory: one instance")
    check(c.views.productCell() !== c.views.productCell(), "views are Factory: a new one every time")
    check(c.views.productCell().title == "PRODUCT", "a view reaches the special resourceResolver")

    c.mappers.priceMapper = .single { RoundedMapper() }
    check(
        c.dataSources.productList().labels == ["Tea about £3", "Cake about £11"],
        "c.mappers.priceMapper = .single { RoundedMapper() } changes every screen that maps prices")
    check(
        c.defaults.mappers.priceMapper() is PenceMapper,
        "c.defaults.mappers.priceMapper() is still the SDK's own mapper")

    c.mappers.priceMapper.decorate(AuditingMapper.init)
    let audited = c.mappers.priceMapper() as? AuditingMapper
    _ = c.dataSources.productList()
    check(audited?.audited == 2, "decorate(AuditingMapper.init) wraps the mapper; it saw both products")

    c.dataSources.productList.decorate { source in
        var source = source
        source.itemHeight = 88
        return source
    }
    check(c.dataSources.productList().itemHeight == 88, "value types are decorated too (itemHeight 44 → 88)")

    c.navigator.replace { DeepLinkNavigator() }
    let coordinator = c.coordinators.product()
    coordinator.open(Product(name: "Tea", pence: 250))
    check(c.navigator().trail == ["deep link", "Tea"], "the coordinator uses the replaced navigator singleton")

    show("an accessor's key is a DefinitionKey: \(c.mappers.priceMapper.key.map { "\($0)" } ?? "-")")
    let plain = caught { try c.resolve(tag: "DependencyContainer.networkSession") as NetworkSession }
    check(
        plain is ResolutionError,
        "a Dip-style resolve of an accessor's tag finds overrides only; the declared default is the accessor's own")
}
