import Plexus

extension DependencyContainer {
    /// The marker of the root module's namespace of typed accessors.
    public enum NamespaceRootServices {}
    /// The root module's typed accessors: `container.rootServices.dataStore()`.
    public typealias RootServices = Namespace<NamespaceRootServices>
    /// The root module's typed accessors on this container.
    public var rootServices: RootServices { namespace() }
}

extension DependencyContainer.RootServices {
    /// The data store every module shares; an empty in-memory store unless the app injects another.
    public var dataStore: SingletonFactory<DataStore> {
        get { resolve { InMemoryDataStore() } }
        set { inject(newValue) }
    }
}

/// The root module: owns the services every feature module shares.
///
/// It declares them as typed accessors (`container.rootServices.dataStore`), while the feature modules use
/// Dip-style `register` / `resolve`: one untagged definition bridges the two, so both styles build one graph.
public struct RootModule: Sendable {
    /// The root module's container; feature modules collaborate with it.
    public let container = DependencyContainer(name: "Root")

    /// Creates the module and registers its definitions.
    /// - Parameter store: The data store to share; a new empty in-memory store by default.
    public init(store: @escaping @Sendable () -> DataStore = { InMemoryDataStore() }) {
        let container = container
        // The app's store overrides the accessor's declared default.
        container.rootServices.dataStore = .single { store() }
        // Dip-style modules resolve `DataStore` by type: answer with the accessor's one instance.
        container.register(.unique) { c in c.rootServices.dataStore() }
    }
}
