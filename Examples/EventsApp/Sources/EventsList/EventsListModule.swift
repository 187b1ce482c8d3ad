import Plexus
import Root

/// The events list module: its container registers the list's wireframe, presenter and rows.
public struct EventsListModule: Sendable {
    /// The module's container. It needs a `DataStore` and an `AddEventRouting` from collaborators.
    public let container = DependencyContainer(name: "EventsList")

    /// Creates the module and registers its definitions.
    public init() {
        let container = container
        container.register { [unowned container] in
            EventsListWireframe(dataStore: try container.resolve(), presenter: try container.resolve())
        }
        .resolvingProperties { container, wireframe in
            wireframe.addEventWireframe = try container.resolve()
            wireframe.refresh()
        }
        .implements(EventsListRouting.self)

        container.register { [unowned container] in
            EventsListPresenter(
                dataStore: try container.resolve(),
                makeRow: { [unowned container] event in try container.resolve(arguments: event) })
        }

        // A row per event: a runtime argument, so `validate` needs an `Event` to check it.
        container.register(.unique) { (event: Event) in EventRow(event: event) }
    }
}
