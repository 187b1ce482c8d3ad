import Foundation
import Plexus
import PlexusTesting
import Testing

private final class FeatureWireframe {}
private final class Session {}
private protocol Api {}
private final class ApiImp: Api {}
private final class Store {}
private final class Client {
    init(api: Api, store: Store) {}
}

/// Holds what a hook saw; `@unchecked Sendable` is safe because `value` is only touched under `lock`.
private final class Seen<Value: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// Pins the behaviour the "Migrating from Dip" article shows where Plexus deliberately differs from Dip's own tests.
@Suite(.silencingPlexusLogs) struct MigrationGuideTests {
    @Test func collaborationWorksOnlyInTheDirectionItWasDeclared() throws {
        let root = DependencyContainer()
        let feature = DependencyContainer()
        feature.register(.singleton) { FeatureWireframe() }
        feature.collaborate(with: root)
        #expect(throws: ResolutionError.self) { _ = try root.resolve() as FeatureWireframe }
        root.collaborate(with: feature)
        let same: FeatureWireframe = try root.resolve()
        #expect(same === (try feature.resolve() as FeatureWireframe))
    }

    @Test func sharedInstanceReachedThroughATagAndUntaggedIsOneInstanceInAGraph() throws {
        let container = DependencyContainer()
        let again = Seen<Session>()
        container.register { Session() }
            .resolvingProperties { container, _ in again.set(try container.resolve() as Session) }
        let session: Session = try container.resolve(tag: "checkout")
        #expect(again.value === session)
    }

    @Test func autoWiredInstanceReachedThroughATagAndUntaggedIsOneInstanceInAGraph() throws {
        let container = DependencyContainer()
        let other = Seen<Client>()
        container.register { ApiImp() as Api }
        container.register { Store() }
        container.register { (api: Api, store: Store) in Client(api: api, store: store) }
            .resolvingProperties { container, _ in other.set(try container.resolve() as Client) }
        let client: Client = try container.resolve(tag: "tag")
        #expect(other.value === client)
    }

    @Test func oneArgumentDefinitionWithoutTheAnnotationIsStillTyped() {
        let container = DependencyContainer()
        let definition = container.register { (id: Int) in Session() }
        let typed: Definition<Session, Int> = definition
        #expect(typed.scope == .shared)
    }
}
