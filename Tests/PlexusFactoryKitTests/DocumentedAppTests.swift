import PlexusFactoryKit
import PlexusFactoryTesting
import Testing

// A small weather app written the way Factory's documentation teaches: services declared on `Container` with
// `self { … }`, view models that read them with `@Injected`, scopes, a custom scope, a parameter, contexts, a
// module's own `SharedContainer`, and tests that override with `register`. It is Factory code: only the imports
// at the top name Plexus.

// MARK: - The app

private protocol ForecastProviding: AnyObject {
    func forecast(for city: String) -> String
}

private final class HTTPSession {
    private(set) var requests = 0
    func get(_ path: String) -> String {
        requests += 1
        return "cloudy"
    }
}

private final class LiveForecastProvider: ForecastProviding {
    let session: HTTPSession
    init(session: HTTPSession) { self.session = session }
    func forecast(for city: String) -> String { "\(city): \(session.get("/forecast/\(city)"))" }
}

private final class FixedForecastProvider: ForecastProviding {
    let weather: String
    init(_ weather: String) { self.weather = weather }
    func forecast(for city: String) -> String { "\(city): \(weather)" }
}

private protocol EventLogging: AnyObject {
    var events: [String] { get }
    func record(_ event: String)
}

private final class EventLog: EventLogging {
    private(set) var events: [String] = []
    func record(_ event: String) { events.append(event) }
}

private protocol AnalyticsEngine {
    var sendsEvents: Bool { get }
}
private struct RemoteAnalytics: AnalyticsEngine {
    let sendsEvents = true
}
private struct SilentAnalytics: AnalyticsEngine {
    let sendsEvents = false
}

private final class TripPlanner {
    let forecasts: ForecastProviding
    let log: EventLogging
    init(forecasts: ForecastProviding, log: EventLogging) {
        self.forecasts = forecasts
        self.log = log
    }
    func plan(_ city: String) -> String {
        log.record("planned \(city)")
        return "Pack for \(forecasts.forecast(for: city))"
    }
}

private final class SignedInUser {}
private final class ThumbnailCache {}
private final class RenderPass {}
private final class FramePair {
    let first: RenderPass
    let second: RenderPass
    init(first: RenderPass, second: RenderPass) {
        self.first = first
        self.second = second
    }
}
private struct CityCard {
    let city: String
}

extension Scope {
    /// Lives until the user signs out: `Container.shared.manager.reset(scope: .signedIn)`.
    fileprivate static let signedIn = Cached()
}

extension Container {
    fileprivate var httpSession: Factory<HTTPSession> { self { HTTPSession() }.singleton }
    fileprivate var forecastProvider: Factory<ForecastProviding> {
        self { LiveForecastProvider(session: self.httpSession()) }
    }
    fileprivate var eventLog: Factory<EventLogging> { self { EventLog() }.cached }
    // Debug builds never send analytics.
    fileprivate var analytics: Factory<AnalyticsEngine> { self { RemoteAnalytics() }.onDebug { SilentAnalytics() } }
    fileprivate var tripPlanner: Factory<TripPlanner> {
        self { TripPlanner(forecasts: self.forecastProvider(), log: self.eventLog()) }
    }
    fileprivate var signedInUser: Factory<SignedInUser> { self { SignedInUser() }.scope(.signedIn) }
    fileprivate var thumbnailCache: Factory<ThumbnailCache> { self { ThumbnailCache() }.shared }
    fileprivate var renderPass: Factory<RenderPass> { self { RenderPass() }.graph }
    fileprivate var framePair: Factory<FramePair> {
        self { FramePair(first: self.renderPass(), second: self.renderPass()) }
    }
    fileprivate var cityCard: ParameterFactory<String, CityCard> { self { CityCard(city: $0) } }
}

private final class ForecastViewModel {
    @Injected(\.forecastProvider) private var provider
    @Injected(\.eventLog) private var log
    @LazyInjected(\.signedInUser) var user
    @WeakLazyInjected(\.thumbnailCache) var thumbnails
    private(set) var text = ""

    func load(_ city: String) {
        text = provider.forecast(for: city)
        log.record("showed \(city)")
    }
}

// A feature module keeps its declarations in a container of its own.
private final class SettingsContainer: SharedContainer {
    @TaskLocal static var shared = SettingsContainer()
    let manager = ContainerManager()
}

private final class Preferences {
    var units = "metric"
}

extension SettingsContainer {
    fileprivate var preferences: Factory<Preferences> { self { Preferences() }.cached }
}

private final class SettingsViewModel {
    @Injected(\SettingsContainer.preferences) var preferences
}

extension Trait where Self == ContainerTrait<SettingsContainer> {
    /// A fresh `SettingsContainer.shared` for each test.
    fileprivate static var settingsContainer: ContainerTrait<SettingsContainer> {
        .init(shared: SettingsContainer.$shared, container: .init())
    }
}

// MARK: - Its tests

@Suite(.container)
struct DocumentedAppTests {
    @Test func viewModelShowsTheLiveForecastByDefault() {
        let model = ForecastViewModel()
        model.load("Oslo")
        #expect(model.text == "Oslo: cloudy")
        #expect(Container.shared.eventLog().events == ["showed Oslo"])
    }

    @Test func registeringAMockReachesTheViewModel() {
        Container.shared.forecastProvider { FixedForecastProvider("sunny") }
        let model = ForecastViewModel()
        model.load("Lisbon")
        #expect(model.text == "Lisbon: sunny")
    }

    @Test func registerReturnsTheFactoryAndResetRestoresTheDeclaration() {
        let factory = Container.shared.forecastProvider.register { FixedForecastProvider("snow") }
        #expect(factory().forecast(for: "Tromsø") == "Tromsø: snow")
        Container.shared.forecastProvider.reset()
        #expect(Container.shared.forecastProvider().forecast(for: "Tromsø") == "Tromsø: cloudy")
    }

    @Test func aMockDeepInTheChainReachesTheCompositionRoot() {
        Container.shared.forecastProvider { FixedForecastProvider("windy") }
        let planner = Container.shared.tripPlanner()
        #expect(planner.plan("Wellington") == "Pack for Wellington: windy")
        #expect(Container.shared.eventLog().events == ["planned Wellington"])
    }

    @Test func theDebugContextSilencesAnalytics() {
        #expect(Container.shared.analytics().sendsEvents == !FactoryContext.current.isDebug)
    }

    @Test func aContextRegisteredAtTheCallSiteBeatsTheDeclaration() {
        Container.shared.forecastProvider.onDebug { FixedForecastProvider("drizzle") }
        let expected = FactoryContext.current.isDebug ? "Leeds: drizzle" : "Leeds: cloudy"
        let model = ForecastViewModel()
        model.load("Leeds")
        #expect(model.text == expected)
    }

    @Test func everyProviderSharesTheOneSession() {
        let first = Container.shared.forecastProvider() as? LiveForecastProvider
        let second = Container.shared.forecastProvider() as? LiveForecastProvider
        #expect(first !== second)
        #expect(first?.session === second?.session)
        #expect(first?.session === Container.shared.httpSession())
    }

    @Test func cachedStaysUntilItsScopeIsReset() {
        let log = Container.shared.eventLog()
        #expect(Container.shared.eventLog() === log)
        Container.shared.manager.reset(scope: .cached)
        #expect(Container.shared.eventLog() !== log)
    }

    @Test func aCustomScopeResetsOnItsOwn() {
        let model = ForecastViewModel()
        let user = model.user
        #expect(Container.shared.signedInUser() === user)
        Container.shared.manager.reset(scope: .signedIn)
        #expect(Container.shared.signedInUser() !== user)
    }

    @Test func sharedLivesWhileSomeoneHoldsIt() {
        let model = ForecastViewModel()
        do {
            let held = Container.shared.thumbnailCache()
            #expect(model.thumbnails === held)
            #expect(Container.shared.thumbnailCache() === held)
        }
        #expect(model.thumbnails == nil)
    }

    @Test func graphSharesOneInstancePerResolution() {
        let pair = Container.shared.framePair()
        let next = Container.shared.framePair()
        #expect(pair.first === pair.second)
        #expect(next.first !== pair.first)
    }

    @Test func aParameterFactoryTakesTheCity() {
        #expect(Container.shared.cityCard("Kyoto").city == "Kyoto")
        Container.shared.cityCard { CityCard(city: $0.uppercased()) }
        #expect(Container.shared.cityCard("Kyoto").city == "KYOTO")
    }

    @Test func pushAndPopUndoATestsRegistrations() {
        Container.shared.manager.push()
        Container.shared.forecastProvider { FixedForecastProvider("fog") }
        #expect(Container.shared.forecastProvider().forecast(for: "London") == "London: fog")
        Container.shared.manager.pop()
        #expect(Container.shared.forecastProvider().forecast(for: "London") == "London: cloudy")
    }

    @Test func theGlobalDependencyFunctionReadsTheSharedContainer() {
        Container.shared.forecastProvider { FixedForecastProvider("hail") }
        let provider: ForecastProviding = dependency(\.forecastProvider)
        #expect(provider.forecast(for: "Bern") == "Bern: hail")
    }

    @Test(.settingsContainer) func aModuleContainerHasItsOwnTrait() {
        let model = SettingsViewModel()
        model.preferences.units = "imperial"
        #expect(SettingsContainer.shared.preferences().units == "imperial")
        SettingsContainer.shared.preferences { Preferences() }
        #expect(SettingsContainer.shared.preferences().units == "metric")
    }
}
