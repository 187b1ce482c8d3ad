import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article CircularGraphs.md, kept here verbatim (wrapped in tests, with the fixture types
// they assume) so that they cannot rot. Each test checks what the article says.

private protocol Client: AnyObject { var server: Server { get } }
private protocol Server: AnyObject { var client: Client? { get set } }

private final class ClientImp: Client {
    let server: Server
    init(server: Server) { self.server = server }
}
private final class ServerImp: Server {
    weak var client: Client?
}

private final class ListPresenter {
    weak var view: ListView?  // the back-reference: weak
}
private final class ListView {
    let presenter: ListPresenter  // the owner holds it strongly
    init(presenter: ListPresenter) { self.presenter = presenter }
}

private final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
}
private final class Child {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

private final class Logger {
    let category: String
    init(category: String) { self.category = category }
}
private final class Downloader {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}

@Suite(.silencingPlexusLogs) struct CircularGraphsSnippetTests {
    @Test func constructorOneWayPropertyTheOtherClosesTheLoop() throws {
        let container = DependencyContainer()
        container.register { c in ClientImp(server: try c.resolve()) as Client }
        container.register { ServerImp() as Server }
            .resolvingProperties { container, server in server.client = try container.resolve() }

        let client: Client = try container.resolve()
        #expect(client.server.client === client)
    }

    @Test func resolvingFromTheStrongSideKeepsBothAndFromTheWeakSideLosesThePartner() throws {
        let container = DependencyContainer()
        container.register { ListPresenter() }
            .resolvingProperties { container, presenter in presenter.view = try container.resolve() }
        container.register { c in ListView(presenter: try c.resolve()) }

        let view: ListView = try container.resolve()  // from the strong side
        #expect(view.presenter.view === view)

        let presenter: ListPresenter = try container.resolve()  // from the weak side
        #expect(presenter.view == nil)
        #expect(presenter !== view.presenter)  // a new graph made a new presenter (and a view now gone)
    }

    @Test func weakSideOfTheClientServerLoopLosesTheClient() throws {
        let container = DependencyContainer()
        container.register { c in ClientImp(server: try c.resolve()) as Client }
        container.register { ServerImp() as Server }
            .resolvingProperties { container, server in server.client = try container.resolve() }

        let server: Server = try container.resolve()
        #expect(server.client == nil)
    }

    @Test func constructorCycleThrowsWithThePath() throws {
        let container = DependencyContainer()
        container.register { c in Parent(child: try c.resolve()) }
        container.register { c in Child(parent: try c.resolve()) }
        do {
            _ = try container.resolve() as Parent
        } catch {
            let printed = "\(error)"  // the article prints it; a quiet test run checks it instead
            #expect(printed.hasPrefix("Circular dependency: Parent -> Child -> Parent."))
            // Circular dependency: Parent -> Child -> Parent. These factories resolve each other; break the cycle
            // by injecting one side in `resolvingProperties` (or `@Injected`) instead of its initializer.
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Parent }
        #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("Circular dependency: Parent -> Child -> Parent."))
    }

    @Test func contextNamesTheTypeALoggerIsInjectedIn() throws {
        let container = DependencyContainer()
        container.register { (c: DependencyContainer) -> Logger in
            Logger(category: c.context.injectedInType.map { "\($0)" } ?? "app")
        }
        container.register { c in Downloader(logger: try c.resolve()) }

        #expect((try container.resolve() as Logger).category == "app")
        #expect((try container.resolve() as Downloader).logger.category == "Downloader")
    }

    @Test func didResolveDependenciesSeesTheViewsHooksRun() throws {
        final class ListView {
            var hooked = false
            var renderedAfterItsHooks: Bool?
            func render() { renderedAfterItsHooks = hooked }
        }
        final class ListPresenter: Resolvable {
            var view: ListView?
            func resolveDependencies(_ container: DependencyContainer) {
                view = try? container.resolve()
            }
            func didResolveDependencies() {
                view?.render()  // the view's own hooks have run too
            }
        }
        let container = DependencyContainer()
        container.register { ListView() }
            .resolvingProperties { _, view in view.hooked = true }
        container.register { ListPresenter() }

        let presenter: ListPresenter = try container.resolve()
        #expect(presenter.view?.renderedAfterItsHooks == true)
    }

    @Test func autoInjectionClosesTheCycleWithoutARetainCycle() throws {
        final class ListPresenter {
            @Injected var view: ListView?
        }
        final class ListView {
            @InjectedWeak var presenter: ListPresenter?  // no retain cycle
        }
        weak var weakPresenter: ListPresenter?
        do {
            let container = DependencyContainer()
            container.register { ListPresenter() }
            container.register { ListView() }
            let presenter: ListPresenter = try container.resolve()
            #expect(presenter.view?.presenter === presenter)
            weakPresenter = presenter
        }
        #expect(weakPresenter == nil)
    }
}
