import Plexus
import PlexusTesting
import Testing

// The example of README.md, kept here verbatim (apart from being wrapped in a test) so that it cannot rot.

private protocol Api: AnyObject {}
private final class NetworkApi: Api {}
private final class ListPresenter {
    let api: Api
    weak var view: ListView?
    init(api: Api) { self.api = api }
}
private final class ListView {
    let presenter: ListPresenter
    init(presenter: ListPresenter) { self.presenter = presenter }
}

@Suite(.silencingPlexusLogs) struct ReadmeExampleTests {
    @Test func readmeExampleClosesTheCircularGraph() throws {
        let container = DependencyContainer()
        container.register(.singleton) { NetworkApi() as Api }
        container.register { c in ListPresenter(api: try c.resolve()) }
            .resolvingProperties { c, presenter in presenter.view = try c.resolve() }
        container.register { c in ListView(presenter: try c.resolve()) }

        let view: ListView = try container.resolve()
        #expect(view.presenter.view === view)
        let api: Api = try container.resolve()
        #expect(view.presenter.api === api)
    }
}
