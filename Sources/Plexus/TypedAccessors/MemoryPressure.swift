#if canImport(Darwin)
    import Dispatch

    /// Trims the ``ComponentScope/cached`` instances of every container that registered such a definition when
    /// the system signals memory pressure (Apple platforms only).
    enum MemoryPressure {
        private struct State {
            /// The memory-pressure source, made and resumed by the first `watch`.
            var source: DispatchSourceMemoryPressure?
            var watched: [WeakContainer] = []
            /// Trims of caches Plexus does not hold itself (`PlexusFactoryKit`'s `.cached`); each returns `false` once
            /// its cache is gone, and is dropped.
            var trims: [@Sendable () -> Bool] = []
        }

        private static let state = Protected(State())

        /// Starts trimming `container` on memory pressure.
        static func watch(_ container: DependencyContainer) {
            state.withLock { state in
                state.watched.removeAll { $0.container == nil }
                if !state.watched.contains(where: { $0.container === container }) {
                    state.watched.append(WeakContainer(container: container))
                }
                startSource(&state)
            }
        }

        /// Starts calling `trim` on memory pressure, until it returns `false`.
        static func watch(trim: @escaping @Sendable () -> Bool) {
            state.withLock { state in
                state.trims.append(trim)
                startSource(&state)
            }
        }

        private static func startSource(_ state: inout State) {
            guard state.source == nil else { return }
            let source = DispatchSource.makeMemoryPressureSource(
                eventMask: [.warning, .critical], queue: DispatchQueue.global(qos: .utility))
            source.setEventHandler { MemoryPressure.trimAll() }
            source.resume()
            state.source = source
        }

        private static func trimAll() {
            let (containers, trims) = state.withLock { ($0.watched.compactMap(\.container), $0.trims) }
            for container in containers { container.trimCaches() }
            // Run without the lock (a trim releases instances, whose `deinit` is user code). A source's handler never
            // runs twice at once and `watch` only appends, so the snapshot's indices still name the same trims.
            let gone = trims.indices.filter { !trims[$0]() }
            state.withLock { state in
                for index in gone.reversed() { state.trims.remove(at: index) }
            }
        }
    }
#endif

extension DependencyContainer {
    /// Calls `trim` with `owner` whenever the system signals memory pressure (Apple platforms; never elsewhere), for
    /// as long as `owner` lives: how a cache Plexus does not hold itself gives `.cached` its meaning.
    /// - Parameters:
    ///   - owner: The owner of the cache; held weakly.
    ///   - trim: Releases the cached instances.
    package static func trimOnMemoryPressure<Owner: AnyObject & Sendable>(
        _ owner: Owner, _ trim: @escaping @Sendable (Owner) -> Void
    ) {
        #if canImport(Darwin)
            MemoryPressure.watch { [weak owner] in
                guard let owner else { return false }
                trim(owner)
                return true
            }
        #endif
    }

    /// Makes the container trim its ``ComponentScope/cached`` instances on memory pressure, where the platform
    /// signals it (Apple platforms); does nothing elsewhere.
    func watchMemoryPressure() {
        #if canImport(Darwin)
            MemoryPressure.watch(self)
        #endif
    }

    /// Releases every ``ComponentScope/cached`` instance this container holds (registered definitions and
    /// declared accessor defaults); the next resolve of each creates a new one. ``ComponentScope/singleton``
    /// instances are kept. The ``defaults`` companion's cached instances are released too.
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
        dropCachedInstances()
        if !isDefaultsOnly, let companion = defaultsCompanion.withLock({ $0 }) { companion.trimCaches() }
    }
}
