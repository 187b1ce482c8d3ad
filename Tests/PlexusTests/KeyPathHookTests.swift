import Plexus
import PlexusTesting
import Testing

private protocol ListView: AnyObject {}
private final class TableListView: ListView, Sendable {}
private protocol Router: AnyObject {}
private final class MainRouter: Router {}
private final class Unrelated {}

private final class ListPresenter {
    weak var view: ListView?
    var router: Router?
    var title = ""
}

private final class OtherPresenter {
    var router: Router?
}

@Suite(.silencingPlexusLogs) struct KeyPathHookTests {
    let container = DependencyContainer()

    @Test func keyPathHookResolvesThePropertysType() throws {
        let view = TableListView()
        container.register { view as ListView }
        container.register { ListPresenter() }.resolvingProperty(\.view)
        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.view === view)
    }

    @Test func keyPathHookResolvesTheGivenTypeAndTag() throws {
        container.register(tag: "main") { MainRouter() }
        container.register { ListPresenter() }
            .resolvingProperty(\ListPresenter.router, as: MainRouter.self, tag: "main")
        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.router is MainRouter)
    }

    @Test func keyPathHookWithAFactorySetsWhatItMakes() throws {
        container.register(tag: "title") { "Inbox" }
        container.register { ListPresenter() }
            .resolvingProperty(\.title, factory: { try $0.resolve(tag: "title") })
            .resolvingProperty(\.router, factory: { _ in MainRouter() })
        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.title == "Inbox")
        #expect(presenter.router is MainRouter)
    }

    @Test func keyPathHooksRunInTheOrderAddedWithOtherHooks() throws {
        container.register { ListPresenter() }
            .resolvingProperty(\.title, factory: { _ in "first" })
            .resolvingProperties { _, presenter in presenter.title += ", second" }
        #expect((try container.resolve() as ListPresenter).title == "first, second")
    }

    @Test func resolvedValueOfAnotherTypeThrowsInvalidType() throws {
        container.register { Unrelated() }
        container.register { ListPresenter() }.resolvingProperty(\.router, as: Unrelated.self)
        let error = try #require(throws: ResolutionError.self) { _ = try container.resolve() as ListPresenter }
        guard case .invalidType(let resolved, let key) = error else {
            Issue.record("expected invalidType, got \(error)")
            return
        }
        #expect(resolved.map(ObjectIdentifier.init) == ObjectIdentifier(Unrelated.self))
        #expect(key == DefinitionKey(type: Router?.self, typeOfArguments: Void.self))
    }

    @Test func keyPathOfAnotherRootThrowsInvalidType() throws {
        container.register { MainRouter() as Router }
        container.register { ListPresenter() }.resolvingProperty(\OtherPresenter.router)
        container.register(tag: "factory") { ListPresenter() }
            .resolvingProperty(\OtherPresenter.router, factory: { _ in nil })
        for tag in [nil, "factory"] as [DependencyTagConvertible?] {
            let error = try #require(throws: ResolutionError.self) {
                _ = try container.resolve(tag: tag) as ListPresenter
            }
            guard case .invalidType(let resolved, let key) = error else {
                Issue.record("expected invalidType, got \(error)")
                continue
            }
            #expect(resolved.map(ObjectIdentifier.init) == ObjectIdentifier(ListPresenter.self))
            #expect(key == DefinitionKey(type: OtherPresenter.self, typeOfArguments: Void.self))
        }
    }

    @Test func containerResolvesAfterAKeyPathHookThrew() throws {
        let definition = container.register { ListPresenter() }.resolvingProperty(\.view)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as ListPresenter }
        let view = TableListView()
        container.register { view as ListView }
        #expect((try container.resolve() as ListPresenter).view === view)
        _ = definition
    }
}
