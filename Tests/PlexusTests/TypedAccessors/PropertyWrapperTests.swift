import Plexus
import PlexusTesting
import Testing

private protocol AnalyticsService: AnyObject, Sendable {}
private final class ConsoleAnalytics: AnalyticsService {}
private protocol PriceMapper: AnyObject, Sendable {}
private final class DefaultPriceMapper: PriceMapper {}
private final class CustomMapper: PriceMapper {}
private final class BadgeView: Sendable {}

extension DependencyContainer {
    fileprivate enum NamespaceWrapperMappers {}
    fileprivate typealias WrapperMappers = Namespace<NamespaceWrapperMappers>
    fileprivate var wrapperMappers: WrapperMappers { namespace() }

    fileprivate var wrapperAnalytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.singleton }
    /// Only `DependencyContainer.shared` resolves this one in tests, and no other test uses its key.
    fileprivate var wrapperBadge: Factory<BadgeView> { self { BadgeView() }.singleton }
}

extension DependencyContainer.WrapperMappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
}

private final class ViewModel {
    @Inject var analytics: AnalyticsService
    @LazyInject var mapper: PriceMapper

    init(container: DependencyContainer) {
        _analytics = Inject(\.wrapperAnalytics, container: container)
        _mapper = LazyInject(\.wrapperMappers.priceMapper, container: container)
    }
}

/// Reaches the shared container statically (in a default argument) and per instance.
private final class BadgeCell: HasSharedContainer, Sendable {
    let badge: BadgeView
    init(badge: BadgeView = container.wrapperBadge()) {
        self.badge = badge
    }
    var sameContainer: Bool { container === DependencyContainer.shared && Self.container === container }
}

/// Resolves from the shared container by default.
private struct SharedConsumer {
    @Inject(\.wrapperBadge) var badge: BadgeView
    @LazyInject(\.wrapperBadge) var lazyBadge: BadgeView
}

@Suite(.silencingPlexusLogs) struct PropertyWrapperTests {
    let container = DependencyContainer()

    @Test func injectResolvesAtInitialization() {
        let model = ViewModel(container: container)
        #expect(model.analytics === container.wrapperAnalytics())
    }

    @Test func lazyInjectResolvesOnFirstReadAndKeepsTheInstance() {
        let model = ViewModel(container: container)
        container.wrapperMappers.priceMapper = .factory { CustomMapper() }
        let first = model.mapper
        #expect(first is CustomMapper)
        #expect(model.mapper === first)
    }

    @Test func injectReadsTheOverrideInPlaceAtInitialization() {
        container.wrapperAnalytics.replace { ConsoleAnalytics() }
        let override = container.wrapperAnalytics()
        #expect(ViewModel(container: container).analytics === override)
    }

    @Test func wrappersUseTheSharedContainerByDefault() {
        let consumer = SharedConsumer()
        #expect(consumer.badge === DependencyContainer.shared.wrapperBadge())
        #expect(consumer.lazyBadge === consumer.badge)
    }

    @Test func hasSharedContainerReachesTheSharedContainer() {
        let cell = BadgeCell()
        #expect(cell.sameContainer)
        #expect(cell.badge === DependencyContainer.shared.wrapperBadge())
    }
}
