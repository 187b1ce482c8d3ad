import Dispatch
import Plexus
import PlexusTesting
import Testing

// Two of MigratingFromDip.md's behaviour differences, kept as the article writes them (with the fixture types they
// assume) so that they cannot rot: singletons cached per definition, and a container made with `threadSafe: false`.

private final class Cache {}
private final class Clock: Sendable {
    nonisolated(unsafe) static var made = 0  // written only by Clock(), which the singleton runs once
    init() { Clock.made += 1 }
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
}
