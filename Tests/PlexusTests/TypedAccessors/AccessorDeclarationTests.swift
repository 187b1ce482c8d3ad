import Plexus
import PlexusTesting
import Testing

private protocol AnalyticsService: AnyObject, Sendable {}
private final class ConsoleAnalytics: AnalyticsService {}
private final class DeepLinkManager: Sendable {}
private final class NetworkManager: Sendable {}
private final class Session: Sendable {}
private final class Clock: Sendable {}
private final class Probe: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class AuthService: Sendable {
    let apiKey: String
    let network: NetworkManager
    init(apiKey: String, network: NetworkManager) {
        self.apiKey = apiKey
        self.network = network
    }
}

private protocol PriceMapper: AnyObject, Sendable {}
private final class DefaultPriceMapper: PriceMapper {}
private protocol CellView: AnyObject, Sendable {}
private final class DefaultCellView: CellView {}

// Factory style: accessors on the container itself.
extension DependencyContainer {
    fileprivate var analytics: Factory<AnalyticsService> { self { ConsoleAnalytics() }.cached }
    fileprivate var deepLinks: Factory<DeepLinkManager> { self { DeepLinkManager() }.singleton }
    fileprivate var auth: Factory<AuthService> { self { AuthService(apiKey: "k", network: self.network()) } }
    fileprivate var network: Factory<NetworkManager> { self { NetworkManager() }.cached }
    fileprivate var session: Factory<Session> { self { Session() }.shared }
    fileprivate var clock: Factory<Clock> { self { Clock() }.weakSingleton }
    fileprivate var uniqueClock: Factory<Clock> { self { Clock() }.singleton.unique }
    fileprivate var weakProbe: Factory<Probe> { self { Probe(serial: 0) }.weakSingleton }
}

// SDK style: namespaces.
extension DependencyContainer {
    fileprivate enum NamespaceDeclMappers {}
    fileprivate typealias DeclMappers = Namespace<NamespaceDeclMappers>
    fileprivate var declMappers: DeclMappers { namespace() }
}

extension DependencyContainer.DeclMappers {
    fileprivate var priceMapper: SingletonFactory<PriceMapper> {
        get { resolve { DefaultPriceMapper() } }
        set { inject(newValue) }
    }
    fileprivate var cellView: Factory<CellView> {
        get { resolve { DefaultCellView() } }
        set { inject(newValue) }
    }
    fileprivate var cachedMapper: SingletonFactory<PriceMapper> {
        get { resolve { DefaultPriceMapper() }.cached }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorDeclarationTests {
    let container = DependencyContainer()

    @Test func containerAccessorKeyIsTypeAndPropertyTag() {
        let key = container.analytics.key
        #expect(
            key
                == DefinitionKey(
                    type: AnalyticsService.self, typeOfArguments: Void.self, tag: "DependencyContainer.analytics"))
    }

    @Test func namespaceAccessorKeyUsesMarkerNameAndPropertyName() {
        #expect(
            container.declMappers.priceMapper.key
                == DefinitionKey(
                    type: PriceMapper.self, typeOfArguments: Void.self, tag: "NamespaceDeclMappers.priceMapper"))
        #expect(container.declMappers.cellView.key?.tag == "NamespaceDeclMappers.cellView")
    }

    @Test func modifiersSetTheStorage() {
        #expect(container.analytics.scope == .cached)
        #expect(container.deepLinks.scope == .singleton)
        #expect(container.auth.scope == .unique)
        #expect(container.session.scope == .shared)
        #expect(container.clock.scope == .weakSingleton)
        #expect(container.uniqueClock.scope == .unique)
        #expect(container.declMappers.priceMapper.scope == .singleton)
        #expect(container.declMappers.cellView.scope == .unique)
        #expect(container.declMappers.cachedMapper.scope == .cached)
    }

    @Test func uniqueAccessorMakesANewInstanceEachCall() {
        #expect(container.auth() !== container.auth())
        #expect(container.declMappers.cellView() !== container.declMappers.cellView())
        #expect(container.uniqueClock() !== container.uniqueClock())
    }

    @Test func singletonAndCachedAccessorsKeepOneInstance() {
        #expect(container.deepLinks() === container.deepLinks())
        #expect(container.analytics() === container.analytics())
        #expect(container.declMappers.priceMapper() === container.declMappers.priceMapper())
    }

    @Test func accessorFactoryResolvesOtherAccessors() {
        let auth = container.auth()
        #expect(auth.apiKey == "k")
        #expect(auth.network === container.network())
    }

    @Test func sharedAccessorIsOnePerResolutionGraph() throws {
        final class Pair: Sendable {
            let first: Session
            let second: Session
            init(first: Session, second: Session) {
                self.first = first
                self.second = second
            }
        }
        let container = container
        container.register { Pair(first: container.session(), second: container.session()) }
        let pair: Pair = try container.resolve()
        #expect(pair.first === pair.second)
        #expect(container.session() !== container.session())
    }

    @Test func weakSingletonAccessorLivesWhileHeld() {
        let counter = Counter()
        let container = container
        container.register(.weakSingleton, tag: "DependencyContainer.weakProbe") {
            Probe(serial: counter.increment())
        }
        var held: Probe? = container.weakProbe()
        #expect(container.weakProbe() === held)
        #expect(held?.serial == 1)
        held = nil
        #expect(container.weakProbe().serial == 2)
    }

    @Test func throwingFormReturnsTheSameInstance() throws {
        let mapper = try container.declMappers.priceMapper.resolve()
        #expect(mapper === container.declMappers.priceMapper())
    }

    @Test func eachContainerHasItsOwnDefaultSingleton() {
        let other = DependencyContainer()
        #expect(container.deepLinks() !== other.deepLinks())
    }

    @Test func namedContainerKeepsItsName() {
        #expect(DependencyContainer(name: "Checkout").name == "Checkout")
        #expect(container.name.hasSuffix("AccessorDeclarationTests.swift"))
    }

    @Test func sharedContainerIsOneProcessWideContainer() {
        #expect(DependencyContainer.shared === DependencyContainer.shared)
        #expect(DependencyContainer.shared.name == "shared")
    }

    @Test func resetForgetsAccessorInstancesAndOverrides() {
        let before = container.deepLinks()
        container.declMappers.priceMapper = .single { DefaultPriceMapper() }
        let overridden = container.declMappers.priceMapper()
        container.reset()
        #expect(container.deepLinks() !== before)
        #expect(container.declMappers.priceMapper() !== overridden)
        #expect(container.declMappers.priceMapper() === container.declMappers.priceMapper())
    }
}
