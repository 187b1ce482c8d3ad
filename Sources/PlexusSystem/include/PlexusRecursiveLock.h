// A recursive lock whose repeated lock by its holder costs one relaxed load: a normal mutex, the thread that holds it
// and how many times. For PlexusFactoryKit's process-wide resolution lock, taken around every resolve.
#ifndef PLEXUS_RECURSIVE_LOCK_H
#define PLEXUS_RECURSIVE_LOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/// The lock: `owner` is the holding thread's `pthread_self()` (0 when free), written only by that thread while it
/// holds `mutex`, so a thread reads its own identity there only if it holds the lock; `depth` is touched only by the
/// holder.
typedef struct plexus_recursive_lock {
    pthread_mutex_t mutex;
    _Atomic(uintptr_t) owner;
    long depth;
} plexus_recursive_lock;

/// A new, unlocked lock in memory of its own (never moves); NULL when its mutex cannot be made.
plexus_recursive_lock *plexus_recursive_lock_create(void);
/// Frees a lock no thread holds.
void plexus_recursive_lock_destroy(plexus_recursive_lock *lock);

/// Takes the lock again if the calling thread `self` holds it: 1 then, 0 when it must take the mutex.
static inline int plexus_recursive_lock_reenter(plexus_recursive_lock *lock, uintptr_t self) {
    if (atomic_load_explicit(&lock->owner, memory_order_relaxed) != self) return 0;
    lock->depth += 1;
    return 1;
}

/// Records the calling thread `self` as the holder, once it has taken the mutex.
static inline void plexus_recursive_lock_held(plexus_recursive_lock *lock, uintptr_t self) {
    atomic_store_explicit(&lock->owner, self, memory_order_relaxed);
    lock->depth = 1;
}

/// Takes the lock, waiting while another thread holds it. Returns 0, or the error of `pthread_mutex_lock`.
static inline int plexus_recursive_lock_lock(plexus_recursive_lock *lock) {
    uintptr_t self = (uintptr_t)pthread_self();
    if (plexus_recursive_lock_reenter(lock, self)) return 0;
    int result = pthread_mutex_lock(&lock->mutex);
    if (result == 0) plexus_recursive_lock_held(lock, self);
    return result;
}

/// Takes the lock if it is free or the calling thread holds it: 0 then; EBUSY (or another error of
/// `pthread_mutex_trylock`) without waiting otherwise.
static inline int plexus_recursive_lock_try(plexus_recursive_lock *lock) {
    uintptr_t self = (uintptr_t)pthread_self();
    if (plexus_recursive_lock_reenter(lock, self)) return 0;
    int result = pthread_mutex_trylock(&lock->mutex);
    if (result == 0) plexus_recursive_lock_held(lock, self);
    return result;
}

/// Gives back one lock of the calling thread, which must hold it. Returns 0, or the error of `pthread_mutex_unlock`
/// (EPERM when the calling thread does not hold the lock).
static inline int plexus_recursive_lock_unlock(plexus_recursive_lock *lock) {
    if (atomic_load_explicit(&lock->owner, memory_order_relaxed) != (uintptr_t)pthread_self()) return 1;
    lock->depth -= 1;
    if (lock->depth > 0) return 0;
    atomic_store_explicit(&lock->owner, 0, memory_order_relaxed);
    return pthread_mutex_unlock(&lock->mutex);
}

#endif
