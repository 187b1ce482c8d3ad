/// A reference to an object that some other holder keeps alive, used without a retain or a release of its own: one
/// word, as cheap to copy as an integer.
///
/// Contract: every use (`with`, `object`, `retained`) happens while the holder the borrower names keeps the object
/// alive (a container's lock or reader bias over its slots, a hazard mark, a step's own reference, the thread that
/// keeps its graph). The borrower states which holder at the place it makes the borrowed reference. Built with
/// `PLEXUS_CHECK_INVARIANTS`, a weak shadow reference beside the word checks at each use that the object still lives,
/// and stops the process naming this contract when it does not.
@usableFromInline package struct Borrowed<Object: AnyObject> {
    /// The object, not retained.
    @usableFromInline let reference: Unmanaged<Object>
    #if PLEXUS_CHECK_INVARIANTS
        /// The object again, weakly: `nil` once it is gone, which the checks read.
        @usableFromInline weak var shadow: Object?
        /// The release record of the `Owned` reference this one was borrowed from (`Owned.borrowed`), if any: an
        /// `Owned` made again from this word (`Owned.init(adopting:)`) shares it, and a use after its release fails.
        @usableFromInline var record: ReleaseRecord?
    #endif

    /// Borrows `object`, which its holder keeps alive for as long as the borrowed reference is used.
    @inlinable @_transparent
    package init(_ object: Object) {
        self.init(reference: .passUnretained(object))
    }

    /// Borrows the object `reference` names, alive now.
    @inlinable @_transparent
    init(reference: Unmanaged<Object>) {
        self.reference = reference
        #if PLEXUS_CHECK_INVARIANTS
            shadow = reference.takeUnretainedValue()
        #endif
    }

    /// Borrows the object at `address`, one its holder keeps alive (an address the C layer keeps for it).
    @inlinable @_transparent
    package init(address: UnsafeRawPointer) {
        self.init(reference: .fromOpaque(address))
    }

    /// Borrows the object `identity` names (an `ObjectIdentifier` is the object's address), one its holder keeps
    /// alive.
    @inlinable @_transparent
    package init(identifiedBy identity: ObjectIdentifier) {
        self.init(reference: .fromOpaque(UnsafeRawPointer(bitPattern: UInt(bitPattern: identity))!))
    }

    /// The object's address, for the C layer to keep (the thread's graph, a hazard mark).
    @inlinable @_transparent
    package var address: UnsafeMutableRawPointer { reference.toOpaque() }

    /// Calls `body` with the object, without retaining it around the call: its holder keeps it alive meanwhile.
    @inlinable @_transparent
    package func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        checkAlive()
        return try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a strong reference the caller's use retains as it needs.
    @inlinable @_transparent
    package var object: Object {
        checkAlive()
        return reference.takeUnretainedValue()
    }

    /// A reference of the caller's own to the object, to release once.
    @inlinable @_transparent
    package func retained() -> Owned<Object> {
        checkAlive()
        return Owned(adopting: reference.retain())
    }

    /// Whether this borrows `object` (an identity check, which reads nothing of the object).
    @inlinable @_transparent
    package func refers(to object: Object) -> Bool {
        reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }

    /// Stops the process when the object is gone (checked builds only; nothing otherwise).
    @inlinable @_transparent
    func checkAlive() {
        #if PLEXUS_CHECK_INVARIANTS
            precondition(
                shadow != nil,
                "Plexus: a borrowed \(Object.self) was used after its holder let it go (Borrowed: its holder must keep "
                    + "it alive at each use)")
        #endif
    }
}

/// A borrowed reference crosses threads as its object does: the holder that keeps the object keeps it for them all.
extension Borrowed: Sendable where Object: Sendable {}

/// A reference to an object retained by hand (+1) and released exactly once, by whoever ends up with it: one word,
/// copied as bits, where a strong reference would be retained and released at each copy.
///
/// Contract: exactly one `release()` per reference taken (`init(retaining:)`, `Borrowed.retained()`), and no use of
/// any copy after it. Built with `PLEXUS_CHECK_INVARIANTS`, the copies of one reference share a record that stops the
/// process, naming this contract, on a second release or a use after the release.
@usableFromInline package struct Owned<Object: AnyObject> {
    /// The object, retained once for this reference.
    @usableFromInline let reference: Unmanaged<Object>
    #if PLEXUS_CHECK_INVARIANTS
        /// Whether the reference was released, shared by its copies.
        @usableFromInline let record: ReleaseRecord
    #endif

    /// Retains `object` once, for this reference.
    @inlinable @_transparent
    package init(retaining object: Object) {
        self.init(adopting: .passRetained(object))
    }

    /// Takes over `reference`, retained once for it.
    @inlinable @_transparent
    init(adopting reference: Unmanaged<Object>) {
        self.reference = reference
        #if PLEXUS_CHECK_INVARIANTS
            record = ReleaseRecord()
        #endif
    }

    /// Takes over the reference `borrowed` was retained for (`Borrowed.retained()` or `init(retaining:)` made it,
    /// then it was kept as its borrowed word), to release it. Shares the release record of the `Owned` it was
    /// borrowed from, so a second adoption's release fails as a second release.
    @inlinable @_transparent
    package init(adopting borrowed: Borrowed<Object>) {
        reference = borrowed.reference
        #if PLEXUS_CHECK_INVARIANTS
            record = borrowed.record ?? ReleaseRecord()
        #endif
    }

    /// Takes over the reference at `address`, which `address` of an owned reference gave out.
    @inlinable @_transparent
    package init(adoptingAddress address: UnsafeMutableRawPointer) {
        self.init(adopting: .fromOpaque(address))
    }

    /// The object's address, for a holder outside Swift (a pthread key) to keep with the reference.
    @inlinable @_transparent
    package var address: UnsafeMutableRawPointer {
        checkLive()
        return reference.toOpaque()
    }

    /// The object borrowed from this reference, valid until it is released.
    @inlinable @_transparent
    package var borrowed: Borrowed<Object> {
        checkLive()
        var borrowed = Borrowed(reference: reference)
        #if PLEXUS_CHECK_INVARIANTS
            borrowed.record = record
        #endif
        return borrowed
    }

    /// Calls `body` with the object, without retaining it again around the call.
    @inlinable @_transparent
    package func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        checkLive()
        return try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a strong reference the caller's use retains as it needs.
    @inlinable @_transparent
    package var object: Object {
        checkLive()
        return reference.takeUnretainedValue()
    }

    /// The same reference, as one to any object (its copies share the release).
    @inlinable @_transparent
    package var erased: Owned<AnyObject> {
        checkLive()
        return Owned<AnyObject>(erasing: reference.toOpaque(), of: self)
    }

    /// `erased`'s initializer: the reference at `address`, sharing `original`'s release record.
    @inlinable @_transparent
    init<Original>(erasing address: UnsafeMutableRawPointer, of original: Owned<Original>) {
        reference = .fromOpaque(address)
        #if PLEXUS_CHECK_INVARIANTS
            record = original.record
        #endif
    }

    /// Releases the reference: its last use, by any copy.
    @inlinable @_transparent
    package func release() {
        #if PLEXUS_CHECK_INVARIANTS
            precondition(
                !record.noteRelease(),
                "Plexus: an owned \(Object.self) was released twice (Owned: exactly one release per reference taken)")
        #endif
        reference.release()
    }

    /// The object, with this reference handed over to the strong reference returned: `release()`'s alternative.
    @inlinable @_transparent
    package func take() -> Object {
        #if PLEXUS_CHECK_INVARIANTS
            precondition(
                !record.noteRelease(),
                "Plexus: an owned \(Object.self) was taken after its release (Owned: exactly one release per reference "
                    + "taken)")
        #endif
        return reference.takeRetainedValue()
    }

    /// Stops the process when the reference was released (checked builds only; nothing otherwise).
    @inlinable @_transparent
    func checkLive() {
        #if PLEXUS_CHECK_INVARIANTS
            precondition(
                !record.released,
                "Plexus: an owned \(Object.self) was used after its release (Owned: no use of any copy after it)")
        #endif
    }
}

#if PLEXUS_CHECK_INVARIANTS
    /// Whether an owned reference was released, shared by its copies (checked builds only).
    @usableFromInline package final class ReleaseRecord: Sendable {
        /// Set by the reference's one release; under a lock, since a borrowed word that shares the record may be used
        /// on another thread (`Borrowed` is `Sendable`).
        @usableFromInline let state = Protected(false)

        /// A record of a reference not yet released.
        @inlinable init() {}

        /// Whether the reference was released.
        @usableFromInline var released: Bool { state.withLock { $0 } }

        /// Records the release; returns whether it had been released before.
        @usableFromInline func noteRelease() -> Bool {
            state.withLock { released in
                defer { released = true }
                return released
            }
        }
    }
#endif
