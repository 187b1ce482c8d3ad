// The direct path (DependencyContainer+DirectPath.swift) where a remembered route leads: a collaborator's slot, this
// container's `T` for a `T?` request, or this container's definition that auto-wires the request.

extension DependencyContainer {
    /// A remembered route to a collaborator's slot, read where the route is kept: the owner is retained once (the
    /// route holds it weakly), and the slot may only be touched under the owner's lock or reader bias once
    /// `generation` has been checked there (see `Route`).
    struct RoutedSlot {
        let owner: Unmanaged<DependencyContainer>
        let slot: Unmanaged<Slot>
        let generation: Int
        let wraps: Bool

        /// The route's target, if the route is current and leads where the direct path can go (no forwarding
        /// registration, no auto-wiring) and its owner is still alive.
        init?(_ route: RememberedRoute) {
            guard route.generation == Generation.current, route.forward == nil, !route.autoWires,
                let owner = route.retainedOwner()
            else { return nil }
            (self.owner, slot, generation, wraps) = (owner, route.slot, route.generation, route.wrapsInOptional)
        }
    }

    /// What `directStep(for:into:)` can do with `slot` of `owner` (this container for `nil`) while reading without
    /// the owner's lock: copy the published singleton, or make a `.unique` or `.shared` instance (wrapped in the `T?`
    /// requested with `wraps`); `nil` for anything that needs the lock (a singleton's claim). With `key`, the step
    /// says when `slot` was registered under exactly that key (`.createMarked`, or `.createMarkedIn` for a
    /// collaborator's slot).
    func biasedStep(
        for slot: Slot, into result: UnsafeMutableRawPointer, owner: Unmanaged<DependencyContainer>? = nil,
        wraps: Bool = false, at key: DefinitionKey? = nil
    ) -> DirectStep? {
        if slot.copyPublished(into: result) {
            if wraps { slot.blueprint.ops.wrapInOptional(result) }
            return .copied
        }
        guard let type = directType(for: slot) else { return nil }
        if wraps { return .createWrapped(slot, type: type, owner: owner) }
        if let key, slot.keyStorage.pointee == key {
            guard let owner else { return markedStep(for: slot, type: type) }
            return markedStep(for: slot, type: type, in: owner)
        }
        return .create(slot, type: type, owner: owner)
    }

    /// `directStep(for:into:)` at a collaborator's slot: under the collaborator's reader bias when it allows and the
    /// step needs no lock, else under its lock. The owner's reference goes on with `.create` and the like, and is
    /// released otherwise.
    func directStep(
        through routed: RoutedSlot, _ key: DefinitionKey, into result: UnsafeMutableRawPointer
    ) -> DirectStep {
        let step = routed.owner._withUnsafeGuaranteedRef { owner in
            // The slot is current under the owner's bias or lock while the generation is (see `Route`).
            let biased = owner.registry.withBiasedRead { _ -> DirectStep? in
                Route.slot(routed.slot, ifCurrentAt: routed.generation).flatMap {
                    biasedStep(for: $0, into: result, owner: routed.owner, wraps: routed.wraps, at: key)
                }
            }
            if let step = biased ?? nil { return step }
            return owner.registry.withLockKeepingReaders { _ in
                guard let slot = Route.slot(routed.slot, ifCurrentAt: routed.generation) else {
                    return DirectStep.general
                }
                return directStep(for: slot, key, into: result, owner: routed.owner, wraps: routed.wraps)
            }
        }
        switch step {
        case .create, .createAtSlotKey, .createMarkedIn, .createWrapped, .createSingleton, .createSingletonAtSlotKey:
            break
        // `.createMarked` is this container's own (never a collaborator's).
        case .copied, .general, .createAutoWired, .createMarked: routed.owner.release()
        }
        return step
    }

    /// What `directStep(for:into:)` can do while reading without the lock with a local route remembered for the key
    /// (to this container's own slot: a `T?` answered by `T`, or an auto-wiring definition) whose instance is
    /// published or made on the direct path; `nil` for anything else (the lock decides then).
    ///
    /// The route's slot is current while the generation is: a removal advances it under this registry's lock,
    /// which no write holds while the bias lets this read run (see `Route`).
    func biasedStep(through route: RememberedRoute, into result: UnsafeMutableRawPointer) -> DirectStep? {
        guard route.isLocal, route.generation == Generation.current,
            let slot = Route.slot(route.slot, ifCurrentAt: route.generation)
        else { return nil }
        guard route.autoWires else { return biasedStep(for: slot, into: result, wraps: route.wrapsInOptional) }
        return autoWiredStep(for: slot, into: result)
    }

    /// `directStep(for:into:)` for this container's own `slot`, which answers the request by auto-wiring: a published
    /// singleton is copied, a `.unique` or `.shared` instance made on the direct path; `nil` for anything else (a
    /// singleton's first construction: the general path). Call under the lock or the reader bias.
    @inline(__always)
    func autoWiredStep(for slot: Slot, into result: UnsafeMutableRawPointer) -> DirectStep? {
        if slot.copyPublished(into: result) { return .copied }
        guard case .create(let slot, let type)? = directDecision(for: slot), slot.blueprint.autoWire != nil else {
            return nil
        }
        return .createAutoWired(slot, type: type)
    }

    /// Carries out `.createAutoWired`: as `create(directly:…)`, with the factory's arguments resolved from this
    /// container inside the factory's frame, as the general path does (`Slot.withAutoWiredArguments`: an argument's
    /// error is wrapped in `autoWiringFailed`, the factory's own propagates unchanged). Out of line, as `carryOut`.
    @inline(never)
    func create(
        autoWiring slot: Slot, type: ObjectIdentifier, _ key: UnsafePointer<DefinitionKey>,
        into result: UnsafeMutableRawPointer
    ) throws {
        try ResolutionGraph.unretainedCurrent._withUnsafeGuaranteedRef { graph in
            try create(
                directly: slot, type: type, key, arguments: zeroSizedArguments, making: .autoWired, into: result,
                graph: graph)
        }
    }

    /// Runs the auto-wiring factory of `slot` into `result`, its arguments resolved from this container. Out of line:
    /// its closure stays off the stack of the direct path's common case.
    @inline(never)
    func makeAutoWired(_ slot: Slot, _ key: UnsafePointer<DefinitionKey>, into result: UnsafeMutableRawPointer) throws {
        try slot.withAutoWiredArguments(key: key.pointee, owner: self) { arguments in
            try slot.blueprint.make(arguments, into: result)
        }
    }
}
