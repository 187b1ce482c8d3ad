import Plexus
import Root

/// The events list module: its container registers the list's wireframe, presenter and rows.
public struct EventsListModule: Sendable {
    /// The module's container. It needs a `DataStore` and an `AddEventRouting` from collaborators.
    public let container = DependencyContainer(name: "EventsList")

    /// Creates the module and registers its definitions.
    public init() {
        let container = container
        container.register { c in
            EventsListWireframe(dataStore: try c.resolve(), presenter: try c.resolve())
        }
        .resolvingProperties { container, wireframe in
            wireframe.addEventWireframe = try container.resolve()
            wireframe.refresh()
        }
        .implements(EventsListRouting.self)

        container.register { c in
            EventsListPresenter(
                dataStore: try c.resolve(),
                makeRow: { [unowned c] event in try c.resolve(arguments: event) })
        }

        // A row per event: a runtime argument, so `validate` needs an `Event` to check it.
        container.register(.unique) { (event: Event) in EventRow(event: event) }
    }
}
