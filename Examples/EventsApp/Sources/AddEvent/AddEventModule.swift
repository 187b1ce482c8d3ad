import Plexus
import Root

/// The "add event" module: its container registers the form's wireframe.
public struct AddEventModule: Sendable {
    /// The module's container. It needs a `DataStore` and an `EventsListRouting` from collaborators.
    public let container = DependencyContainer(name: "AddEvent")

    /// Creates the module and registers its definitions.
    public init() {
        container.register { AddEventWireframe() }
            .resolvingProperties { container, wireframe in
                wireframe.eventsListWireframe = try container.resolve()
                wireframe.dataStore = try container.resolve()
            }
            .implements(AddEventRouting.self)
    }
}
