internal import PlexusCore

extension Definition {
    /// Makes this definition resolvable as `type` too, sharing its instances.
    ///
    /// ```swift
    /// container.register(.singleton) { Store() }.implements(Reading.self, tag: "db")
    /// let store: Store = try container.resolve()
    /// let reader = try container.resolve(tag: "db") as Reading   // reader === store
    /// ```
    ///
    /// The forwarding registration has its own key (`type`, this definition's arguments, `tag`). If an instance
    /// is not a `type`, resolving it as `type` throws ``ResolutionError/invalidType(resolved:key:)``.
    /// - Parameters:
    ///   - type: Another type to resolve this definition as, usually a protocol its instances conform to.
    ///   - tag: The tag of the forwarding registration; `nil` (the default) registers it untagged, which every
    ///     tagged lookup of `type` also falls back to.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func implements<F>(_ type: F.Type, tag: DependencyTagConvertible? = nil) -> Definition {
        addForward(Forward(type: F.self, tag: tag?.dependencyTag, hooks: [], accepts: { $0 is F }))
    }

    /// Makes this definition resolvable as `type` too, with a hook that runs (after this definition's own
    /// hooks) when an instance is created through `type`.
    /// - Parameters:
    ///   - type: Another type to resolve this definition as.
    ///   - tag: The tag of the forwarding registration; `nil` by default.
    ///   - resolvingProperties: Sets properties of instances created through `type`.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func implements<F>(
        _ type: F.Type,
        tag: DependencyTagConvertible? = nil,
        resolvingProperties: @escaping @Sendable (DependencyContainer, F) throws -> Void
    ) -> Definition {
        let hook: Hook = { container, instance in
            if let instance = instance as? F { try resolvingProperties(container, instance) }
        }
        return addForward(Forward(type: F.self, tag: tag?.dependencyTag, hooks: [hook], accepts: { $0 is F }))
    }

    /// Makes this definition resolvable as each of the given types, untagged, sharing its instances.
    ///
    /// ```swift
    /// container.register { ListPresenter() }.implements(ListInput.self, ListOutput.self, Refreshing.self)
    /// ```
    /// - Parameters:
    ///   - first: A type to resolve this definition as.
    ///   - second: Another type.
    ///   - more: Any number of further types.
    /// - Returns: This definition, for chaining.
    @discardableResult
    public func implements<F1, F2, each F>(
        _ first: F1.Type, _ second: F2.Type, _ more: repeat (each F).Type
    ) -> Definition {
        implements(first)
        implements(second)
        for type in repeat each more { implements(type) }
        return self
    }

    @discardableResult
    func addForward(_ forward: Forward) -> Definition {
        // A definition returned by `register(_:type:tag:)` stands for a forwarding registration: what it forwards
        // is added to the definition it came from, which owns the instances.
        if let relay = state.withLock({ $0.relay }) {
            relay(forward)
            return self
        }
        // Released after the lock: a `deinit` is user code, which may register or configure definitions.
        let released = state.withLock { state -> Released in
            state.forwards.append(forward)
            return state.registrations.addForward(forward, of: self, others: state.otherRegistries)
        }
        withExtendedLifetime(released) {}
        return self
    }
}

/// A forwarding registration made by `implements`: another type (and tag) that resolves a definition.
final class Forward: Sendable {
    let type: Any.Type
    let tag: DependencyContainer.Tag?
    private let ownHooks: [Hook]
    /// The hooks of the definition `register(_:type:tag:)` returned for this forwarding, which can gain hooks after
    /// registration; `nil` for a forwarding made by `implements`.
    let linkedHooks: Protected<[Hook]>?
    /// Whether an instance is of the forwarded type.
    let accepts: @Sendable (Any) -> Bool

    /// The hooks to run, after the definition's own, on instances created through this forwarding.
    var hooks: [Hook] {
        guard let linkedHooks else { return ownHooks }
        return ownHooks + linkedHooks.withLock { $0 }
    }

    init(
        type: Any.Type,
        tag: DependencyContainer.Tag?,
        hooks: [Hook],
        linkedHooks: Protected<[Hook]>? = nil,
        accepts: @escaping @Sendable (Any) -> Bool
    ) {
        self.type = type
        self.tag = tag
        self.ownHooks = hooks
        self.linkedHooks = linkedHooks
        self.accepts = accepts
    }
}
