extension DependencyContainer {
    /// What a container held when ``DependencyContainer/snapshot()`` was called: its definitions, typed-accessor
    /// overrides and declared defaults, decorators, forwarding registrations and the singletons made by then.
    ///
    /// Give it to ``DependencyContainer/restore(_:)`` of the same container to go back to that state; a snapshot
    /// can be restored any number of times.
    public struct Snapshot: Sendable {
        /// The copied registry.
        let copy: RegistryCopy
        /// The container the snapshot was taken of.
        let container: ObjectIdentifier
    }

    /// Records this container's definitions, overrides, decorators and singletons, to go back to them later with
    /// ``restore(_:)``.
    ///
    /// ```swift
    /// let snapshot = container.snapshot()
    /// container.mappers.priceMapper.replace { MockMapper() }
    /// container.register { FakeClock() as Clock }
    /// // … exercise the code under test …
    /// container.restore(snapshot)                  // the real mapper and clock again
    /// ```
    ///
    /// Taking a snapshot copies the registry (not the instances): it costs about as much as the registrations.
    /// - Returns: The state to restore.
    public func snapshot() -> Snapshot {
        Snapshot(copy: copyRegistry(), container: ObjectIdentifier(self))
    }

    /// Puts this container's definitions, typed-accessor overrides and decorators back to what they were when
    /// `snapshot` was taken, and drops every instance created since.
    ///
    /// ```swift
    /// let snapshot = container.snapshot()
    /// defer { container.restore(snapshot) }
    /// container.analytics.replace { MockAnalytics() }
    /// ```
    ///
    /// Singletons created before the snapshot are kept (they are the ones the snapshot saw); singletons, cached
    /// and weak singletons created after it are released here, and so is every instance a ``ParameterFactory``
    /// kept per argument. The collaborators stay as they are now, as with
    /// ``reset()``, and the bootstrap state returns to the snapshot's. Resolutions in flight finish with what they
    /// started with. The ``defaults`` companion is not part of a snapshot (overrides never reach it). A snapshot of
    /// another container is not restored (restoring it would mix two containers' definitions): it is logged at
    /// ``LogLevel/errors`` and this container is left as it is.
    /// - Parameter snapshot: A snapshot taken of this container with ``snapshot()``.
    public func restore(_ snapshot: Snapshot) {
        guard snapshot.container == ObjectIdentifier(self) else {
            log(.errors, "Plexus: a snapshot of another container was not restored into \(name).")
            return
        }
        restoreRegistry(snapshot.copy)
        dropParameterInstances()
    }
}
