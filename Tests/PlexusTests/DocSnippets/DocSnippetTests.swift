import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC articles Plexus.md, GettingStarted.md, Scopes.md and Collaboration.md, kept here
// verbatim (wrapped in tests, with the fixture types they assume) so that they cannot rot. Each test checks what
// the article says about its snippet. The other articles have their own files in this folder.

// MARK: - Plexus.md

private protocol Api: AnyObject {}
private final class URLSessionApi: Api {}
private final class ListView {}
private final class ListPresenter {
    let api: Api
    var view: ListView?
    init(api: Api) { self.api = api }
}

// MARK: - GettingStarted.md

private protocol Service: AnyObject {}
private final class ServiceImp: Service {}
private final class Clock {}

// MARK: - Scopes.md

private final class Router {}
private final class Interactor {
    let router: Router
    init(router: Router) { self.router = router }
}
private final class Presenter {
    let interactor: Interactor
    let router: Router
    init(interactor: Interactor, router: Router) {
        self.interactor = interactor
        self.router = router
    }
}

// MARK: - Collaboration.md

private protocol DataStore: AnyObject {}
private final class CoreDataStore: DataStore {}
private final class EventsListWireframe {
    let dataStore: DataStore
    var addEventWireframe: AddEventWireframe?
    init(dataStore: DataStore) { self.dataStore = dataStore }
}
private final class AddEventWireframe {
    weak var eventsListWireframe: EventsListWireframe?
    var dataStore: DataStore?
}

@Suite(.silencingPlexusLogs) struct DocSnippetTests {
    @Test func overviewSnippetBuildsThePresenterWithItsView() throws {
        let container = DependencyContainer()
        container.register(.singleton) { URLSessionApi() as Api }
        container.register { c in ListPresenter(api: try c.resolve()) }
            .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
        container.register { ListView() }

        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.view != nil)
        #expect(presenter.api === (try container.resolve() as Api))
    }

    @Test func gettingStartedFactoryResolvesItsDependencies() throws {
        final class ListPresenter {
            let service: Service
            let clock: Clock
            init(service: Service, clock: Clock) {
                self.service = service
                self.clock = clock
            }
        }
        let container = DependencyContainer()
        container.register { ServiceImp() as Service }
        container.register(.singleton) { Clock() }

        container.register { c in
            ListPresenter(service: try c.resolve(), clock: try c.resolve())
        }

        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.service is ServiceImp)
        #expect(presenter.clock === (try container.resolve() as Clock))
    }

    @Test func containerWhoseFactoriesCaptureItUnownedIsFreed() throws {
        weak var weakContainer: DependencyContainer?
        weak var weakClock: Clock?
        do {
            let container = DependencyContainer()
            container.register(.singleton) { Clock() }
            container.register { ServiceImp() as Service }
            container.register { c in Interactor(router: try c.resolve()) }
            container.register { Router() }
            let clock: Clock = try container.resolve()
            _ = try container.resolve() as Interactor
            weakContainer = container
            weakClock = clock
        }
        #expect(weakContainer == nil)
        #expect(weakClock == nil)  // and with it every singleton it made
    }

    @Test func sharedSnippetSharesTheRouterWithinOneGraphOnly() throws {
        let container = DependencyContainer()
        container.register { Router() }  // .shared
        container.register { c in Interactor(router: try c.resolve()) }
        container.register { c in
            Presenter(interactor: try c.resolve(), router: try c.resolve())
        }

        let presenter: Presenter = try container.resolve()
        #expect(presenter.router === presenter.interactor.router)
        let other: Presenter = try container.resolve()
        #expect(other.router !== presenter.router)
    }

    @Test func collaborationSnippetWiresThreeModules() throws {
        let root = DependencyContainer()
        let eventsList = DependencyContainer()
        let addEvent = DependencyContainer()
        root.register(.singleton) { CoreDataStore() as DataStore }
        eventsList.register { c in EventsListWireframe(dataStore: try c.resolve()) }
            .resolvingProperties { c, w in w.addEventWireframe = try c.resolve() }
        addEvent.register { AddEventWireframe() }
            .resolvingProperties { c, w in
                w.eventsListWireframe = try c.resolve()
                w.dataStore = try c.resolve()
            }
        eventsList.collaborate(with: addEvent, root)
        addEvent.collaborate(with: eventsList, root)
        let wireframe: EventsListWireframe = try eventsList.resolve()

        #expect(wireframe.addEventWireframe?.eventsListWireframe === wireframe)
        let store: DataStore = try root.resolve()
        #expect(wireframe.dataStore === store)
        #expect(wireframe.addEventWireframe?.dataStore === store)
    }
}
