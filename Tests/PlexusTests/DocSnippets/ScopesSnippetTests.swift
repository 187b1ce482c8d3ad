import Plexus
import Testing

// The snippets of Scopes.md, kept here as the article writes them (wrapped in tests, with the fixture types they
// assume) so that they cannot rot. Each test checks what the article says about its snippet. The `.shared`
// snippet is in DocSnippetTests.

private final class Formatter {}
private final class Clock {}
private final class Database {
    nonisolated(unsafe) static var made = 0
    init() { Database.made += 1 }
}
private final class Session {
    nonisolated(unsafe) static var made = 0
    init() { Session.made += 1 }
}

@Suite(.silencingPlexusLogs, .serialized) struct ScopesSnippetTests {
    @Test func uniqueMakesANewInstanceEveryTime() throws {
        let container = DependencyContainer()
        container.register(.unique) { Formatter() }
        let a: Formatter = try container.resolve()
        let b: Formatter = try container.resolve()
        #expect(a !== b)
    }

    @Test func singletonIsMadeOnce() throws {
        let container = DependencyContainer()
        container.register(.singleton) { Clock() }
        let c: Clock = try container.resolve()
        let d: Clock = try container.resolve()
        #expect(c === d)
    }

    @Test func eagerSingletonIsMadeByBootstrap() throws {
        let container = DependencyContainer()
        let before = Database.made
        container.register(.eagerSingleton) { Database() }
        try container.bootstrap()  // Database() runs here
        #expect(Database.made == before + 1)
        let db: Database = try container.resolve()  // the same instance
        #expect(Database.made == before + 1)
        #expect(db === (try container.resolve() as Database))
    }

    @Test func weakSingletonIsMadeAnewOnceEveryReferenceIsGone() throws {
        let container = DependencyContainer()
        let before = Session.made
        container.register(.weakSingleton) { Session() }
        var session: Session? = try container.resolve()
        do {
            let same: Session = try container.resolve()  // same === session
            #expect(same === session)
        }
        #expect(Session.made == before + 1)
        session = nil  // and every other reference gone
        #expect(session == nil)
        let next: Session = try container.resolve()  // a new instance
        #expect(Session.made == before + 2)
        _ = next
    }
}
