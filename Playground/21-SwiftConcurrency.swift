import Foundation
import Plexus

// Async and `@MainActor` factories: `try await container.resolve()` runs them in one resolution graph that lives
// across suspension points, and a singleton whose factory suspends is still made once.

private final class Database: Sendable {
    let name: String
    init(name: String) async throws {
        try await Task.sleep(nanoseconds: 5_000_000)  // opening takes a while
        self.name = name
    }
}

// `@unchecked Sendable`: `value` is only read or written while holding `lock`.
private final class Opened: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}

@MainActor private final class InboxView {
    weak var presenter: InboxPresenter?
}

@MainActor private final class InboxPresenter {
    let database: Database
    var view: InboxView?
    init(database: Database) { self.database = database }
}

@MainActor
func swiftConcurrency() async throws {
    let container = DependencyContainer(name: "Inbox")
    let opened = Opened()
    container.register(.singleton) { () async throws -> Database in
        opened.add()
        return try await Database(name: "inbox.sqlite")
    }
    show(
        """
        container.register(.singleton) { () async throws -> Database in try await Database(name: "inbox.sqlite") }
        let database: Database = try await container.resolve()
        """)

    // A synchronous resolve cannot run an async factory: it says so instead of blocking the thread.
    let error = caught { try resolveSynchronously(Database.self, from: container) }
    check(
        (error as? ResolutionError).map { "\($0)".contains("needs `await`") } == true,
        "a synchronous resolve of an async definition throws requiresAwait, naming Database")
    check(
        error.map { "\($0)".contains("top-level code") } == true,
        "its message explains top-level code, where Swift calls the synchronous resolve even after `await`")
    if let error { show("\(error)") }

    check(
        TopLevel.resolvedSynchronously && TopLevel.awaited == "top-level",
        "main.swift resolved a clock synchronously and an async session through an async function")
    check(
        TopLevel.articleSnippetResolved,
        "the Concurrency article's first snippet, pasted into main.swift, resolves its inbox")

    // Twenty tasks ask at once while the factory suspends: they wait for the one in flight, no thread blocks.
    let databases = try await withThrowingTaskGroup(of: Database.self) { group in
        for _ in 0..<20 { group.addTask { try await container.resolve() as Database } }
        var all: [Database] = []
        for try await database in group { all.append(database) }
        return all
    }
    check(
        opened.count == 1 && databases.allSatisfy { $0 === databases[0] },
        "20 concurrent tasks got one Database, opened once")
    let later = try resolveSynchronously(Database.self, from: container)
    check(later === databases[0], "once made, the async singleton also resolves synchronously")

    // `@MainActor` factories and hooks: the everyday screen, in Swift 6 mode, without assumeIsolated.
    container.register(.shared) { @MainActor (c: DependencyContainer) throws -> InboxPresenter in
        InboxPresenter(database: try c.resolve())
    }
    .resolvingProperties { @MainActor container, presenter in presenter.view = try container.resolve() }
    container.register(.shared) { @MainActor in InboxView() }
        .resolvingProperties { @MainActor container, view in view.presenter = try container.resolve() }
    // The tour runs on the main actor, so the synchronous resolve runs the factories in place.
    let presenter = try resolveSynchronously(InboxPresenter.self, from: container)
    check(presenter.view?.presenter === presenter, "on the main actor, @MainActor factories resolve synchronously")
    let fromElsewhere = try await Task.detached { try await container.resolve() as InboxPresenter }.value
    check(
        fromElsewhere.view?.presenter === fromElsewhere,
        "from a background task, the async resolve hops to the main actor to build and wire the pair")
    let offMain = await Task.detached { caught { try resolveSynchronously(InboxPresenter.self, from: container) } }
        .value
    check(
        offMain.map { "\($0)".contains("@MainActor") } == true,
        "a synchronous resolve off the main actor throws requiresMainActor instead of trapping")

    // A cancelled creation caches nothing: the next resolve runs the factory again.
    let slow = DependencyContainer(name: "Slow")
    let attempts = Opened()
    slow.register(.singleton) { () async throws -> Database in
        attempts.add()
        return try await Database(name: "attempt \(attempts.count)")
    }
    let cancelled = Task { try await slow.resolve() as Database }
    cancelled.cancel()
    let outcome = await cancelled.result
    let next = try await slow.resolve() as Database
    check(
        (try? outcome.get()) == nil && next.name == "attempt \(attempts.count)",
        "a cancelled creation left nothing cached; the next resolve made \(next.name)")

    // What an async factory's body reaches synchronously joins its graph: a `.shared` accessor called before and
    // after an `await` gives one instance, and `context` names the factory's key.
    let reader = DependencyContainer(name: "Reader")
    reader.register(tag: "inbox") { (c: DependencyContainer) async -> Mailbox in
        let before = c.mailboxClock()
        await Task.yield()
        return Mailbox(before: before, after: c.mailboxClock(), tag: c.context?.key.tag)
    }
    let mailbox = try await reader.resolve(tag: "inbox") as Mailbox
    check(
        mailbox.before === mailbox.after && mailbox.tag == "inbox",
        "inside an async factory, a .shared accessor gives one instance across an await, and context names the key")

    // The weakly typed async resolve takes runtime arguments, as the synchronous one does.
    let documents = DependencyContainer(name: "Documents")
    documents.register { (id: Int) async throws -> Database in try await Database(name: "document \(id)") }
    let document = try await documents.resolve(Database.self, arguments: 7) as? Database
    check(
        document?.name == "document 7",
        "try await resolve(Database.self, arguments: 7) made \(document?.name ?? "nothing")")

    // Async eager singletons are created by the async bootstrap.
    let app = DependencyContainer(name: "App")
    app.register(.eagerSingleton) { () async throws -> Database in try await Database(name: "app.sqlite") }
    try await app.bootstrap()
    check(app.isBootstrapped, "try await bootstrap() created the async eager singleton")
}

/// What `main.swift` resolved in top-level code, where Swift ranks `resolve` overloads as in a synchronous
/// function even after `await`: Dip's synchronous form, and an async definition through an async function.
@MainActor
enum TopLevel {
    static let container: DependencyContainer = {
        let container = DependencyContainer(name: "TopLevel")
        container.register(.singleton) { () async -> TopLevelSession in await TopLevelSession(name: "top-level") }
        container.register { TopLevelClock() }
        return container
    }()
    /// Whether the synchronous `try container.resolve()` written in top-level code resolved.
    static var resolvedSynchronously = false
    /// The name of the async singleton, resolved by awaiting `resolveAwaiting` from top-level code.
    static var awaited: String?
    /// Whether the Concurrency article's first snippet, pasted into `main.swift`, built an inbox with one database.
    static var articleSnippetResolved = false
}

/// Resolves with `await` inside an async function, where Swift always picks the async overload.
func resolveAwaiting<T>(_: T.Type, from container: DependencyContainer) async throws -> T {
    try await container.resolve()
}

/// A session an `async` initializer opens, resolved from `main.swift`.
final class TopLevelSession: Sendable {
    let name: String
    init(name: String) async {
        await Task.yield()
        self.name = name
    }
}

/// A synchronous definition resolved from `main.swift`.
final class TopLevelClock: Sendable {}

private final class MailboxClock: Sendable {}

private final class Mailbox: Sendable {
    let before: MailboxClock
    let after: MailboxClock
    let tag: DependencyContainer.Tag?
    init(before: MailboxClock, after: MailboxClock, tag: DependencyContainer.Tag?) {
        self.before = before
        self.after = after
        self.tag = tag
    }
}

extension DependencyContainer {
    fileprivate var mailboxClock: Factory<MailboxClock> { self { MailboxClock() }.shared }
}

/// A synchronous resolve (in async code Swift picks the async overload).
private func resolveSynchronously<T>(_: T.Type, from container: DependencyContainer) throws -> T {
    try container.resolve()
}
