#if canImport(Darwin)
    import Dispatch

    /// Trims the ``ComponentScope/cached`` instances of every container that registered such a definition when
    /// the system signals memory pressure (Apple platforms only).
    enum MemoryPressure {
        private static let watched = Protected<[WeakContainer]>([])

        /// The memory-pressure source, made and activated on first use.
        // `nonisolated(unsafe)` is sound: the global is initialized once (Swift's lazy global initialization is
        // thread-safe), never reassigned, and a dispatch source may be used from any thread.
        private nonisolated(unsafe) static let source: DispatchSourceMemoryPressure = {
            let source = DispatchSource.makeMemoryPressureSource(
                eventMask: [.warning, .critical], queue: DispatchQueue.global(qos: .utility))
            source.setEventHandler { MemoryPressure.trimAll() }
            source.resume()
            return source
        }()

        /// Starts trimming `container` on memory pressure.
        static func watch(_ container: DependencyContainer) {
            _ = source
            watched.withLock { watched in
                watched.removeAll { $0.container == nil }
                if !watched.contains(where: { $0.container === container }) {
                    watched.append(WeakContainer(container: container))
                }
            }
        }

        private static func trimAll() {
            let containers = watched.withLock { $0.compactMap(\.container) }
            for container in containers { container.trimCaches() }
        }
    }
#endif

extension DependencyContainer {
    /// Makes the container trim its ``ComponentScope/cached`` instances on memory pressure, where the platform
    /// signals it (Apple platforms); does nothing elsewhere.
    func watchMemoryPressure() {
        #if canImport(Darwin)
            MemoryPressure.watch(self)
        #endif
    }

    /// Releases every ``ComponentScope/cached`` instance this container holds (registered definitions and
    /// declared accessor defaults); the next resolve of each creates a new one. ``ComponentScope/singleton``
    /// instances are kept.
    ///
    /// On Apple platforms the container calls it when the system signals memory pressure; call it yourself
    /// elsewhere (on Linux, for example when a server sheds load).
    ///
    /// ```swift
    /// container.register(.cached) { ImageCache() }
    /// let a: ImageCache = try container.resolve()
    /// container.trimCaches()
    /// let b: ImageCache = try container.resolve()   // a !== b
    /// ```
    public func trimCaches() {
        let released = registry.withLock { registry -> [InstanceBox] in
            var released: [InstanceBox] = []
            let slots = registry.slots.entries.map(\.value) + registry.accessorDefaults.entries.map(\.value)
            for slot in slots where slot.scope == .cached {
                if let instance = slot.instance { released.append(instance) }
                slot.instance = nil
            }
            return released
        }
        // Released after the lock: a `deinit` is user code.
        withExtendedLifetime(released) {}
    }
}
