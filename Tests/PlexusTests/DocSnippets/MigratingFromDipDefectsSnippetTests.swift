import Dispatch
import Plexus
import PlexusTesting
import Testing

// The snippets of MigratingFromDip.md's "The Dip defects Plexus fixes", kept as the article writes them (with the
// fixture types and the containers they assume, as Collaboration.md sets them up) so that they cannot rot. Each test
// checks the Plexus outcome the article states; the Dip outcomes are in the article's comments only.

private protocol DataStore: AnyObject, Sendable {}
private final class CoreDataStore: DataStore {}
private final class ProfileWireframe: Sendable {}
private final class EventsListWireframe: Sendable {
    let dataStore: DataStore
    init(dataStore: DataStore) { self.dataStore = dataStore }
}
private final class AddEventWireframe: Sendable {}

private protocol Api: Sendable {}
private enum ApiError: Error { case missingToken }

private final class Metrics: Sendable {}
private struct DatabaseNotReady: Error {}
private final class Database: Sendable {
    private static let attempts = Counter()  // the first attempt finds the database not ready
    static func open() throws -> Database {
        if attempts.increment() == 1 { throw DatabaseNotReady() }
        return Database()
    }
}
private final class ListView: Sendable {}

/// The module containers of Collaboration.md: a root with the data store, and two feature modules.
private struct Modules {
    let root = DependencyContainer(name: "root")
    let eventsList = DependencyContainer(name: "eventsList")
    let addEvent = DependencyContainer(name: "addEvent")

    init() {
        root.register(.singleton) { CoreDataStore() as DataStore }
        eventsList.register { c in EventsListWireframe(dataStore: try c.resolve()) }
        addEvent.register { AddEventWireframe() }
    }
}

@Suite(.silencingPlexusLogs) struct MigratingFromDipDefectsSnippetTests {
    @Test func collaborationIsDirectional() throws {
        let (root, settings, profile) = (DependencyContainer(), DependencyContainer(), DependencyContainer())
        profile.register { ProfileWireframe() }

        settings.collaborate(with: root)
        profile.collaborate(with: root)

        // Plexus: throws definitionNotFound; settings sees only root
        let error = #expect(throws: ResolutionError.self) {
            let wireframe: ProfileWireframe = try settings.resolve()
            _ = wireframe
        }
        guard case .definitionNotFound = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }

        // Plexus: say it when a module needs another one
        settings.collaborate(with: profile, root)
        _ = try settings.resolve() as ProfileWireframe
    }

    @Test func aSingletonResolvedBeforeCollaborateStaysTheOnlyOne() throws {
        let modules = Modules()
        let (root, eventsList) = (modules.root, modules.eventsList)
        let early: DataStore = try root.resolve()
        eventsList.collaborate(with: root)
        let later: DataStore = try eventsList.resolve()
        #expect(later === early)
    }

    @Test func anOwnersResetReleasesItsSingletonsEverywhere() throws {
        let modules = Modules()
        let (root, eventsList) = (modules.root, modules.eventsList)
        eventsList.collaborate(with: root)

        weak var store: DataStore?
        store = try eventsList.resolve()  // owned by root
        #expect(store != nil)
        root.reset()
        #expect(store == nil)  // nothing else holds it
    }

    @Test func collaboratorErrorsPropagate() {
        let (root, feature) = (DependencyContainer(), DependencyContainer())
        var caught: Error?

        root.register { () -> Api in throw ApiError.missingToken }
        feature.collaborate(with: root)
        do {
            _ = try feature.resolve() as Api
        } catch {
            // Plexus: ApiError.missingToken, unchanged
            caught = error
        }
        #expect(caught as? ApiError == .missingToken)
    }

    @Test func resolvableDefaultsArePublic() throws {
        // Plexus
        final class ListPresenter: Resolvable {
            var view: ListView?
            func resolveDependencies(_ container: DependencyContainer) { view = try? container.resolve() }
        }
        // Dip's spelling, with the method Plexus no longer requires, compiles too.
        final class DipListPresenter: Resolvable {
            var view: ListView?
            func resolveDependencies(_ container: DependencyContainer) { view = try? container.resolve() }
            func didResolveDependencies() {}  // required
        }
        let container = DependencyContainer()
        container.register { ListView() }
        container.register { ListPresenter() }
        container.register { DipListPresenter() }
        #expect((try container.resolve() as ListPresenter).view != nil)
        #expect((try container.resolve() as DipListPresenter).view != nil)
    }

    @Test func definitionKeyInitIsPublic() {
        let container = DependencyContainer()
        let error = #expect(throws: ResolutionError.self) { try container.resolve(tag: "prod") as Api }

        // Plexus:
        let expected = DefinitionKey(type: Api.self, typeOfArguments: Void.self, tag: "prod")
        if case .definitionNotFound(let key) = error { #expect(key == expected) }
    }

    @Test func registeringAfterBootstrapDoesNotCrash() throws {
        let container = DependencyContainer()
        try container.bootstrap()
        container.register(.eagerSingleton) { Metrics() }
        // Plexus: registered; the next bootstrap() or the first resolve creates it
        let metrics: Metrics = try container.resolve()
        try container.bootstrap()
        #expect(metrics === (try container.resolve() as Metrics))
    }

    @Test func aFailedBootstrapCanBeRetried() throws {
        let container = DependencyContainer()
        container.register(.eagerSingleton) { () -> Database in try Database.open() }
        do { try container.bootstrap() } catch {
            // the database was not ready
        }
        // Plexus: isBootstrapped is false; once the problem is fixed, bootstrap() again
        #expect(!container.isBootstrapped)
        try container.bootstrap()
        #expect(container.isBootstrapped)
    }

    @Test func noDeadlockAcrossCollaboratingContainers() throws {
        let modules = Modules()
        let (eventsList, addEvent) = (modules.eventsList, modules.addEvent)
        eventsList.collaborate(with: addEvent, modules.root)
        addEvent.collaborate(with: eventsList, modules.root)

        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                _ = try? eventsList.resolve() as EventsListWireframe
            } else {
                _ = try? addEvent.resolve() as AddEventWireframe
            }
        }
        // Plexus: both finish, and each side reaches the other's definitions
        _ = try addEvent.resolve() as EventsListWireframe
        _ = try eventsList.resolve() as AddEventWireframe
    }
}
