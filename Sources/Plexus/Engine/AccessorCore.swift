internal import PlexusCore

/// Room on the stack for the instance of a typed accessor (`AccessorCore.resolve(_:_:_:_:)`): six words, enough for a
/// reference, a protocol existential (five words, six with a second protocol) or a small struct; larger instances, and
/// those aligned beyond a word, use a temporary allocation.
@usableFromInline
struct AccessorStorage {
    @usableFromInline var words: (UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0)

    @inlinable
    init() {}

    /// The `T` that `fill` made in room given to it, or `nil` if `fill` returned `false` (leaving the room as it
    /// was): the room is a local `AccessorStorage` when `T` fits its size and alignment, else a temporary allocation.
    ///
    /// Always inlined, and `fill` with it, so that the common case is a local passed by address to a call that is
    /// not generic, with no closure left at run time: a closure that stays one (the body handed to
    /// `withUnsafeTemporaryAllocation`, which is not inlined) retains and releases the container it captures on
    /// every call.
    @inlinable
    @inline(__always)
    static func instance<T>(of _: T.Type, _ fill: (UnsafeMutableRawPointer) throws -> Bool) rethrows -> T? {
        if MemoryLayout<T>.size <= MemoryLayout<AccessorStorage>.size,
            MemoryLayout<T>.alignment <= MemoryLayout<AccessorStorage>.alignment
        {
            var storage = AccessorStorage()
            guard try fill(&storage) else { return nil }
            return AccessorCore<T>.take(&storage)
        }
        return try temporaryInstance(of: T.self, fill)
    }

    /// `instance(of:_:)` for a `T` that does not fit: in a temporary allocation. Out of line, so that a debug build
    /// keeps the allocation's locals off the frame of every accessor resolve.
    @inlinable
    @inline(never)
    static func temporaryInstance<T>(of _: T.Type, _ fill: (UnsafeMutableRawPointer) throws -> Bool) rethrows -> T? {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            guard let storage = buffer.baseAddress, try fill(UnsafeMutableRawPointer(storage)) else { return nil }
            return storage.move()
        }
    }
}

/// What `Factory` and `SingletonFactory` both are: a declared default factory and its storage, bound or not. A value
/// of it serves the cold paths (overrides, decorators, assignment); its static functions resolve.
@usableFromInline
struct AccessorCore<T>: Sendable {
    let binding: AccessorBinding
    let storage: DeclaredStorage
    let make: @Sendable () throws -> T

    init(binding: AccessorBinding, storage: DeclaredStorage, make: @escaping @Sendable () throws -> T) {
        self.binding = binding
        self.storage = storage
        self.make = make
    }

    // MARK: Resolving
    //
    // `Factory` and `SingletonFactory` keep their container, site, storage and factory as stored properties of
    // their own, seven words in all, and resolve through the static functions below, which borrow them. On the accessor
    // benchmarks in release (`Benchmarks/guard`'s retain check): a container held one struct deeper (an `AccessorCore` or
    // `AccessorBinding` stored in the accessor), or an accessor of eight words, was retained and released around
    // every call: the optimizer kept the accessor in memory as a whole instead of taking it apart, and then did not
    // see that the caller's accessor keeps the container for the call.

    /// The instance, as `Factory.resolve()` gives it.
    @inlinable
    static func resolve(
        _ container: DependencyContainer?, _ site: AccessorSite, _ declared: DeclaredStorage,
        _ make: @escaping @Sendable () throws -> T
    ) throws -> T {
        // The common cases are made in storage specialized here, through a call that is not generic (generic code in
        // the library would look up the metadata of the types it builds around `T` on every call). The container
        // stays optional inside the closure: unwrapped outside it, it is retained and released around every call.
        //
        // A first use registers the declared default, then the same call is tried again, from this frame: each level
        // of a graph of accessors resolved for the first time (an app's start) then adds no frames to those of a
        // later resolve.
        var registered = false
        repeat {
            let instance = try AccessorStorage.instance(of: T.self) {
                try container?.tryFastAccessor(site, into: $0) == true
            }
            if let instance { return instance }
            if registered { break }
            registered = registerDefault(container, site, declared, make)
        } while registered
        return try resolveInGeneral(container, site, declared, make)
    }

    /// Registers the declared default on the accessor's first use in `container`; returns whether the non-generic
    /// call is worth trying again. Out of line: a first use is rare, and its locals stay off the frame of every
    /// accessor resolve.
    @inlinable
    @inline(never)
    static func registerDefault(
        _ container: DependencyContainer?, _ site: AccessorSite, _ declared: DeclaredStorage,
        _ make: @escaping @Sendable () throws -> T
    ) -> Bool {
        guard let container else { return false }
        return container.registerAccessorDefaultIfNeeded(
            site, storage: declared, make: make, factory: DeclaredFactory())
    }

    /// The instance, as `Factory.callAsFunction()` gives it: stops the process if it cannot be made.
    @inlinable
    static func callAsFunction(
        _ container: DependencyContainer?, _ site: AccessorSite, _ declared: DeclaredStorage,
        _ make: @escaping @Sendable () throws -> T
    ) -> T {
        do {
            return try resolve(container, site, declared, make)
        } catch {
            DependencyContainer.accessorFailed(container, site, error)
        }
    }

    /// Moves the instance `resolve` made out of its `AccessorStorage`.
    @inlinable
    static func take(_ storage: UnsafeMutableRawPointer) -> T {
        storage.assumingMemoryBound(to: T.self).move()
    }

    /// `resolve` for an unbound accessor, and for the accessors the non-generic call cannot answer (first use, an
    /// override elsewhere, hooks).
    @inlinable
    static func resolveInGeneral(
        _ container: DependencyContainer?, _ site: AccessorSite, _ declared: DeclaredStorage,
        _ make: @escaping @Sendable () throws -> T
    ) throws -> T {
        guard let container else { return try make() }
        return try container.resolveAccessor(site, storage: declared, make: make, factory: DeclaredFactory())
    }

    /// The instance (cold paths: `AccessorBinding.assign`).
    func resolve() throws -> T {
        try Self.resolve(binding.container, binding.site, storage, make)
    }

    func decorate(_ decorator: @escaping @Sendable (T) -> T) {
        guard let (container, key) = binding.bound else {
            DependencyContainer.logUnboundDecorator()
            return
        }
        container.addDecorator(key, decorator)
    }
}

/// What ``MainActorFactory`` resolves through on the main actor: the fast path of typed accessors, where its
/// `@MainActor` factory runs in place, as `AccessorCore` resolves a ``Factory`` (`AccessorStorage.instance`).
@usableFromInline
enum MainActorAccessorCore<T> {
    /// The instance, as `MainActorFactory.resolve()` gives it.
    @inlinable
    @MainActor
    static func resolve(
        _ container: DependencyContainer, _ site: AccessorSite, _ storage: ComponentScope,
        _ make: @escaping @MainActor @Sendable () throws -> T
    ) throws -> T {
        if let instance = try AccessorStorage.instance(
            of: T.self, { try container.tryFastMainActorAccessor(site, into: $0) })
        {
            return instance
        }
        return try container.resolveMainActorAccessor(site, storage: storage, make: make, factory: DeclaredFactory())
    }

    /// `make` as the plain synchronous function it is underneath, for the declared default's blueprint
    /// (`DeclaredBlueprint`).
    ///
    /// The engine calls a synchronous factory of a `@MainActor` definition only on the main thread: the fast path
    /// for a caller isolated to the main actor, the general path after checking the thread (`Slot+Isolation.swift`),
    /// the async resolve through the blueprint's async factory, which hops there. So the blueprint calls `make` as the
    /// plain synchronous function it is underneath (a synchronous function's global actor does not change how it is
    /// called); checking the executor again (`MainActor.assumeIsolated`) cost more than the rest of the call.
    static func plain(_ make: @escaping @MainActor @Sendable () throws -> T) -> @Sendable () throws -> T {
        withoutMainActorIsolation(make)
    }
}

/// What ``AsyncFactory`` checks before its async resolve: a published singleton, copied as `AccessorCore` copies one.
@usableFromInline
enum AsyncAccessorCore<T> {
    /// The instance the accessor's singleton published in `container`, if any.
    @inlinable
    static func published(_ container: DependencyContainer, _ site: AccessorSite) -> T? {
        AccessorStorage.instance(of: T.self) { container.copyPublishedAccessor(site, into: $0) }
    }
}
