import Plexus
import PlexusTesting
import Testing

private protocol PriceMapper: AnyObject, Sendable {
    var name: String { get }
}
private final class DefaultPriceMapper: PriceMapper {
    let name = "default"
}
private final class CustomMapper: PriceMapper {
    let name = "custom"
}
private protocol CellView: AnyObject, Sendable {
    var name: String { get }
}
private final class DefaultCellView: CellView {
    let name = "default"
}
private final class CustomView: CellView {
    let name = "custom"
}
/// A value the container is made with (Saber's externals), which a declared default resolves.
private struct Endpoint: Sendable {
    let url: String
}
private final class Cart: Sendable {
    let endpoint: Endpoint
    init(endpoint: Endpoint) { self.endpoint = endpoint }
}

extension DependencyContainer {
    fileprivate enum NamespaceOverrideMappers {}
    fileprivate typealias OverrideMappers = Namespace<NamespaceOverrideMappers>
    fileprivate var overrideMappers: OverrideMappers { namespace() }

    fileprivate var formatter: Factory<PriceMapper> { self { DefaultPriceMapper() }.cached }
    fileprivate var contextProbe: Factory<ContextProbe> { self { ContextProbe(tag: nil) } }
}

/// Records the tag of the key its factory ran for (`container.context`).
private final class ContextProbe: Sendable {
    let tag: DependencyContainer.Tag?
    init(tag: DependencyContainer.Tag?) { self.tag = tag }
}

extension DependencyContainer.OverrideMappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
    fileprivate var otherMapper: SingletonFactory<PriceMapper> {
        get { resolve { CustomMapper() } }
        set { inject(newValue) }
    }
    fileprivate var cellView: Factory<CellView> {
        get { resolve { DefaultCellView() } }
        set { inject(newValue) }
    }
    fileprivate var cart: SingletonFactory<Cart> {
        get { resolve { Cart(endpoint: try self.container.resolve()) } }
        set { inject(newValue) }
    }
    fileprivate var cachedView: Factory<CellView> {
        get { resolve { DefaultCellView() }.cached }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorOverrideTests {
    let container = DependencyContainer()

    @Test func anOverrideRegisteredUnderAnotherKeyFirstRunsUnderTheAccessorsKey() throws {
        // One definition registered under a tag of its own, then under the accessor's key: every resolve through the
        // accessor runs its factory for the accessor's key (what `context` says), the first and the repeated ones.
        let definition = container.register(tag: "elsewhere") { [unowned container] in
            ContextProbe(tag: container.context?.tag)
        }
        let accessorTag: DependencyContainer.Tag = "DependencyContainer.contextProbe"
        container.register(definition, tag: accessorTag)

        let tags = (0..<3).map { _ in container.contextProbe().tag }
        #expect(tags == [accessorTag, accessorTag, accessorTag])
        #expect((try container.resolve(tag: "elsewhere") as ContextProbe).tag == "elsewhere")
    }

    @Test func singleOverrideIsOneInstanceAndDropsTheCachedDefault() {
        let before = container.overrideMappers.priceMapper()
        container.overrideMappers.priceMapper = .single { CustomMapper() }
        let after = container.overrideMappers.priceMapper()
        #expect(after.name == "custom")
        #expect(after !== before)
        #expect(container.overrideMappers.priceMapper() === after)
    }

    @Test func factoryOverrideGivesASingletonAccessorNewInstances() {
        container.overrideMappers.priceMapper = .factory { CustomMapper() }
        let first = container.overrideMappers.priceMapper()
        #expect(first.name == "custom")
        #expect(container.overrideMappers.priceMapper() !== first)
    }

    @Test func replaceKeepsTheAccessorsKind() {
        container.overrideMappers.priceMapper.replace { CustomMapper() }
        #expect(container.overrideMappers.priceMapper().name == "custom")
        #expect(container.overrideMappers.priceMapper() === container.overrideMappers.priceMapper())

        container.overrideMappers.cellView.replace { CustomView() }
        #expect(container.overrideMappers.cellView().name == "custom")
        #expect(container.overrideMappers.cellView() !== container.overrideMappers.cellView())

        let cached = container.formatter()
        container.formatter.replace { CustomMapper() }
        #expect(container.formatter.scope == .cached)
        #expect(container.formatter() !== cached)
        #expect(container.formatter() === container.formatter())
    }

    @Test func factoryOverrideOfAFactoryAccessor() {
        let before = container.overrideMappers.cellView()
        container.overrideMappers.cellView = .factory { CustomView() }
        #expect(container.overrideMappers.cellView().name == "custom")
        #expect(before.name == "default")
    }

    @Test func registerUnderTheAccessorKeyOverridesIt() throws {
        let before = container.overrideMappers.priceMapper()
        let key = try #require(container.overrideMappers.priceMapper.key)
        container.register(.singleton, type: PriceMapper.self, tag: key.tag) { CustomMapper() }
        #expect(container.overrideMappers.priceMapper() !== before)
        #expect(container.overrideMappers.priceMapper().name == "custom")
    }

    @Test func overridingAgainReplacesTheOverride() {
        container.overrideMappers.priceMapper = .single { CustomMapper() }
        let first = container.overrideMappers.priceMapper()
        container.overrideMappers.priceMapper = .single { DefaultPriceMapper() }
        #expect(container.overrideMappers.priceMapper() !== first)
        #expect(container.overrideMappers.priceMapper().name == "default")
    }

    @Test func assigningAnotherAccessorResolvesThroughIt() {
        container.overrideMappers.priceMapper = container.overrideMappers.otherMapper
        #expect(container.overrideMappers.priceMapper() === container.overrideMappers.otherMapper())
    }

    @Test func defaultsIgnoreEveryOverride() {
        container.overrideMappers.priceMapper = .single { CustomMapper() }
        container.overrideMappers.cellView.replace { CustomView() }
        container.overrideMappers.priceMapper.decorate { _ in CustomMapper() }
        #expect(container.overrideMappers.priceMapper().name == "custom")
        #expect(container.defaults.overrideMappers.priceMapper().name == "default")
        #expect(container.defaults.overrideMappers.cellView().name == "default")
        #expect(container.defaults.overrideMappers.priceMapper() === container.defaults.overrideMappers.priceMapper())
        #expect(container.defaults === container.defaults)
        #expect(container.defaults.defaults === container.defaults)
    }

    /// An unbound `.single` belongs to no container until it is assigned: called directly, nothing keeps its
    /// instance; assigned, the accessor keeps one.
    @Test func anUnboundSingleKeepsItsInstanceOnceAssigned() {
        let unbound = SingletonFactory<PriceMapper>.single { CustomMapper() }
        #expect(unbound() !== unbound())
        container.overrideMappers.priceMapper = unbound
        #expect(container.overrideMappers.priceMapper() === container.overrideMappers.priceMapper())
    }

    /// An accessor bound to no container has nowhere to keep an override or a decorator: `replace` and `decorate`
    /// say so in the log, the same words for every kind of accessor, and the accessor keeps its factory.
    @Test func anUnboundAccessorLogsThatItCannotBeReplacedOrDecorated() {
        let messages = Log()
        let unbound = Factory<PriceMapper>.factory { DefaultPriceMapper() }
        let detail = ParameterFactory<Int, PriceMapper>.factory { _ in DefaultPriceMapper() }
        Plexus.withLogging(level: .errors, logger: messages.logger) {
            unbound.replace { CustomMapper() }
            unbound.decorate { _ in CustomMapper() }
            detail.replace { _ in CustomMapper() }
            detail.decorate { _ in CustomMapper() }
        }
        let overridden = "Plexus: an unbound accessor cannot be overridden; assign it to an accessor property first."
        let decorated = "Plexus: an unbound accessor cannot be decorated; decorate the accessor property."
        #expect(messages.entries == [overridden, decorated, overridden, decorated])
        #expect(unbound().name == "default")
        #expect(detail(1).name == "default")
    }

    /// A declared default that resolves what the container was made with finds it through `defaults` too.
    @Test func defaultsResolveTheContainersOwnRegistrations() throws {
        let container = DependencyContainer(name: "Checkout") { $0.inject(Endpoint(url: "https://shop")) }
        container.overrideMappers.cart = .single { Cart(endpoint: Endpoint(url: "https://mock")) }
        #expect(container.overrideMappers.cart().endpoint.url == "https://mock")
        #expect(try container.defaults.overrideMappers.cart.resolve().endpoint.url == "https://shop")
    }

    @Test func resetAndTrimCachesReachTheDefaultsCompanion() {
        let singleton = container.defaults.overrideMappers.priceMapper()
        container.reset()
        #expect(container.defaults.overrideMappers.priceMapper() !== singleton)
        let first = container.defaults.overrideMappers.cachedView()
        #expect(container.defaults.overrideMappers.cachedView() === first)
        container.trimCaches()
        #expect(container.defaults.overrideMappers.cachedView() !== first)
    }

    @Test func overrideInOneContainerLeavesOthersAlone() {
        let other = DependencyContainer()
        container.overrideMappers.priceMapper = .single { CustomMapper() }
        #expect(other.overrideMappers.priceMapper().name == "default")
    }

    @Test func overriddenAccessorIsAnOrdinaryDefinitionForResolve() throws {
        container.overrideMappers.priceMapper = .single { CustomMapper() }
        let tag = try #require(container.overrideMappers.priceMapper.key?.tag)
        let resolved: PriceMapper = try container.resolve(tag: tag)
        #expect(resolved === container.overrideMappers.priceMapper())
    }
}
