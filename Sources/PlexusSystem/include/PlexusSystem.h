// What Plexus needs from the operating system that Swift cannot reach portably.
#ifndef PLEXUS_SYSTEM_H
#define PLEXUS_SYSTEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "PlexusRecording.h"  // graph report
#include "PlexusThreadGraph.h"  // the calling thread's resolution graph
#include "PlexusHazards.h"  // factories run without retaining their slots
#include "PlexusRecursiveLock.h"  // PlexusFactoryKit's resolution lock

/// Writes the lowest address and the size of the calling thread's stack. Returns 0 on success, -1 where the bounds
/// cannot be read. (Linux needs `pthread_getattr_np`, which is only declared with _GNU_SOURCE.)
int plexus_current_stack(uintptr_t *low, size_t *size);

/// The calling function's frame address: the real stack, also under AddressSanitizer, whose "fake stack" moves
/// locals whose address is taken to the heap. Inline: the fast path reads it on every factory it enters.
static inline __attribute__((always_inline)) uintptr_t plexus_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

/// Sixteen bytes never read or written: the address Plexus passes for runtime arguments of zero size. A C object has a
/// fixed address with no lazy initialization (a Swift global's first use is checked on every read).
extern _Alignas(16) const unsigned char plexus_zero_sized[16];
static inline const void *plexus_zero_sized_arguments(void) {
    return plexus_zero_sized;
}

/// 1 on the process's main thread (where the main actor runs its synchronous work), 0 elsewhere.
int plexus_is_main_thread(void);

/// Reader bias for one lock (a container's registry): while it is on, readers of the data it guards may read without
/// taking the lock, each announcing itself in a reader slot of its own thread (no memory written by two threads), and
/// a writer, holding the lock, turns the bias off and waits until no reader of this lock is left. Slow reads (under
/// the lock) turn it back on after a while. The atomics live here because the Swift standard library's need iOS 18.
typedef struct plexus_bias plexus_bias;

/// A new bias, off.
plexus_bias *plexus_bias_create(void);

/// Frees a bias no thread uses any more.
void plexus_bias_destroy(plexus_bias *bias);

/// Starts a read without the lock: returns the reader slot to pass to `plexus_bias_read_end`, or -1 when the read must
/// take the lock (the bias is off, or the thread's slot is busy with another read).
long plexus_bias_read_begin(plexus_bias *bias);

/// Ends a read started by `plexus_bias_read_begin`.
void plexus_bias_read_end(long slot);

/// Before writing: turns the bias off and waits until every read without the lock has ended. Call with the lock held.
void plexus_bias_revoke(plexus_bias *bias);

/// After a read under the lock: counts it, and turns the bias on again once enough reads went by. Call with the lock
/// held.
void plexus_bias_note_locked_read(plexus_bias *bias);

/// Whether reads may skip the lock now (the engine's tests observe it); a moment's answer, racy unless the caller
/// holds the lock.
int plexus_bias_is_on(plexus_bias *bias);

/// Counts the async resolves that run in a task's graph (`TaskGraph.withNewGraph`) anywhere in the process, so that an
/// async resolve can skip looking up a task-local graph while there is none. Relaxed: a task's own graph is counted
/// before the task (or a child it starts) looks for it.
void plexus_task_graphs_add(long delta);

/// The counter behind `plexus_task_graphs_add`; read it through `plexus_task_graphs_live`.
extern _Atomic(long) plexus_task_graphs;

/// The number of task graphs alive (see `plexus_task_graphs_add`). Inline: every resolve reads it.
static inline long plexus_task_graphs_live(void) {
    return atomic_load_explicit(&plexus_task_graphs, memory_order_relaxed);
}

/// The source of every container's answer generation (`Epoch`, below): each advance of any epoch takes the next
/// value, so no value is ever given twice. C11 atomics compile on every platform Plexus supports, where Swift's
/// `Synchronization` needs the newest Apple systems.
extern _Atomic(long) plexus_generation;

/// A container's answer generation (`Epoch`): set to a new value of `plexus_generation` by every change that could move
/// where a key resolves in that container, or in one it collaborates with. Two advances of one epoch from different
/// registries' locks (its own container's and a collaborator's) may store out of order, so the value can go back to
/// an earlier one; that is safe because every value is new: a route or answer remembered at any value other than the
/// one stored last no longer matches, and one remembered at that value was found after the change that stored it.
typedef struct plexus_epoch {
    _Atomic(long) value;
    /// Whether a container collaborates with this one's: set once, never cleared.
    _Atomic(int) has_dependents;
} plexus_epoch;
static inline void plexus_epoch_init(plexus_epoch *epoch) {
    atomic_init(&epoch->value, atomic_fetch_add_explicit(&plexus_generation, 1, memory_order_acq_rel) + 1);
    atomic_init(&epoch->has_dependents, 0);
}
static inline long plexus_epoch_current(const plexus_epoch *epoch) {
    return atomic_load_explicit(&epoch->value, memory_order_acquire);
}
static inline void plexus_epoch_advance(plexus_epoch *epoch) {
    long next = atomic_fetch_add_explicit(&plexus_generation, 1, memory_order_acq_rel) + 1;
    atomic_store_explicit(&epoch->value, next, memory_order_release);
}
static inline int plexus_epoch_has_dependents(const plexus_epoch *epoch) {
    return atomic_load_explicit(&epoch->has_dependents, memory_order_acquire);
}
static inline void plexus_epoch_note_dependents(plexus_epoch *epoch) {
    atomic_store_explicit(&epoch->has_dependents, 1, memory_order_release);
}

/// The declaration-record generation: advanced each time a product's declaration records are forgotten (see
/// `DeclarationRecords`), so that a record kept outside the table is known stale with one atomic load.
extern _Atomic(long) plexus_record_generation;
static inline long plexus_record_generation_current(void) {
    return atomic_load_explicit(&plexus_record_generation, memory_order_acquire);
}
static inline void plexus_record_generation_advance(void) {
    atomic_fetch_add_explicit(&plexus_record_generation, 1, memory_order_acq_rel);
}

/// A number given once per process to each owner of declaration records (PlexusFactoryKit's managers), never 0:
/// an owner's address may be given to another after it is released, its number is not.
extern _Atomic(unsigned long) plexus_record_owner_numbers;
static inline unsigned long plexus_record_owner_number_next(void) {
    return atomic_fetch_add_explicit(&plexus_record_owner_numbers, 1, memory_order_relaxed) + 1;
}
#endif
