import Plexus

// Factory-style accessors: computed properties on the container whose modifier chooses the storage, consumed by
// key path with @Inject / @LazyInject.

private final class AnalyticsClient {
    private(set) var events: [String] = []
    func track(_ event: String) { events.append(event) }
}
private final class DeepLinkRouter {}
private final class HTTPClient {}
private final class AuthClient {
    let apiKey: String
    let http: HTTPClient
    init(apiKey: String, http: HTTPClient) {
        self.apiKey = apiKey
        self.http = http
    }
}
private final class RequestTrace {}

extension DependencyContainer {
    fileprivate var analyticsClient: Factory<AnalyticsClient> { self { AnalyticsClient() }.cached }
    fileprivate var deepLinkRouter: Factory<DeepLinkRouter> { self { DeepLinkRouter() }.singleton }
    fileprivate var authClient: Factory<AuthClient> { self { AuthClient(apiKey: "tour-key", http: self.httpClient()) } }
    fileprivate var httpClient: Factory<HTTPClient> { self { HTTPClient() }.cached }
    fileprivate var requestTrace: Factory<RequestTrace> { self { RequestTrace() }.shared }
}

private final class SettingsViewModel {
    @Inject var analytics: AnalyticsClient
    @LazyInject var router: DeepLinkRouter

    init(container: DependencyContainer) {
        _analytics = Inject(\.analyticsClient, container: container)
        _router = LazyInject(\.deepLinkRouter, container: container)
    }
}

private final class RequestPair {
    let first: RequestTrace
    let second: RequestTrace
    init(first: RequestTrace, second: RequestTrace) {
        self.first = first
        self.second = second
    }
}

@MainActor
func factoryStorage() throws {
    let container = DependencyContainer(name: "App")

    check(container.authClient() !== container.authClient(), "no modifier: unique, a new AuthClient every call")
    check(container.authClient().http === container.httpClient(), "its HTTPClient comes from the .cached accessor")
    check(container.deepLinkRouter() === container.deepLinkRouter(), ".singleton: one DeepLinkRouter")

    let analytics = container.analyticsClient()
    container.trimCaches()
    check(container.analyticsClient() !== analytics, ".cached: trimCaches() (or memory pressure) releases it")
    check(container.deepLinkRouter() === container.deepLinkRouter(), ".singleton survives trimCaches()")

    container.register { RequestPair(first: container.requestTrace(), second: container.requestTrace()) }
    let pair: RequestPair = try container.resolve()
    check(pair.first === pair.second, ".shared: one RequestTrace per resolution graph, across accessors and register")

    let model = SettingsViewModel(container: container)
    model.analytics.track("opened settings")
    check(
        container.analyticsClient().events == ["opened settings"],
        "@Inject(\\.analyticsClient) resolved the cached client at init")
    check(model.router === container.deepLinkRouter(), "@LazyInject(\\.deepLinkRouter) resolves on first read")

    container.authClient.replace { AuthClient(apiKey: "test-key", http: HTTPClient()) }
    check(container.authClient().apiKey == "test-key", "replace { … } overrides the accessor, keeping it unique")
    check(container.defaults.authClient().apiKey == "tour-key", "defaults still gives the declared factory")
}
