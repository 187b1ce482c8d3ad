import Plexus
import PlexusTesting
import Testing

// The snippets of Testing.md's "Three ways to keep tests apart" and "Errors in logs", kept here with the fixture types
// they assume, so that they cannot rot.

private protocol Analytics: AnyObject {
    func track(_ event: String)
}
private final class ConsoleAnalytics: Analytics {
    func track(_ event: String) {}
}
private final class SpyAnalytics: Analytics {
    var events: [String] = []
    func track(_ event: String) { events.append(event) }
}
private protocol Network: Sendable {
    func fetch() async throws -> [String]
    var isOnline: Bool { get }
}
private struct LiveNetwork: Network {
    func fetch() async throws -> [String] { [] }
    var isOnline: Bool { true }
}
private struct StubNetwork: Network {
    func fetch() async throws -> [String] { ["a", "b", "c"] }
    var isOnline: Bool { true }
}
private struct OfflineNetwork: Network {
    func fetch() async throws -> [String] { [] }
    var isOnline: Bool { false }
}

extension DependencyContainer {
    fileprivate var analytics: Factory<Analytics> { self { ConsoleAnalytics() }.singleton }
    fileprivate var network: Factory<Network> { self { LiveNetwork() }.singleton }
}

/// Code under test that reads the shared container.
private struct CheckoutModel: HasSharedContainer {
    func buy() { container.analytics().track("buy") }
}
private struct Feed {
    let items: [String]
}
private struct FeedModel: HasSharedContainer {
    func load() async throws -> Feed { Feed(items: try await container.network().fetch()) }
}
private struct BannerModel {
    let isShowingOffline: Bool
}
private struct App {
    let root = DependencyContainer()
    init() {
        root.register { [root] in BannerModel(isShowingOffline: !root.network().isOnline) }
    }
}
private struct Service {}

@Suite(.container) struct TestIsolationSnippetTests {
    private let app = App()

    @Test(.container { $0.analytics.onTest { SpyAnalytics() } })
    func purchaseIsTracked() throws {
        let model = CheckoutModel()  // reads DependencyContainer.shared.analytics()
        model.buy()
        #expect((DependencyContainer.shared.analytics() as? SpyAnalytics)?.events == ["buy"])
    }

    @Test func loadingUsesTheStub() async throws {
        let container = DependencyContainer()
        container.network.onTest { StubNetwork() }
        try await DependencyContainer.withShared(container) {
            let feed = try await FeedModel().load()  // FeedModel reads DependencyContainer.shared
            #expect(feed.items.count == 3)
        }
    }

    @Test func offlineModeShowsTheBanner() throws {
        let snapshot = app.root.snapshot()
        defer { app.root.restore(snapshot) }
        app.root.network.onTest { OfflineNetwork() }
        let banner: BannerModel = try app.root.resolve()
        #expect(banner.isShowingOffline)
    }

    @Test func silencedResolveStillThrows() {
        let container = DependencyContainer()
        Plexus.withLogging(level: .none) {
            #expect(throws: ResolutionError.self) { try container.resolve() as Service }
        }
    }
}
