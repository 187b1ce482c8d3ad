import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol PriceMapper: AnyObject, Sendable {
    var layers: [String] { get }
}
private final class DefaultPriceMapper: PriceMapper {
    let layers = ["default"]
}
/// A decorator in the guide's form: `init(decorating:)`.
private final class LoggingMapper: PriceMapper {
    let inner: PriceMapper
    init(decorating inner: PriceMapper) { self.inner = inner }
    var layers: [String] { inner.layers + ["logging"] }
}
private final class CachingMapper: PriceMapper {
    let inner: PriceMapper
    init(decorating inner: PriceMapper) { self.inner = inner }
    var layers: [String] { inner.layers + ["caching"] }
}
private struct ListDataSource: Sendable {
    var itemSize = 100
    var title = "list"
}

extension DependencyContainer {
    fileprivate enum NamespaceDecoratorMappers {}
    fileprivate typealias DecoratorMappers = Namespace<NamespaceDecoratorMappers>
    fileprivate var decoratorMappers: DecoratorMappers { namespace() }
}

extension DependencyContainer.DecoratorMappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
    fileprivate var uniqueMapper: Factory<PriceMapper> {
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
    fileprivate var list: Factory<ListDataSource> {
        get { resolve { ListDataSource() } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct DecoratorTests {
    let container = DependencyContainer()

    @Test func decoratorsStackInTheOrderAdded() {
        container.decoratorMappers.priceMapper.decorate { LoggingMapper(decorating: $0) }
        container.decoratorMappers.priceMapper.decorate { CachingMapper(decorating: $0) }
        #expect(container.decoratorMappers.priceMapper().layers == ["default", "logging", "caching"])
    }

    @Test func initializerReferenceDecorates() {
        container.decoratorMappers.priceMapper.decorate(LoggingMapper.init)
        #expect(container.decoratorMappers.priceMapper().layers == ["default", "logging"])
    }

    @Test func valueTypesAreDecorated() {
        container.decoratorMappers.list.decorate { source in
            var source = source
            source.itemSize = 400
            return source
        }
        container.decoratorMappers.list.decorate { source in
            var source = source
            source.title += "+"
            return source
        }
        let source = container.decoratorMappers.list()
        #expect(source.itemSize == 400)
        #expect(source.title == "list+")
    }

    @Test func decoratorRunsOnceForASingleton() {
        let runs = Counter()
        container.decoratorMappers.priceMapper.decorate { mapper in
            runs.increment()
            return LoggingMapper(decorating: mapper)
        }
        let first = container.decoratorMappers.priceMapper()
        #expect(container.decoratorMappers.priceMapper() === first)
        #expect(runs.count == 1)
    }

    @Test func decoratorRunsOncePerUniqueInstance() {
        let runs = Counter()
        container.decoratorMappers.uniqueMapper.decorate { mapper in
            runs.increment()
            return LoggingMapper(decorating: mapper)
        }
        _ = container.decoratorMappers.uniqueMapper()
        _ = container.decoratorMappers.uniqueMapper()
        _ = container.decoratorMappers.uniqueMapper()
        #expect(runs.count == 3)
    }

    @Test func decoratingDropsTheCachedInstance() {
        let before = container.decoratorMappers.priceMapper()
        container.decoratorMappers.priceMapper.decorate { LoggingMapper(decorating: $0) }
        let after = container.decoratorMappers.priceMapper()
        #expect(after !== before)
        #expect(after.layers == ["default", "logging"])
    }

    /// A decorator added while the singleton is being made (its factory still running on another thread): the
    /// instance made without it is not published, so the next resolve makes a decorated one. Before, it was
    /// published when its construction ended, and stayed undecorated.
    @Test func decoratingWhileTheSingletonIsBeingMadeDecoratesTheNextResolve() throws {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let made = Counter()
        container.register(.singleton) { () -> PriceMapper in
            if made.increment() == 1 {
                entered.signal()
                proceed.wait()
            }
            return DefaultPriceMapper()
        }
        let first = Collected<PriceMapper>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let mapper = try? container.resolve() as PriceMapper { first.append(mapper) }
            done.signal()
        }.start()
        entered.wait()
        container.decorate(PriceMapper.self) { LoggingMapper(decorating: $0) }
        proceed.signal()
        done.wait()
        #expect(first.values.first?.layers == ["default"])
        let next = try container.resolve() as PriceMapper
        #expect(next.layers == ["default", "logging"])
        #expect(try (container.resolve() as PriceMapper) === next)
        #expect(made.count == 2)
    }

    /// A decorator cannot rewrite what a forwarding registration or a definition with runtime arguments makes:
    /// `decorate` says so instead of doing nothing silently.
    @Test func decoratingWhatCannotBeDecoratedLogsWhy() throws {
        container.register(.singleton) { DefaultPriceMapper() }.implements(PriceMapper.self)
        container.register { (size: Int) in ListDataSource(itemSize: size) }
        let messages = Log()
        Plexus.withLogging(level: .errors, logger: messages.logger) {
            container.decorate(PriceMapper.self) { LoggingMapper(decorating: $0) }
            container.decorate(ListDataSource.self) { $0 }
        }
        #expect(messages.entries.count == 2)
        #expect(messages.entries.first?.contains("registered through `implements`") == true)
        #expect(messages.entries.first?.contains("DefaultPriceMapper") == true)
        #expect(messages.entries.last?.contains("runtime arguments") == true)
        #expect((try container.resolve() as PriceMapper).layers == ["default"])
    }

    @Test func decoratingBeforeRegisteringLogsNothing() throws {
        let messages = Log()
        Plexus.withLogging(level: .errors, logger: messages.logger) {
            container.decorate(PriceMapper.self) { LoggingMapper(decorating: $0) }
        }
        #expect(messages.entries.isEmpty)
        container.register(.singleton) { DefaultPriceMapper() as PriceMapper }
        #expect((try container.resolve() as PriceMapper).layers == ["default", "logging"])
    }

    @Test func decoratorsSurviveAnOverride() {
        container.decoratorMappers.priceMapper.decorate { LoggingMapper(decorating: $0) }
        container.decoratorMappers.priceMapper = .single { CachingMapper(decorating: DefaultPriceMapper()) }
        #expect(container.decoratorMappers.priceMapper().layers == ["default", "caching", "logging"])
        container.decoratorMappers.priceMapper.replace { DefaultPriceMapper() }
        #expect(container.decoratorMappers.priceMapper().layers == ["default", "logging"])
    }

    @Test func dipStyleDefinitionsAreDecorated() throws {
        container.register(.singleton) { DefaultPriceMapper() as PriceMapper }
        container.decorate(PriceMapper.self) { LoggingMapper(decorating: $0) }
        let mapper: PriceMapper = try container.resolve()
        #expect(mapper.layers == ["default", "logging"])
        #expect(try container.resolve() as PriceMapper === mapper)
    }

    @Test func dipStyleDecoratorSurvivesReRegistrationAndAppliesToTaggedAndUniqueDefinitions() throws {
        container.decorate(PriceMapper.self, tag: "eu") { LoggingMapper(decorating: $0) }
        container.register(.unique, tag: "eu") { DefaultPriceMapper() as PriceMapper }
        #expect(try (container.resolve(tag: "eu") as PriceMapper).layers == ["default", "logging"])
        container.register(.unique, tag: "eu") { CachingMapper(decorating: DefaultPriceMapper()) as PriceMapper }
        #expect(try (container.resolve(tag: "eu") as PriceMapper).layers == ["default", "caching", "logging"])
        // Another tag is another key: not decorated.
        container.register(.unique, tag: "us") { DefaultPriceMapper() as PriceMapper }
        #expect(try (container.resolve(tag: "us") as PriceMapper).layers == ["default"])
    }

    @Test func decoratedValueTypeFromDipStyleDefinition() throws {
        container.register(.unique) { ListDataSource() }
        container.decorate(ListDataSource.self) { source in
            var source = source
            source.itemSize = 7
            return source
        }
        let source: ListDataSource = try container.resolve()
        #expect(source.itemSize == 7)
    }

    @Test func resetDropsDecorators() {
        container.decoratorMappers.priceMapper.decorate { LoggingMapper(decorating: $0) }
        container.reset()
        #expect(container.decoratorMappers.priceMapper().layers == ["default"])
    }
}
