public import PlexusSystem

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one lock type of Plexus: a value that can only be read or changed while its lock is held.
///
/// The lock lives in the tail allocation of a `ManagedBuffer`, so it has a stable address (a pthread mutex or an
/// `os_unfair_lock` must never move). Plexus never calls user code while holding one of these locks.
///
/// With `readerBiased`, the hottest reads may skip the lock (`withBiasedRead`): a reader announces itself in a slot of
/// its own thread instead of writing the lock's memory, so readers on several threads share no written memory. Every
/// `withLock` first turns the bias off and waits until those readers are done (`plexus_bias_revoke`), so they never
/// see a change in progress; reads under the lock (`withLockKeepingReaders`) turn it back on after a while.
///
/// `@unchecked Sendable` is sound because the value is only changed inside `withLock`, which holds the mutex for the
/// whole access (the mutex orders every access after the previous one) and begins only once no read without the
/// lock is in progress (the reader slots and the bias are sequentially consistent C11 atomics; a reader's release
/// when it ends orders its reads before the change). `withLockKeepingReaders` and `withBiasedRead` only read, through
/// pointers, so any number of them may overlap.
///
/// Generic and `@inlinable`, so that `Plexus` specializes each access for its value and inlines it into the resolve
/// path: the reader bias's begin and end, the lock and its check are a few instructions of every read row.
@usableFromInline package final class Protected<Value>: @unchecked Sendable {
    @usableFromInline let buffer: LockBuffer<Value>
    /// The reader bias (PlexusSystem), or `nil` when every access takes the lock.
    @usableFromInline let bias: OpaquePointer?

    /// A lock around `value`. `Value` must not be of zero size: its storage would share the lock's address.
    @inlinable
    package init(_ value: Value, readerBiased: Bool = false) {
        buffer = LockBuffer.make(value)
        bias = readerBiased ? plexus_bias_create() : nil
    }

    deinit {
        if let bias { plexus_bias_destroy(bias) }
    }

    /// Runs `body` with exclusive access to the value. `body` must not call user code or take another
    /// `Protected` lock that could be held while waiting for this one.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try buffer.withLockedPointer { value in
            // Before the exclusive access to the value begins: readers without the lock may still be reading it.
            if let bias { plexus_bias_revoke(bias) }
            #if PLEXUS_CHECK_INVARIANTS
                defer { checkAfterChange(value.pointee) }
            #endif
            return try body(&value.pointee)
        }
    }

    /// Reads the value under the lock, through a pointer (no exclusive access): readers without the lock may go on
    /// meanwhile. `body` may change no part of the value (objects it refers to may change, if `withBiasedRead` bodies
    /// do not read what changes). Counts as a read under the lock, which turns the bias back on after a while.
    @inlinable @inline(__always)
    package func withLockKeepingReaders<R>(_ body: (UnsafePointer<Value>) throws -> R) rethrows -> R {
        try buffer.withLockedPointer { value in
            if let bias { plexus_bias_note_locked_read(bias) }
            return try body(UnsafePointer(value))
        }
    }

    #if PLEXUS_CHECK_INVARIANTS
        /// How many changes `withLock` made; only touched with the lock held.
        @usableFromInline var changes = 0

        /// Checks the value's invariants after a change, when a check is due (`Invariants`). Runs with the lock held.
        @usableFromInline func checkAfterChange(_ value: Value) {
            guard let checked = value as? any InvariantChecked else { return }
            changes += 1
            if InvariantCheckSchedule.isDue(change: changes, size: checked.checkedSize) { checked.checkInvariants() }
        }
    #endif

    /// Runs `body` on the value without taking the lock, if the bias allows it; `nil` if not (then take the lock).
    /// `body` must only read, through the pointer and without copying the value (a copy retains its arrays, a write
    /// to memory that every reader shares): it runs while other readers do, and no writer runs until it returns.
    @inlinable @inline(__always)
    package func withBiasedRead<R>(_ body: (UnsafePointer<Value>) -> R) -> R? {
        guard let bias else { return nil }
        let slot = plexus_bias_read_begin(bias)
        guard slot >= 0 else { return nil }
        defer { plexus_bias_read_end(slot) }
        return buffer.withUnsafeMutablePointerToHeader { body(UnsafePointer($0)) }
    }

    /// Whether reads may skip the lock now (`withBiasedRead`): what `EngineTestHooks` reports to the engine's tests.
    package var readsWithoutLock: Bool { bias.map { plexus_bias_is_on($0) != 0 } ?? false }
}

#if canImport(Darwin)
    /// The platform's mutex, kept in the lock buffer's tail.
    @usableFromInline typealias PlatformLock = os_unfair_lock
#else
    /// The platform's mutex, kept in the lock buffer's tail.
    @usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

/// A `Protected` value and its lock, in one allocation whose address never changes.
@usableFromInline
final class LockBuffer<Value>: ManagedBuffer<Value, PlatformLock> {
    /// A buffer holding `value`, its lock initialized.
    @inlinable
    static func make(_ value: Value) -> LockBuffer<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        // `create` called on a subclass allocates an instance of that subclass.
        let lockBuffer = unsafeDowncast(buffer, to: LockBuffer<Value>.self)
        lockBuffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                initializeMutex(lock)
            #endif
        }
        return lockBuffer
    }

    deinit {
        // ManagedBuffer destroys the header (the value) itself; the element (the lock) is ours.
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
                checkPThread(pthread_mutex_destroy(lock), "pthread_mutex_destroy")
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }

    /// Runs `body` with the lock held and a pointer to the value; the access to the value is the body's to begin.
    @inlinable @inline(__always)
    func withLockedPointer<R>(_ body: (UnsafeMutablePointer<Value>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                checkPThread(pthread_mutex_lock(lock), "pthread_mutex_lock")
                defer { checkPThread(pthread_mutex_unlock(lock), "pthread_mutex_unlock") }
            #endif
            return try body(value)
        }
    }
}
