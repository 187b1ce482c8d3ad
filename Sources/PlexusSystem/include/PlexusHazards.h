// Hazard marks: how a resolve runs a definition's factory without retaining the definition's slot.
#ifndef PLEXUS_HAZARDS_H
#define PLEXUS_HAZARDS_H

#include <stdatomic.h>
#include <stdint.h>

/// Marks per thread: one per nested resolve that runs a factory without retaining its slot.
#define PLEXUS_HAZARD_MARKS 32

/// One thread's marks. Records are never freed: a thread that ends gives its record back (`in_use`), and a new
/// thread takes a free one, so a writer may walk the list at any time without a lock.
typedef struct plexus_hazard_record {
    _Atomic(uintptr_t) marks[PLEXUS_HAZARD_MARKS];
    /// Marks set by the owning thread; only it reads or writes this.
    long count;
    _Atomic(int) in_use;
    /// Set before the record is published, never changed after.
    struct plexus_hazard_record *next;
} plexus_hazard_record;

/// The calling thread's record, or null before its first mark. Read inline by the resolve path.
extern _Thread_local plexus_hazard_record *plexus_thread_hazards;

/// `plexus_hazard_mark` for a thread without a record yet: takes one, then marks.
long plexus_hazard_mark_first(const void *slot);

/// Marks, for the calling thread, that it runs the factory of `slot` (a definition's slot in a container) without
/// holding a reference to it: until the mark is cleared, a change that drops the slot from its container must keep it
/// (`plexus_hazard_collect`). Set the mark while the slot is read under its container's lock or reader bias, so that a
/// writer that removes the slot afterwards sees it. Returns the mark to pass to `plexus_hazard_clear`, or -1 when the
/// thread has no free mark (deeply nested resolves; retain the slot then).
static inline long plexus_hazard_mark(const void *slot) {
    plexus_hazard_record *record = plexus_thread_hazards;
    if (record == 0) return plexus_hazard_mark_first(slot);
    long mark = record->count;
    if (mark >= PLEXUS_HAZARD_MARKS) return -1;
    // Relaxed: the read section it is set in ends with a release (the reader bias's end, or the unlock), which a
    // writer acquires before it looks for marks.
    atomic_store_explicit(&record->marks[mark], (uintptr_t)slot, memory_order_relaxed);
    record->count = mark + 1;
    return mark;
}

/// Clears the mark `plexus_hazard_mark` returned, the last one the calling thread set and has not cleared yet; the
/// thread's use of the slot happens before it (release).
static inline void plexus_hazard_clear(long mark) {
    plexus_hazard_record *record = plexus_thread_hazards;
    if (record == 0 || mark < 0) return;
    atomic_store_explicit(&record->marks[mark], 0, memory_order_release);
    record->count = mark;
}

/// Copies the address of every slot some thread has a mark for into `marked` (up to `capacity` of them) and returns
/// how many there are (more than `capacity` means: call again with room for that many). A writer calls it after the
/// change that dropped slots (whose lock section waited for every read of them in progress), so that it sees every
/// mark set for them.
long plexus_hazard_collect(const void **marked, long capacity);

/// How many slots containers keep retired (`DependencyContainer.retired`), process-wide; read it through
/// `plexus_retired_count`.
extern _Atomic(long) plexus_retired_slots;

/// Adds `delta` to the count of retired slots: called under the lock of the `retired` list it changed.
static inline void plexus_retired_add(long delta) {
    atomic_fetch_add_explicit(&plexus_retired_slots, delta, memory_order_relaxed);
}

/// The count of retired slots. Relaxed: a change that reads 0 and dropped no slot skips the look for marks, which only
/// releases retired slots later than it could have (a later change or the container's end releases them).
static inline long plexus_retired_count(void) {
    return atomic_load_explicit(&plexus_retired_slots, memory_order_relaxed);
}

/// In the child of `fork()`: clears the marks of every thread but the calling one (the others do not exist there).
void plexus_hazard_after_fork_in_child(void);

#endif
