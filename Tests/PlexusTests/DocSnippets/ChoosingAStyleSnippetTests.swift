import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article ChoosingAStyle.md, kept here as the article writes them (with the fixture types
// they assume, and a fresh container where the article uses the shared one outside the `.container` trait, since
// tests run in parallel) so that they cannot rot.

private protocol Api: AnyObject, Sendable {}
private final class NetworkApi: Api {}
private final class OfflineApi: Api {}
private final class StagingApi: Api {}
private final class FeedModel: Sendable {
    let api: Api
    init(api: Api) { self.api = api }
}

extension DependencyContainer {
    fileprivate var api: Factory<Api> { self { NetworkApi() }.singleton }
    fileprivate var feed: Factory<FeedModel> { self { FeedModel(api: self.api()) } }
}

@Suite(.silencingPlexusLogs) struct ChoosingAStyleSnippetTests {
    @Test func newAppAccessorsBuildTheFeed() throws {
        let container = DependencyContainer()  // the article uses DependencyContainer.shared
        let feed = container.feed()
        #expect(feed.api is NetworkApi)
        #expect(feed !== container.feed())  // an accessor makes a new instance unless declared otherwise
        #expect(feed.api === container.feed().api)  // `.singleton`
        #expect(try container.validate(roots: \.feed).nodes.isEmpty == false)
    }

    @Test(.container { $0.api.onTest { OfflineApi() } })
    func feedWorksOffline() {
        #expect(DependencyContainer.shared.feed().api is OfflineApi)
    }

    @Test func theTestOverrideInATestBodyOverridesTheAccessorInItsContainer() {
        let container = DependencyContainer()
        container.api.onTest { OfflineApi() }
        #expect(container.feed().api is OfflineApi)
        #expect(container.api() === container.api())  // the declaration's storage is kept, as with `replace`
        container.api.reset()
        #expect(container.feed().api is NetworkApi)
    }

    @Test func productionReplaceAtLaunchKeepsStorageAndResetRestoresTheDefault() {
        let container = DependencyContainer()  // the article uses DependencyContainer.shared
        container.api.replace { StagingApi() }
        #expect(container.feed().api is StagingApi)
        #expect(container.api() === container.api())  // still one instance: the declaration's storage is kept
        container.api.reset()
        #expect(container.feed().api is NetworkApi)
    }

    @Test func threadSafeIsAcceptedAndIgnored() async {
        let container = DependencyContainer(threadSafe: false)
        container.register(.singleton) { NetworkApi() as Api }
        let ids = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<8 { group.addTask { (try? container.resolve() as Api).map { ObjectIdentifier($0) } } }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(ids.count == 1 && ids.first != nil)
    }
}
