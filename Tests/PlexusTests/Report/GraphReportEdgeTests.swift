import Plexus
import PlexusTesting
import Testing

private final class Api {}
private final class Store {}
private final class Presenter {
    let api: Api
    init(api: Api) { self.api = api }
}
private final class View {
    var presenter: Presenter?
}
private final class Client {
    @Injected var api: Api?
}
private final class Feed {
    init(api: Api, store: Store) {}
}
private final class Meter {}
private final class Dashboard {
    init(meter: Meter) {}
}

extension DependencyContainer {
    fileprivate var meter: Factory<Meter> { self { Meter() } }
}

@Suite(.silencingPlexusLogs) struct GraphReportEdgeTests {
    let container = DependencyContainer(name: "App")

    private func findEdge(_ report: GraphReport, from: Any.Type, to: Any.Type) -> GraphReport.Edge? {
        let fromIDs = Set(report.nodes(of: from).map(\.id))
        let toIDs = Set(report.nodes(of: to).map(\.id))
        return report.edges.first { fromIDs.contains($0.from) && toIDs.contains($0.to) }
    }

    @Test func aFactoryThatResolvesMakesAFactoryEdge() throws {
        container.register { Api() }
        container.register { [unowned container] in Presenter(api: try container.resolve()) }
        let report = try container.validate()
        let edge = try #require(findEdge(report, from: Presenter.self, to: Api.self))
        #expect(edge.kind == .factory)
        #expect(edge.crossesContainers == false)
        #expect(edge.from == "App/Presenter")
        #expect(edge.to == "App/Api")
        #expect(report.edges.count == 1)
    }

    @Test func aPublishedSingletonIsStillAnEdge() throws {
        container.register(.singleton) { Api() }
        container.register(.unique) { [unowned container] in Presenter(api: try container.resolve()) }
        _ = try container.resolve() as Api
        let report = try container.validate()
        #expect(findEdge(report, from: Presenter.self, to: Api.self)?.kind == .factory)
    }

    @Test func autoWiredArgumentsMakeAutoWiredEdges() throws {
        container.register { Api() }
        container.register { Store() }
        container.register { (api: Api, store: Store) in Feed(api: api, store: store) }
        let report = try container.validate()
        #expect(findEdge(report, from: Feed.self, to: Api.self)?.kind == .autoWired)
        #expect(findEdge(report, from: Feed.self, to: Store.self)?.kind == .autoWired)
    }

    @Test func aPropertyHookMakesAPropertyHookEdge() throws {
        container.register { Api() }
        container.register { [unowned container] in Presenter(api: try container.resolve()) }
        container.register { View() }
            .resolvingProperties { container, view in view.presenter = try container.resolve() }
        let report = try container.validate()
        #expect(findEdge(report, from: View.self, to: Presenter.self)?.kind == .propertyHook)
        #expect(findEdge(report, from: Presenter.self, to: Api.self)?.kind == .factory)
    }

    @Test func anInjectedPropertyMakesAnAutoInjectedEdge() throws {
        container.register { Api() }
        container.register { Client() }
        let report = try container.validate()
        #expect(findEdge(report, from: Client.self, to: Api.self)?.kind == .autoInjected)
    }

    @Test func aTypedAccessorMakesATypedAccessorEdge() throws {
        container.register { [unowned container] in Dashboard(meter: container.meter()) }
        let report = try container.validate()
        let edge = try #require(findEdge(report, from: Dashboard.self, to: Meter.self))
        #expect(edge.kind == .typedAccessor)
        #expect(report.node(edge.to)?.kind == .typedAccessor)
    }

    /// An accessor used before `validate` is answered on its fast path (its slot remembered); while recording, it
    /// must take the path where edges are seen, like every other resolve.
    @Test func aTypedAccessorUsedBeforeValidateStillMakesItsEdge() throws {
        container.register { [unowned container] in Dashboard(meter: container.meter()) }
        _ = try container.resolve() as Dashboard
        _ = container.meter()
        let report = try container.validate()
        let edge = try #require(findEdge(report, from: Dashboard.self, to: Meter.self))
        #expect(edge.kind == .typedAccessor)
    }

    @Test func anEdgeIntoACollaboratorCrossesContainers() throws {
        let root = DependencyContainer(name: "Root")
        root.register(.singleton) { Api() }
        container.register(.unique) { [unowned container] in Presenter(api: try container.resolve()) }
        container.collaborate(with: root)
        let report = try container.validate()
        let edge = try #require(findEdge(report, from: Presenter.self, to: Api.self))
        #expect(edge.crossesContainers)
        #expect(edge.to == "Root/Api")
        #expect(report.containers == [.init(name: "App", validated: true), .init(name: "Root", validated: false)])
    }

    @Test func anEdgeIsListedOnceHoweverOftenItIsResolved() throws {
        container.register { Api() }
        container.register(.unique) { [unowned container] in
            _ = try container.resolve() as Api
            return Presenter(api: try container.resolve())
        }
        let report = try container.validate()
        #expect(report.edges.count == 1)
    }
}
