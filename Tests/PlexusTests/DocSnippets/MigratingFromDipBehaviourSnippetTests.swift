import Dispatch
import Plexus
import PlexusTesting
import Testing

// MigratingFromDip.md's snippets of behaviour that changes without a compile error, kept as the article writes them
// (with the fixture types they assume) so that they cannot rot: collaboration in the direction it was declared, one
// `.shared` instance per graph whether resolved with a tag or not (also auto-wired), singletons cached per
// definition, and a container made with `threadSafe: false`. Where the article says in a comment what a value is in
// Plexus, the test expects it.

private final class Cache {}
private final class Clock: Sendable {
    nonisolated(unsafe) static var made = 0  // written only by Clock(), which the singleton runs once
    init() { Clock.made += 1 }
}

private final class FeatureWireframe: Sendable {}
private final class Session: Sendable {}
private protocol Api: Sendable {}
private struct LiveApi: Api {}
private final class Store: Sendable {}
private final class Client: Sendable {
    init(api: Api, store: Store) {}
}

@Suite(.silencingPlexusLogs, .serialized) struct MigratingFromDipBehaviourSnippetTests {
    @Test func singletonsAreCachedPerDefinitionAndAnOverrideDropsThem() throws {
        let container = DependencyContainer()
        container.register(.singleton) { Cache() }
        let a: Cache = try container.resolve(tag: "a")
        let b: Cache = try container.resolve(tag: "b")
        #expect(a === b)
        #expect(a === (try container.resolve() as Cache))

        container.register(.singleton) { Cache() }  // override
        let c: Cache = try container.resolve()
        #expect(c !== a)  // the override dropped the old instance
    }

    @Test func containerMadeNotThreadSafeIsStillThreadSafe() {
        let before = Clock.made
        let container = DependencyContainer(threadSafe: false)  // still thread-safe in Plexus
        container.register(.singleton) { Clock() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = try? container.resolve() as Clock }
        #expect(Clock.made == before + 1)  // Clock() ran once
    }

    @Test func collaborationWorksInTheDirectionItWasDeclared() throws {
        let root = DependencyContainer()
        let feature = DependencyContainer()
        feature.register(.singleton) { FeatureWireframe() }
        feature.collaborate(with: root)

        // Plexus: throws definitionNotFound; `root` never asked to see `feature`
        let error = #expect(throws: ResolutionError.self) {
            let wireframe: FeatureWireframe = try root.resolve()
            _ = wireframe
        }
        guard case .definitionNotFound = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }

        // Plexus: say it on both sides when both need it; the singleton stays owned by `feature`
        root.collaborate(with: feature)
        let same: FeatureWireframe = try root.resolve()  // === try feature.resolve()
        #expect(same === (try feature.resolve() as FeatureWireframe))
    }

    @Test func aSharedInstanceResolvedWithATagAndUntaggedInOneGraphIsOneInstance() throws {
        let container = DependencyContainer()
        container.register { Session() }
            .resolvingProperties { container, session in
                let again: Session = try container.resolve()
                // Plexus: again === session
                #expect(again === session)
            }
        let session: Session = try container.resolve(tag: "checkout")
        _ = session
    }

    @Test func anAutoWiredSharedInstanceIsOneInstancePerGraph() throws {
        let container = DependencyContainer()
        container.register { LiveApi() as Api }
        container.register { Store() }
        container.register { (api: Api, store: Store) in Client(api: api, store: store) }
            .resolvingProperties { container, client in
                let other: Client = try container.resolve()
                // Dip: other !== client;  Plexus: other === client
                #expect(other === client)
            }
        let client: Client = try container.resolve(tag: "tag")
        _ = client
    }
}
