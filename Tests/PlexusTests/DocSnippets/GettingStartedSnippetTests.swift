import Plexus
import Testing

// The snippets of GettingStarted.md, kept here as the article writes them (wrapped in tests, with the fixture
// types they assume) so that they cannot rot. Each test checks what the article says about its snippet. The
// Package.swift fragment is not Swift a test can compile, and the logging snippet needs `os`, which Linux lacks.

private protocol Service: AnyObject {}
private final class ServiceImp: Service {}
private final class MockService: Service {}
private final class Clock {}
private final class ListPresenter {
    let service: Service
    let clock: Clock
    init(service: Service, clock: Clock) {
        self.service = service
        self.clock = clock
    }
}

private protocol Api: AnyObject { var url: String { get } }
private final class HTTPApi: Api {
    let url: String
    init(url: String) { self.url = url }
}
private let productionURL = "https://example.com"
private let localURL = "http://localhost"
private enum Environment: String, DependencyTagConvertible { case production, staging }

private struct Cell {
    let id: Int
    let title: String
}

private final class Store {}
private final class Repository {
    let api: Api
    let store: Store
    init(api: Api, store: Store) {
        self.api = api
        self.store = store
    }
}

private final class Analytics {}
private protocol ListDelegate: AnyObject {}
private final class AppListDelegate: ListDelegate {}
private final class ListView {
    @Injected var presenter: ListPresenter?
    @Injected(required: false) var analytics: Analytics?  // stays nil if Analytics is not registered
    @InjectedWeak var delegate: ListDelegate?  // held weakly
}

private final class FeatureFlags {}
private final class Ticker {
    private(set) var starts = 0
    func start() { starts += 1 }
}
private final class FeedView {
    @Injected(tag: "beta") var flags: FeatureFlags?  // init(required:tag:): no callback
    @Injected(didInject: { $0.start() }) var ticker: Ticker?  // called with each Ticker injected
}

private protocol ListViewOutput: AnyObject {}
private protocol ListInteractorOutput: AnyObject {}

@Suite(.silencingPlexusLogs) struct GettingStartedSnippetTests {
    @Test func registerSnippetRegistersByResultTypeScopeAndTag() throws {
        let container = DependencyContainer()
        container.register { ServiceImp() as Service }
        container.register(.singleton) { Clock() }
        container.register(type: Service.self, tag: "mock") { MockService() }

        #expect((try container.resolve() as Service) is ServiceImp)
        #expect((try container.resolve(tag: "mock") as Service) is MockService)
        #expect((try container.resolve() as Clock) === (try container.resolve() as Clock))
    }

    @Test func configBlockRegistersTheModulesDefinitions() throws {
        let module = DependencyContainer { container in
            container.register { ServiceImp() as Service }
        }
        #expect((try module.resolve() as Service) is ServiceImp)
    }

    @Test func resolveSnippetTakesTheTypeFromTheCallSite() throws {
        let container = DependencyContainer()
        container.register { ServiceImp() as Service }
        container.register(.singleton) { Clock() }

        let service: Service = try container.resolve()
        let clock = try container.resolve() as Clock
        let maybe: Service? = try container.resolve()  // T? and T! resolve through T's definition
        let any = try container.resolve(Service.self)  // a type known only at run time, returned as Any

        #expect(service is ServiceImp)
        #expect(clock === (try container.resolve() as Clock))
        #expect(maybe is ServiceImp)
        #expect(any is ServiceImp)
    }

    @Test func factoryCapturingItsContainerUnownedResolvesTheSameGraph() throws {
        let container = DependencyContainer()
        container.register { ServiceImp() as Service }
        container.register(.singleton) { Clock() }
        container.register { [unowned container] in
            ListPresenter(service: try container.resolve(), clock: try container.resolve())
        }

        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.service is ServiceImp)
        #expect(presenter.clock === (try container.resolve() as Clock))
    }

    @Test func taggedLookupFallsBackToTheUntaggedDefinition() throws {
        let container = DependencyContainer()
        container.register(tag: Environment.production) { HTTPApi(url: productionURL) as Api }
        container.register { HTTPApi(url: localURL) as Api }

        let production = try container.resolve(tag: Environment.production) as Api
        let fallback = try container.resolve(tag: "preview") as Api  // the untagged definition

        #expect(production.url == productionURL)
        #expect(fallback.url == localURL)
    }

    @Test func containerThatNeverFallsBackThrowsForAnUnknownTag() throws {
        let container = DependencyContainer()
        container.register { HTTPApi(url: localURL) as Api }

        container.fallsBackToUntaggedDefinitions = false
        #expect(throws: ResolutionError.self) {
            let preview = try container.resolve(tag: "preview") as Api  // throws
            _ = preview
        }
        #expect((try container.resolve() as Api).url == localURL)
    }

    @Test func runtimeArgumentsMatchByTypeCountAndOrder() throws {
        let container = DependencyContainer()
        container.register(.unique) { (id: Int, title: String) in Cell(id: id, title: title) }
        let cell: Cell = try container.resolve(arguments: 42, "Inbox")

        #expect(cell.id == 42)
        #expect(cell.title == "Inbox")
    }

    @Test func autoWiringResolvesEachArgumentFromTheContainer() throws {
        let container = DependencyContainer()
        container.register(.singleton) { HTTPApi(url: localURL) as Api }
        container.register(.singleton) { Store() }

        container.register { (api: Api, store: Store) in Repository(api: api, store: store) }
        let repository: Repository = try container.resolve()  // api and store are resolved for you

        #expect(repository.api === (try container.resolve() as Api))
        #expect(repository.store === (try container.resolve() as Store))
    }

    @Test func autoInjectionFillsWrappedPropertiesAfterTheFactory() throws {
        let container = DependencyContainer()
        container.register { ServiceImp() as Service }
        container.register { Clock() }
        container.register { c in ListPresenter(service: try c.resolve(), clock: try c.resolve()) }
        container.register(.singleton) { AppListDelegate() as ListDelegate }

        container.register { ListView() }
        let view: ListView = try container.resolve()

        #expect(view.presenter != nil)
        #expect(view.analytics == nil)
        #expect(view.delegate === (try container.resolve() as ListDelegate))
    }

    @Test func didInjectIsCalledWithEachValueOnlyWhereItIsPassed() throws {
        let container = DependencyContainer()
        container.register(tag: "beta") { FeatureFlags() }
        container.register { Ticker() }
        container.register { FeedView() }

        let view: FeedView = try container.resolve()

        #expect(view.flags != nil)
        #expect(view.ticker?.starts == 1)
    }

    @Test func typeForwardingSharesOneInstanceAcrossTheForwardedTypes() throws {
        final class ListPresenter: ListViewOutput, ListInteractorOutput {}
        let container = DependencyContainer()
        container.register { ListPresenter() }
            .implements(ListViewOutput.self, ListInteractorOutput.self)

        final class Screen {
            @Injected var output: ListViewOutput?
            @Injected var interactorOutput: ListInteractorOutput?
        }
        container.register { Screen() }
        let screen: Screen = try container.resolve()

        #expect(screen.output is ListPresenter)
        #expect(screen.output === screen.interactorOutput)
    }
}
