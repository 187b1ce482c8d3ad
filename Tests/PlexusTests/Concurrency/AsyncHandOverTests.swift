import Plexus
import PlexusTesting
import Testing

/// A ticket an `async` initializer issues.
private final class Ticket: Sendable, Numbered {
    let number: Int
    init(number: Int) async {
        await Task.yield()
        self.number = number
    }
}

private protocol Numbered: Sendable {
    var number: Int { get }
}

/// A desk made on the main actor.
@MainActor private final class Desk {
    let number: Int
    init(number: Int) { self.number = number }
}

/// The synchronous `resolve`, which an async test cannot name directly (`await` picks the async overload).
private func resolveSynchronously<T>(_ container: DependencyContainer) throws -> T { try container.resolve() }

/// Every shape of request that reaches an `async` or `@MainActor` definition at the top of an async resolve hands it
/// over to that resolve, which makes it with `await`; the same definition one level down in a synchronous factory
/// throws the error a synchronous resolve throws, and leaves no claim behind.
@Suite(.silencingPlexusLogs) struct AsyncHandOverTests {
    @Test func anOptionalRequestOfAnAsyncDefinitionIsMadeWithAwait() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { () async -> Ticket in await Ticket(number: 1) }
        let ticket: Ticket? = try await container.resolve()
        let again: Ticket = try await container.resolve()
        #expect(ticket?.number == 1)
        #expect(ticket === again)
    }

    @Test func aForwardedRequestOfAnAsyncDefinitionIsMadeWithAwait() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { () async -> Ticket in await Ticket(number: 2) }.implements(Numbered.self)
        let numbered: any Numbered = try await container.resolve()
        let ticket: Ticket = try await container.resolve()
        #expect(numbered.number == 2)
        #expect((numbered as? Ticket) === ticket)
    }

    @Test func aCollaboratorsAsyncDefinitionIsMadeWithAwait() async throws {
        let shared = DependencyContainer()
        shared.register(.singleton) { () async -> Ticket in await Ticket(number: 3) }
        let feature = DependencyContainer()
        feature.collaborate(with: shared)
        let viaFeature: Ticket = try await feature.resolve()
        let viaShared: Ticket = try await shared.resolve()
        #expect(viaFeature.number == 3)
        #expect(viaFeature === viaShared)
    }

    @Test func aRequestOfATypeKnownAtRunTimeIsMadeWithAwait() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { () async -> Ticket in await Ticket(number: 4) }
        let any = try await container.resolve(Ticket.self)
        #expect((any as? Ticket)?.number == 4)
    }

    @Test func aMainActorDefinitionIsMadeOnTheMainActorFromATask() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { @MainActor in Desk(number: 5) }
        let desk: Desk = try await Task.detached { try await container.resolve() as Desk }.value
        let number = await MainActor.run { desk.number }
        #expect(number == 5)
    }

    @Test func anAsyncDefinitionBelowASynchronousFactoryThrowsAndLeavesNoClaim() async throws {
        let container = DependencyContainer()
        let made = Counter()
        container.register(.singleton) { () async -> Ticket in
            made.increment()
            return await Ticket(number: 6)
        }
        container.register { [unowned container] () -> [Ticket] in [try container.resolve()] }
        await #expect(throws: ResolutionError.self) { _ = try await container.resolve() as [Ticket] }
        #expect(made.count == 0)
        let ticket: Ticket = try await container.resolve()
        let synchronously: Ticket = try resolveSynchronously(container)
        #expect(ticket === synchronously)
        #expect(made.count == 1)
    }
}
