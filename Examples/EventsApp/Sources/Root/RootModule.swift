import Plexus

/// The root module: owns the services every feature module shares.
public struct RootModule: Sendable {
    /// The root module's container; feature modules collaborate with it.
    public let container = DependencyContainer()

    /// Creates the module and registers its definitions.
    /// - Parameter store: The data store to share; a new empty in-memory store by default.
    public init(store: @escaping @Sendable () -> DataStore = { InMemoryDataStore() }) {
        container.register(.singleton) { store() }
    }
}
