internal import PlexusCore

/// What a change dropped from a registry, released by `DependencyContainer.release(_:)` after the change's lock (a
/// `deinit` is user code). Typed so that whatever holds a slot is listed as such: `release` keeps a slot whose
/// factory some thread runs without holding it, and only the slots it can list get that check. A new kind of thing
/// that holds a slot gets a field in `More` and a line in `droppedSlots()`.
///
/// Two words: a registration drops nothing or one slot (the one an override replaced), which `slot` holds; anything
/// more is in `more`, made on first use.
struct Released {
    /// A slot that left the registry: the one an override replaced, or a removed definition's.
    private(set) var slot: Slot?
    /// The rest, if any.
    private var more: More?

    /// What a change dropped besides `slot`.
    private final class More {
        /// Other slots that left the registry (declared defaults, several removed at once).
        var slots: [Slot] = []
        /// Forwarding registrations removed or replaced, each holding its slot.
        var forwards: [Registry.ForwardEntry] = []
        /// What slots cached and dropped (the slots stay).
        var cached: [Slot.Cached] = []
        /// Whole registries replaced (a reset, a restored snapshot), with every slot they held.
        var registries: [Registry] = []
    }

    /// Nothing dropped yet.
    init() {}

    /// `slot` dropped.
    init(slot: Slot?) {
        self.slot = slot
    }

    /// `registry`, replaced whole, dropped.
    init(registry: Registry) {
        madeMore().registries.append(registry)
    }

    /// `more`, made if it was not, and this value's own: a copy of a `Released` that adds to it copies `More` first,
    /// so that what one copy adds never shows in the other.
    private mutating func madeMore() -> More {
        if isKnownUniquelyReferenced(&more), let more { return more }
        let made = More()
        if let shared = more {
            (made.slots, made.forwards, made.cached, made.registries) =
                (shared.slots, shared.forwards, shared.cached, shared.registries)
        }
        more = made
        return made
    }

    /// Adds a slot that left the registry.
    mutating func add(_ dropped: Slot) {
        if slot == nil { slot = dropped } else { madeMore().slots.append(dropped) }
    }

    /// Adds forwarding registrations removed or replaced.
    mutating func add(_ entries: [Registry.ForwardEntry]) {
        if !entries.isEmpty { madeMore().forwards += entries }
    }

    /// Adds what a slot cached and dropped.
    mutating func add(_ cached: Slot.Cached) {
        guard cached.instance != nil || cached.weakInstance != nil || cached.pendingValue != nil else { return }
        madeMore().cached.append(cached)
    }

    /// Adds what `other` dropped.
    mutating func append(_ other: Released) {
        if let otherSlot = other.slot { add(otherSlot) }
        guard let theirs = other.more else { return }
        let mine = madeMore()
        mine.slots += theirs.slots
        mine.forwards += theirs.forwards
        mine.cached += theirs.cached
        mine.registries += theirs.registries
    }

    /// Whether nothing was dropped.
    var isEmpty: Bool { slot == nil && more == nil }

    /// Whether any slot is among them (only then can one be marked).
    var dropsSlots: Bool {
        guard slot == nil else { return true }
        guard let more else { return false }
        return !more.slots.isEmpty || !more.forwards.isEmpty || !more.registries.isEmpty
    }

    /// Every slot among them, for the look for marks (made only when some thread has marked a slot).
    func droppedSlots() -> [Slot] {
        var listed = slot.map { [$0] } ?? []
        guard let more else { return listed }
        listed += more.slots + more.forwards.map(\.slot)
        for registry in more.registries { listed += registry.slots.allValues + registry.accessorDefaults.allValues }
        return listed
    }
}

// Factories that run without retaining their slot (the fast path, `HazardMarks`, in the core target): a change that
// drops such a slot from the registry keeps it until its factory returned.

extension DependencyContainer {
    /// Releases what a change dropped from the registry (the slots it removed, an old registry), after the change's
    /// lock section, except the slots whose factory runs on some thread without holding them (a hazard mark): those
    /// are kept in `retired` until a later change finds them unmarked, or until the container goes. Everything else
    /// (other slots, their singletons and what their closures capture) goes now.
    ///
    /// The look for marks comes after the change: the change's lock section waited for every read of the registry
    /// in progress (the reader bias) or came after it (the lock), and a resolve sets its mark inside such a read, so
    /// every mark set for a dropped slot is seen; a resolve that reads the registry later cannot find the dropped
    /// slots. A retired slot cannot be marked again, so it stays retired only while a factory that was running when it
    /// was dropped still runs. The look happens under the lock of `retired`, so that one change never releases what
    /// another change kept before looking.
    func release(_ released: Released) {
        retireMarked(released)
        // Released after the lock, by the caller's frame: a `deinit` is user code. Later still while the caller holds
        // a lock of its own.
        if !released.isEmpty { _ = ResolutionGraph.holdIfAsked(released) }
    }

    /// Keeps a reference to `dropped` until the package caller on this thread that holds a lock of its own
    /// (`releasingAfterwards`) is done, if there is one; the caller lets its own reference go after its lock, as
    /// usual.
    package static func holdRelease(of dropped: some Any) {
        _ = ResolutionGraph.holdIfAsked(dropped)
    }

    /// Runs `body`, and releases what the engine dropped on this thread meanwhile (instances, slots, definitions and
    /// what their closures capture) only after it returns: for a package caller that changes containers under a lock
    /// of its own (PlexusFactoryKit's resolution lock), so that the `deinit`s of what it dropped run with no lock
    /// held. Calls nest; the outermost releases.
    package static func releasingAfterwards<R>(_ body: () throws -> R) rethrows -> R {
        let outermost = beginHoldingReleases()
        defer { endHoldingReleases(outermost) }
        return try body()
    }

    /// `releasingAfterwards` as two calls, for a caller whose lock section is not a closure: returns whether this
    /// is the outermost, to pass to `endHoldingReleases`, which the caller calls after its lock is released.
    @usableFromInline
    package static func beginHoldingReleases() -> Bool {
        let graph = ResolutionGraph.threadGraph
        if graph.holdsReleases { return false }
        graph.holdsReleases = true
        return true
    }

    /// Ends what `beginHoldingReleases` began: the outermost releases what was held, on a thread that no longer
    /// holds anything back (a `deinit` may drop more).
    @usableFromInline
    package static func endHoldingReleases(_ outermost: Bool) {
        guard outermost else { return }
        let graph = ResolutionGraph.threadGraph
        graph.holdsReleases = false
        guard !graph.heldReleases.isEmpty else { return }
        let held = graph.heldReleases
        graph.heldReleases = []
        withExtendedLifetime(held) {}
    }

    /// Keeps the slots of `dropped` that some thread has marked, and releases (after the lock) those kept before that
    /// no thread marks any more. `dropped`'s slots are only listed when some thread has marked a slot: usually none
    /// has. Takes the value, not a closure that lists them: the optimizer specializes the lock section for such a
    /// closure and retains what it captures, four retains and two releases per change (`override` in
    /// `Benchmarks/profile`).
    ///
    /// A change that dropped no slot has only the slots kept before to look at; when no container keeps any (a count
    /// read without a lock, `HazardMarks.anyRetired`), it takes no lock at all. Reading 0 while another change is about
    /// to keep a slot only leaves that slot to a later change, or to the container's end, as a change that ran a moment
    /// earlier would have.
    private func retireMarked(_ dropped: Released) {
        let any = dropped.dropsSlots
        guard any || HazardMarks.anyRetired else { return }
        let released = retired.withLock { retired -> [Slot] in
            guard any || !retired.isEmpty else { return [] }
            let kept = retired.count
            defer { if retired.count != kept { HazardMarks.countRetired(retired.count - kept) } }
            let marked = HazardMarks.marked()
            guard !marked.isEmpty else {
                defer { retired.removeAll() }
                return retired
            }
            func isMarked(_ slot: Slot) -> Bool { marked.contains(slot) }
            retired += dropped.droppedSlots().filter(isMarked)
            let released = retired.filter { !isMarked($0) }
            retired.removeAll { !isMarked($0) }
            return released
        }
        if !released.isEmpty { Self.holdRelease(of: released) }
    }

    /// Takes the slots this container keeps retired off the process-wide count: they go with the container.
    func forgetRetired() {
        let kept = retired.withLock { $0.count }
        if kept != 0 { HazardMarks.countRetired(-kept) }
    }
}
