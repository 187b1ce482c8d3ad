// Factory spells a key-path property wrapper `@Injected(\.x)`; in Plexus `@Injected` is Dip's auto-injected property.
// These initializers exist only so that Factory's spelling fails with a message that names the Plexus one.

extension Injected {
    /// Unavailable: Factory's `@Injected(\.x)` is `@Inject(\.x)` in Plexus.
    /// - Parameter accessor: The key path of an accessor.
    @available(
        *, unavailable,
        message:
            "@Injected is Dip's auto-injected property in Plexus; for a typed accessor use @Inject(\\.x) (resolved at init) or @LazyInject(\\.x) (on first read)"
    )
    public convenience init(_ accessor: KeyPath<DependencyContainer, Factory<T>>) {
        self.init(required: true)
    }

    /// Unavailable: Factory's `@Injected(\.x)` is `@Inject(\.x)` in Plexus.
    /// - Parameter accessor: The key path of an accessor.
    @available(
        *, unavailable,
        message:
            "@Injected is Dip's auto-injected property in Plexus; for a typed accessor use @Inject(\\.x) (resolved at init) or @LazyInject(\\.x) (on first read)"
    )
    public convenience init(_ accessor: KeyPath<DependencyContainer, SingletonFactory<T>>) {
        self.init(required: true)
    }
}
