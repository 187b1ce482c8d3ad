import AddEvent
import EventsList
import Plexus
import Root

/// The app's composition root: one container per module, linked with `collaborate(with:)`.
///
/// The app and its tests build the graph through this type, so the tests check the real wiring.
public struct AppContainers: Sendable {
    /// The root module (the data store).
    public let root: RootModule
    /// The events list module.
    public let eventsList = EventsListModule()
    /// The "add event" module.
    public let addEvent = AddEventModule()

    /// Creates the modules and links them.
    /// - Parameter store: The data store the root module shares; an empty in-memory store by default.
    public init(store: @escaping @Sendable () -> DataStore = { InMemoryDataStore() }) {
        root = RootModule(store: store)
        // Directional: each feature module sees the other one and the root; the root sees neither.
        eventsList.container.collaborate(with: addEvent.container, root.container)
        addEvent.container.collaborate(with: eventsList.container, root.container)
    }

    /// Every module's container, by name, in the order the app relies on them.
    public var containers: [(name: String, container: DependencyContainer)] {
        [("root", root.container), ("eventsList", eventsList.container), ("addEvent", addEvent.container)]
    }

    /// Checks that every container can build its graph: no missing registration, no constructor cycle.
    /// - Throws: The first ``ResolutionError`` of the first container that fails.
    public func validate() throws {
        _ = try graphReport()
    }

    /// Validates every container and joins their graph reports into one picture of the app: which module's
    /// definitions use which, and what looks wrong (captive dependencies, shadowed definitions, …).
    /// - Returns: The report of the whole app.
    /// - Throws: The first ``ResolutionError`` of the first container that fails.
    public func graphReport() throws -> GraphReport {
        // `Event.sample` is the argument set for the definitions that take an `Event` (the list's rows).
        GraphReport(merging: try containers.map { try $0.container.validate(Event.sample) })
    }
}
