import Plexus
import Testing

// The fast path reads a container's definitions without its lock while nothing changes the container (the reader
// bias). A change turns that off for a while; a resolve that only reads must not, or every definition that takes the
// general path would send the reads around it to the lock.

private final class Client: Sendable {}

/// Instances that need their `Resolvable` callbacks: resolved by the general path.
private final class Completed: Resolvable, Sendable {}

@Suite struct ReaderBiasTests {
    /// A container with a singleton and, with `completed`, a unique `Completed`, each resolved once (the first
    /// resolve of a type learns what its instances need, a change), then read often enough under the lock for reads to
    /// skip it again.
    private func warmedUp(completed: Bool = false) throws -> DependencyContainer {
        let container = DependencyContainer()
        container.register(.singleton) { Client() }
        if completed {
            container.register(.unique) { Completed() }
            _ = try container.resolve() as Completed
        }
        for _ in 0..<64 { _ = try container.resolve() as Client }
        return container
    }

    @Test func aRegistrationStopsReadsWithoutTheLockUntilReadsUnderItResumeThem() throws {
        let container = try warmedUp()
        #expect(EngineTestHooks.readsWithoutLock(container))
        container.register(.unique) { Completed() }
        #expect(!EngineTestHooks.readsWithoutLock(container))
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func resolvingADefinitionOfTheGeneralPathKeepsReadsWithoutTheLock() throws {
        let container = try warmedUp(completed: true)
        _ = try container.resolve() as Completed
        #expect(EngineTestHooks.readsWithoutLock(container))
        _ = try container.resolve() as Client
        _ = try container.resolve() as Completed
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aSingletonOfTheGeneralPathMadeAndReadAgainKeepsReadsWithoutTheLockOnceMade() throws {
        let container = DependencyContainer()
        container.register(.singleton) { Client() }
        container.register(.singleton) { Completed() }
        let first = try container.resolve() as Completed
        for _ in 0..<64 { _ = try container.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(container))
        #expect(try container.resolve() as Completed === first)
        #expect(EngineTestHooks.readsWithoutLock(container))
    }

    @Test func aDefinitionReachedThroughACollaboratorKeepsItsContainersReadsWithoutTheLock() throws {
        let module = try warmedUp(completed: true)
        let app = DependencyContainer()
        app.collaborate(with: module)
        _ = try app.resolve() as Completed
        for _ in 0..<64 { _ = try module.resolve() as Client }
        #expect(EngineTestHooks.readsWithoutLock(module))
        _ = try app.resolve() as Completed
        #expect(EngineTestHooks.readsWithoutLock(module))
    }
}
