import Plexus
import PlexusTesting
import Testing

private final class Database: Sendable {
    let name: String
    init(name: String) { self.name = name }

    /// Opens a database after a real suspension; with `asking`, only once every task is asking for it, so that they
    /// all find its construction under way.
    static func open(name: String = "main", calls: Counter? = nil, asking: AsyncCountdown? = nil) async throws
        -> Database
    {
        calls?.increment()
        await resumedFromAnotherThread()
        await asking?.wait()
        return Database(name: name)
    }
}
private final class Repository: Sendable {
    let database: Database
    let clock: Clock
    init(database: Database, clock: Clock) {
        self.database = database
        self.clock = clock
    }
}
private final class Clock: Sendable {}
/// Larger than the six words an accessor's result takes on the stack.
private struct Board {
    var cells: (Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7)
}
private struct ClockPair {
    let first: Clock
    let second: Clock
}
@MainActor private final class CatalogViewModel {
    let title: String
    init(title: String = "catalog") { self.title = title }
}

extension DependencyContainer {
    fileprivate var database: AsyncFactory<Database> { self { try await Database.open() }.singleton }
    fileprivate var freshDatabase: AsyncFactory<Database> { self { try await Database.open(name: "fresh") } }
    fileprivate var clock: Factory<Clock> { self { Clock() }.singleton }
    fileprivate var repository: AsyncFactory<Repository> {
        self { Repository(database: try await self.database(), clock: self.clock()) }
    }
    fileprivate var catalog: MainActorFactory<CatalogViewModel> { self { @MainActor in CatalogViewModel() } }
    fileprivate var keptCatalog: MainActorFactory<CatalogViewModel> {
        self { @MainActor in CatalogViewModel() }.singleton
    }

    fileprivate var sharedClock: Factory<Clock> { self { Clock() }.shared }
    fileprivate var board: MainActorFactory<Board> { self { @MainActor in Board() } }
    fileprivate var catalogPair: MainActorFactory<ClockPair> {
        self { @MainActor in ClockPair(first: self.sharedClock(), second: self.sharedClock()) }
    }

    fileprivate enum NamespaceAsyncStores {}
    fileprivate typealias AsyncStores = Namespace<NamespaceAsyncStores>
    fileprivate var asyncStores: AsyncStores { namespace() }
}

extension DependencyContainer.AsyncStores {
    fileprivate var database: AsyncFactory<Database> { resolve { try await Database.open(name: "store") }.singleton }
    fileprivate var catalog: MainActorFactory<CatalogViewModel> {
        resolve { @MainActor in CatalogViewModel(title: "store") }
    }
}

@Suite(.silencingPlexusLogs) struct AsyncAccessorTests {
    let container = DependencyContainer()

    @Test func anAsyncAccessorIsCalledWithAwait() async throws {
        #expect(try await container.database().name == "main")
    }

    @Test func anAsyncSingletonIsKept() async throws {
        let first = try await container.database()
        #expect(try await container.database() === first)
        #expect(try await container.freshDatabase() !== container.freshDatabase())
    }

    @Test func anAsyncAccessorResolvesSynchronousAccessorsInItsGraph() async throws {
        let repository = try await container.repository()
        #expect(repository.database === (try await container.database()))
        #expect(repository.clock === container.clock())
    }

    @Test func anAsyncSingletonIsMadeOnceForManyTasks() async throws {
        let calls = Counter()
        let asking = AsyncCountdown(50)
        container.database.replace { try await Database.open(calls: calls, asking: asking) }
        let made = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    asking.arrive()
                    return ObjectIdentifier(try await container.database())
                }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        #expect(calls.count == 1)
    }

    @Test func replaceKeepsTheStorage() async throws {
        let before = try await container.database()
        container.database.replace { Database(name: "replaced") }
        let after = try await container.database()
        #expect(after !== before)
        #expect(after.name == "replaced")
        #expect(try await container.database() === after)
    }

    @Test func aKeptAsyncSingletonIsMadeAgainAfterReset() async throws {
        let first = try await container.database()
        #expect(try await container.database() === first)
        container.database.reset(.scope)
        let second = try await container.database()
        #expect(second !== first)
        #expect(try await container.database() === second)
    }

    @Test func aKeptAsyncSingletonGivesWayToAnOverrideInACollaboratorLinkedLater() async throws {
        _ = try await container.database()
        let module = DependencyContainer()
        module.database.replace { Database(name: "module") }
        container.collaborate(with: module)
        #expect(try await container.database().name == "module")
    }

    @Test func anAccessorReplacedBeforeItsFirstUseIsATypedAccessorNode() async throws {
        container.freshDatabase.replace { Database(name: "replaced") }
        let report = try await container.validate()
        let node = report.nodes.first { $0.key.tag?.contains("DependencyContainer.freshDatabase") == true }
        #expect(node?.kind == .typedAccessor)
    }

    @Test func aDecoratorRunsOncePerInstance() async throws {
        container.freshDatabase.decorate { Database(name: $0.name + "+decorated") }
        #expect(try await container.freshDatabase().name == "fresh+decorated")
    }

    @Test func aSynchronousResolveOfAnOverrideThrowsInsteadOfBlocking() async throws {
        container.freshDatabase.replace { try await Database.open(name: "override") }
        let error = #expect(throws: ResolutionError.self) {
            let _: Database = try container.resolve(tag: "DependencyContainer.freshDatabase")
        }
        guard case .requiresAwait = error else {
            Issue.record("expected requiresAwait, got \(String(describing: error))")
            return
        }
    }

    @Test func theKeyIsTheTypeAndTheProperty() throws {
        let key = try #require(container.database.key)
        #expect(key.tag == "DependencyContainer.database")
        #expect(container.database.scope == .singleton)
    }

    @MainActor @Test func aMainActorAccessorIsCalledOnTheMainActor() {
        #expect(container.catalog().title == "catalog")
        #expect(container.catalog() !== container.catalog())
        #expect(container.keptCatalog() === container.keptCatalog())
    }

    @Test func aNamespaceDeclaresAsyncAccessors() async throws {
        let database = try await container.asyncStores.database()
        #expect(database.name == "store")
        #expect(try await container.asyncStores.database() === database)
        #expect(container.asyncStores.database.key?.tag == "NamespaceAsyncStores.database")
    }

    @MainActor @Test func aNamespaceDeclaresMainActorAccessors() {
        #expect(container.asyncStores.catalog().title == "store")
    }

    @MainActor @Test func aMainActorAccessorIsDecoratedAndReset() {
        // Decorators are synchronous and not isolated; this one runs where the accessor is called.
        container.catalog.decorate { _ in MainActor.assumeIsolated { CatalogViewModel(title: "decorated") } }
        #expect(container.catalog().title == "decorated")
        container.catalog.replace { @MainActor in CatalogViewModel(title: "replaced") }
        #expect(container.catalog().title == "decorated")
        container.catalog.reset()
        #expect(container.catalog().title == "decorated")
        let kept = container.keptCatalog()
        container.keptCatalog.reset(.scope)
        #expect(container.keptCatalog() !== kept)
    }

    @MainActor @Test func aMainActorAccessorSharesItsGraph() {
        let pair = container.catalogPair()
        #expect(pair.first === pair.second)
        #expect(container.catalogPair().first !== pair.first)
    }

    /// The fast path runs a main-actor factory in place only for a caller on the main actor: resolved by its key
    /// from another thread, the accessor's definition still throws.
    @Test func aMainActorAccessorResolvedByKeyOffTheMainActorThrows() async throws {
        await MainActor.run { _ = container.catalog() }
        let key = try #require(container.catalog.key)
        let error = await Task.detached { [container] in
            #expect(throws: ResolutionError.self) {
                let _: CatalogViewModel = try container.resolve(tag: key.tag)
            }
        }.value
        guard case .requiresMainActor = error else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))")
            return
        }
    }

    @MainActor @Test func aMainActorAccessorMakesALargeInstance() {
        #expect(container.board().cells.6 == 7)
    }

    @MainActor @Test func aMainActorAccessorIsOverridden() {
        container.catalog.replace { @MainActor in CatalogViewModel(title: "replaced") }
        #expect(container.catalog().title == "replaced")
    }

    @Test func aMainActorAccessorIsCalledFromElsewhereByHoppingToTheMainActor() async {
        let title = await MainActor.run { container.catalog().title }
        #expect(title == "catalog")
    }
}
