import Plexus
import PlexusTesting
import Testing

/// A view and its presenter that reference each other: the view is made first, the hook gives it its presenter.
// `@unchecked Sendable`: `presenter` is only set by the hook, before the resolve that made the view returns.
private final class ListView: @unchecked Sendable {
    var presenter: ListPresenter?
}
// `@unchecked Sendable`: `view` is set once, by the initializer.
private final class ListPresenter: @unchecked Sendable {
    weak var view: ListView?
    init(view: ListView) { self.view = view }
}
// `@unchecked Sendable`: written by hooks before the resolve that made it returns, read after.
private final class Journal: @unchecked Sendable {
    var entries: [String] = []
}
private final class Session: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

extension DependencyContainer {
    fileprivate var listView: Factory<ListView> {
        self { ListView() }.shared
            .resolvingProperties { container, view in view.presenter = container.listPresenter() }
    }
    fileprivate var listPresenter: Factory<ListPresenter> { self { ListPresenter(view: self.listView()) }.shared }

    fileprivate var journal: Factory<Journal> {
        self { Journal() }
            .resolvingProperties { _, journal in journal.entries.append("first") }
            .resolvingProperties { _, journal in journal.entries.append("second") }
    }
    fileprivate var keptJournal: Factory<Journal> {
        self { Journal() }
            .resolvingProperties { _, journal in journal.entries.append("hook") }
            .singleton
    }
    fileprivate var failingJournal: Factory<Journal> {
        self { Journal() }.resolvingProperties { _, _ in throw HookFailure() }
    }

    fileprivate enum NamespaceHookedSessions {}
    fileprivate typealias HookedSessions = Namespace<NamespaceHookedSessions>
    fileprivate var hookedSessions: HookedSessions { namespace() }
}

extension DependencyContainer.HookedSessions {
    fileprivate var journal: SingletonFactory<Journal> {
        get { resolve { Journal() }.resolvingProperties { _, journal in journal.entries.append("namespace") } }
        set { inject(newValue) }
    }
}

private struct HookFailure: Error {}

@Suite(.silencingPlexusLogs) struct AccessorPropertyHookTests {
    let container = DependencyContainer()

    @Test func aHookClosesACycleBetweenAViewAndItsPresenter() throws {
        let view = container.listView()
        let presenter = try #require(view.presenter)
        #expect(presenter.view === view)
    }

    @Test func hooksRunInTheOrderAdded() {
        #expect(container.journal().entries == ["first", "second"])
    }

    @Test func aHookRunsOnceForAKeptInstance() {
        let first = container.keptJournal()
        let second = container.keptJournal()
        #expect(first === second)
        #expect(first.entries == ["hook"])
    }

    @Test func aStorageModifierAfterTheHookKeepsIt() {
        #expect(container.keptJournal.scope == .singleton)
        #expect(container.keptJournal().entries == ["hook"])
    }

    @Test func aNamespaceAccessorTakesHooksToo() {
        #expect(container.hookedSessions.journal().entries == ["namespace"])
    }

    @Test func replaceKeepsTheDeclaredHooks() {
        container.journal.replace {
            let journal = Journal()
            journal.entries = ["replaced"]
            return journal
        }
        #expect(container.journal().entries == ["replaced", "first", "second"])
    }

    @Test func anAssignedValueHasNoHooks() {
        container.hookedSessions.journal = .single { Journal() }
        #expect(container.hookedSessions.journal().entries.isEmpty)
    }

    @Test func anErrorThrownByAHookPropagatesOutOfResolve() {
        #expect(throws: HookFailure.self) { try container.failingJournal.resolve() }
    }
}
