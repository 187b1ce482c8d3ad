import Foundation
import Plexus
import PlexusTesting
import Testing

/// A session an `async` initializer opens.
private final class Session: Sendable {
    let id: Int
    init(id: Int = 0) async {
        await Task.yield()
        self.id = id
    }
}

private final class Api: Sendable {}

private final class Repository: Sendable {
    let api: Api
    let session: Session
    init(api: Api, session: Session) {
        self.api = api
        self.session = session
    }
}

private final class Pair: Sendable {
    let first: Repository
    let second: Repository
    init(first: Repository, second: Repository) {
        self.first = first
        self.second = second
    }
}

private struct Failure: Error {}

@Suite(.silencingPlexusLogs) struct AsyncResolutionTests {
    @Test(arguments: ComponentScope.allCases)
    func anAsyncFactoryResolvesWithAwaitInEveryScope(scope: ComponentScope) async throws {
        let container = DependencyContainer()
        let made = Counter()
        container.register(scope) { () async -> Session in
            made.increment()
            return await Session(id: 7)
        }
        let first: Session = try await container.resolve()
        let second: Session = try await container.resolve()
        #expect(first.id == 7)
        switch scope {
        case .unique, .shared:
            #expect(first !== second)
            #expect(made.count == 2)
        case .singleton, .eagerSingleton, .cached, .weakSingleton:
            #expect(first === second)
            #expect(made.count == 1)
        }
    }

    @Test func tagsAndRuntimeArgumentsWorkAsInTheSynchronousForm() async throws {
        let container = DependencyContainer()
        container.register(tag: "a") { () async -> Session in await Session(id: 1) }
        container.register(tag: "b") { () async -> Session in await Session(id: 2) }
        container.register { (id: Int, offset: Int, scale: Int) async -> Session in
            await Session(id: id * scale + offset)
        }
        let a = try await container.resolve(tag: "a") as Session
        let b = try await container.resolve(tag: "b") as Session
        let computed: Session = try await container.resolve(arguments: 4, 2, 10)
        #expect(a.id == 1)
        #expect(b.id == 2)
        #expect(computed.id == 42)
    }

    @Test func theAsyncResolveResolvesSynchronousDefinitionsToo() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Api() }
        let viaAwait: Api = try await container.resolve()
        let viaSync: Api = try syncResolve(container)
        #expect(viaAwait === viaSync)
        let any = try await container.resolve(Api.self)
        #expect((any as? Api) === viaAwait)
    }

    @Test func aSynchronousResolveOfAnAsyncDefinitionThrowsNamingIt() async throws {
        let container = DependencyContainer()
        container.register { () async -> Session in await Session() }
        container.register { [unowned container] in
            Repository(api: Api(), session: try container.resolve())
        }
        #expect {
            _ = try syncResolve(container) as Session
        } throws: { error in
            guard case ResolutionError.requiresAwait(let key) = error else { return false }
            return key.type == Session.self && "\(error)".contains("Session") && "\(error)".contains("await")
        }
        // Inside a synchronous factory, even from an async resolve: the factory cannot await.
        await #expect(throws: ResolutionError.self) {
            _ = try await container.resolve() as Repository
        }
        // The container stays usable.
        let session: Session = try await container.resolve()
        #expect(session.id == 0)
    }

    @Test func aPublishedAsyncSingletonResolvesSynchronously() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { () async -> Session in await Session(id: 3) }
        let created: Session = try await container.resolve()
        let later: Session = try syncResolve(container)
        #expect(created === later)
    }

    @Test func sharedInstancesAreSharedAcrossAwaitsInOneGraph() async throws {
        let container = DependencyContainer()
        container.register(.shared) { () async -> Session in await Session() }
        container.register(.unique) { Api() }
        container.register(.unique) { [unowned container] () async throws -> Repository in
            let api: Api = try await container.resolve()
            await Task.yield()
            return Repository(api: api, session: try await container.resolve())
        }
        container.register(.unique) { [unowned container] () async throws -> Pair in
            Pair(first: try await container.resolve(), second: try await container.resolve())
        }
        let pair: Pair = try await container.resolve()
        #expect(pair.first.session === pair.second.session)
        #expect(pair.first.api !== pair.second.api)
        let other: Pair = try await container.resolve()
        #expect(other.first.session !== pair.first.session)
    }

    @Test func aCycleAcrossAwaitsThrowsWithItsPath() async throws {
        let container = DependencyContainer()
        container.register(.unique) { [unowned container] () async throws -> Session in
            _ = try await container.resolve() as Repository
            return await Session()
        }
        container.register(.unique) { [unowned container] () async throws -> Repository in
            Repository(api: Api(), session: try await container.resolve())
        }
        do {
            _ = try await container.resolve() as Session
            Issue.record("resolved a cycle")
        } catch ResolutionError.circularDependency(let path) {
            #expect(
                path.map { ObjectIdentifier($0.type) }
                    == [Session.self, Repository.self, Session.self].map(ObjectIdentifier.init))
        }
    }

    @Test func aFailedOrCancelledCreationCachesNothing() async throws {
        let container = DependencyContainer()
        let attempts = Counter()
        container.register(.singleton) { () async throws -> Session in
            if attempts.increment() == 1 { throw Failure() }
            return await Session(id: attempts.count)
        }
        await #expect(throws: Failure.self) { _ = try await container.resolve() as Session }
        let second: Session = try await container.resolve()
        #expect(second.id == 2)

        let slow = DependencyContainer()
        let started = Counter()
        slow.register(.singleton) { () async throws -> Api in
            started.increment()
            // Suspended until the test cancels it; the length is only a deadline should cancellation not arrive.
            try await Task.sleep(nanoseconds: 60_000_000_000)
            return Api()
        }
        let task = Task { try await slow.resolve() as Api }
        while started.count == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        // Nothing cached, nothing left claimed: the next resolve runs the factory again.
        let again = Task { try await slow.resolve() as Api }
        while started.count < 2 { await Task.yield() }
        again.cancel()
        _ = try? await again.value
        #expect(started.count == 2)
    }

    @Test func concurrentTasksGetOneSingletonWhoseFactorySuspends() async throws {
        let container = DependencyContainer()
        let made = Counter()
        let asking = AsyncCountdown(24)
        container.register(.singleton) { () async throws -> Session in
            made.increment()
            // Suspends until every task is asking, so that they all find this construction under way.
            await asking.wait()
            return await Session(id: 9)
        }
        // More tasks than threads in the cooperative pool: if waiting blocked threads, the factory could not finish.
        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    asking.arrive()
                    return try await container.resolve() as Session
                }
            }
            return try await group.reduce(into: [Session]()) { $0.append($1) }
        }
        #expect(sessions.count == 24)
        #expect(made.count == 1)
        #expect(sessions.allSatisfy { $0 === sessions[0] })
    }

    @Test func anAsyncFactoryIsAutoWired() async throws {
        let container = DependencyContainer()
        container.register(.singleton) { Api() }
        container.register(.shared) { () async -> Session in await Session(id: 5) }
        container.register { (api: Api, session: Session) async -> Repository in
            Repository(api: api, session: session)
        }
        let repository: Repository = try await container.resolve()
        #expect(repository.session.id == 5)
        #expect(repository.api === (try await container.resolve() as Api))
    }

    @Test func asyncEagerSingletonsBootstrapWithAwait() async throws {
        let container = DependencyContainer()
        let made = Counter()
        container.register(.eagerSingleton) { () async -> Session in
            made.increment()
            return await Session(id: 11)
        }
        #expect(throws: ResolutionError.self) { try syncBootstrap(container) }
        #expect(made.count == 0)
        try await container.bootstrap()
        #expect(container.isBootstrapped)
        #expect(made.count == 1)
        let session: Session = try syncResolve(container)
        #expect(session.id == 11)
    }

    @Test func errorsOfAsyncFactoriesPropagateUnchangedAndAreLoggedOnce() async {
        let messages = Log()
        let container = DependencyContainer()
        container.register { () async throws -> Session in throw Failure() }
        await Plexus.withLogging(level: .verbose, logger: messages.logger) {
            await #expect(throws: Failure.self) { _ = try await container.resolve() as Session }
        }
        #expect(messages.entries.count == 1)
    }
}

/// A synchronous resolve, from an async test (where Swift would pick the async overload).
private func syncResolve<T>(_ container: DependencyContainer) throws -> T {
    try container.resolve()
}

/// A synchronous bootstrap, from an async test.
private func syncBootstrap(_ container: DependencyContainer) throws {
    try container.bootstrap()
}

private final class Store: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}

@Suite(.silencingPlexusLogs) struct AsyncValidationTests {
    @Test func theAsyncValidateCoversAsyncDefinitionsAndReportsTheirEdges() async throws {
        let container = DependencyContainer(name: "Sessions")
        container.register(.singleton) { () async -> Session in await Session(id: 1) }
        container.register { [unowned container] () async throws -> Store in
            Store(session: try await container.resolve())
        }
        container.register { (id: Int) async -> Session in await Session(id: id) }
        let report = try await container.validate(7)
        let store = try #require(report.nodes(of: Store.self).first)
        let session = try #require(report.nodes(of: Session.self).first { $0.key.arguments == nil })
        #expect(report.edges.contains { $0.from == store.id && $0.to == session.id && $0.kind == .factory })
    }

    @Test func theAsyncValidateFailsOnAMissingDependencyOfAnAsyncFactory() async {
        let container = DependencyContainer()
        container.register { [unowned container] () async throws -> Store in
            Store(session: try await container.resolve())
        }
        do {
            try await container.validate()
            Issue.record("validated a graph without Session")
        } catch let error as ResolutionError {
            #expect(error.validatedDefinition.map { ObjectIdentifier($0.type) } == ObjectIdentifier(Store.self))
            guard case .definitionNotFound(let key) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Session.self))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func theSynchronousValidateSaysAnAsyncDefinitionNeedsTheAsyncOne() {
        let container = DependencyContainer()
        container.register { () async -> Session in await Session() }
        #expect {
            try container.validate()
        } throws: { error in
            guard case ResolutionError.requiresAwait = error else { return false }
            return "\(error)".contains("await")
        }
    }

    @Test func domainErrorsOfAsyncFactoriesDoNotFailTheAsyncValidate() async throws {
        struct Offline: Error {}
        let container = DependencyContainer()
        container.register { () async throws -> Session in throw Offline() }
        try await container.validate()
    }
}

@MainActor private final class Screen {}

@Suite(.silencingPlexusLogs) struct AsyncReportTests {
    @Test func asyncAndMainActorDefinitionsAreNodesOfTheirOwnKind() async throws {
        let container = DependencyContainer(name: "Kinds")
        container.register { () async -> Session in await Session() }
        container.register { @MainActor in Screen() }
        container.register { Api() }
        let report = try await container.validate()
        #expect(report.nodes(of: Session.self).first?.kind == .asyncDefinition)
        #expect(report.nodes(of: Screen.self).first?.kind == .mainActorDefinition)
        #expect(report.nodes(of: Api.self).first?.kind == .definition)
        #expect(report.mermaid.contains("(async)"))
    }
}
