internal import PlexusSystem

// Factories that run without retaining their slot (the direct path, `plexus_hazard_mark`): a change that drops slots
// from the registry keeps them until no such factory of this container runs on any thread.

extension DependencyContainer {
    /// This container as the owner of hazard marks (`plexus_hazard_mark`).
    var hazardOwner: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Releases what a change dropped from the registry, after the change's lock section (the slots it removed,
    /// an old registry), or keeps it, with whatever was kept before, while a resolve on some thread runs a factory of
    /// one of this container's slots without holding it. What was kept goes with the next change that finds no such
    /// resolve, or with the container.
    ///
    /// The look for marks comes after the change: the change's lock section waited for every read of the registry
    /// in progress (the reader bias), and a resolve sets its mark inside such a read, so every mark set for a
    /// dropped slot is seen; a resolve that reads the registry later cannot find the dropped slots. The look happens
    /// under the lock of `retired`, after adding to it, so that what one change keeps is never released by another
    /// change's earlier look.
    func release(dropped: consuming [Any]) {
        release(droppedValue: dropped.isEmpty ? nil : dropped)
    }

    /// `release(dropped:)` for an old registry (a reset, a restored snapshot).
    func release(dropped: consuming Registry) {
        release(droppedValue: dropped)
    }

    private func release(droppedValue: Any?) {
        let owner = hazardOwner
        let released = retired.withLock { retired -> [Any] in
            if let droppedValue { retired.append(droppedValue) }
            guard !retired.isEmpty, plexus_hazard_marks(owner) == 0 else { return [] }
            defer { retired.removeAll() }
            return retired
        }
        // Released after the lock: a `deinit` is user code.
        withExtendedLifetime(released) {}
    }
}
