// Graph report: whether any thread records a graph report right now; whether any task replaced the shared
// container; and whether verbose logging was ever asked for.
#ifndef PLEXUS_RECORDING_H
#define PLEXUS_RECORDING_H

/// How many graph reports are being recorded in the process. Read and written only through the functions below.
extern long plexus_active_recorders;

/// Whether a graph report is being recorded anywhere in the process: one relaxed load, inlined into the resolve
/// path, which then leaves its shortcuts so that every edge is seen. Relaxed is enough: a recording thread sets it
/// before its own resolves (program order), and other threads only lose a shortcut while it is set.
static inline int plexus_is_recording(void) {
    return __atomic_load_n(&plexus_active_recorders, __ATOMIC_RELAXED) != 0;
}

/// Counts a recording in (`delta` 1) or out (`delta` -1).
static inline void plexus_count_recording(long delta) {
    __atomic_fetch_add(&plexus_active_recorders, delta, __ATOMIC_RELAXED);
}

/// Whether `DependencyContainer.withShared` has run in the process: until it has, no task can have replaced the
/// shared container, and reading it skips the task-local lookup. Set once, never cleared (an unstructured task
/// started inside `withShared` keeps its replacement after `withShared` returns).
extern long plexus_shared_replaced;

/// Whether the shared container may have been replaced in some task: one relaxed load. Relaxed is enough: the task
/// that replaces it sets it first (program order), and the tasks that inherit the replacement are started after.
static inline int plexus_shared_may_be_replaced(void) {
    return __atomic_load_n(&plexus_shared_replaced, __ATOMIC_RELAXED) != 0;
}

/// Notes that the shared container is replaced in a task.
static inline void plexus_note_shared_replaced(void) {
    __atomic_store_n(&plexus_shared_replaced, 1, __ATOMIC_RELAXED);
}

/// Whether verbose logging has been asked for in the process (`logLevel = .verbose`, `withLogging(level: .verbose)`):
/// until it has, a verbose log line (one per registration) is dropped without reading the task-local override or
/// taking the settings' lock. Set once, never cleared.
extern long plexus_verbose_requested;

/// Whether verbose logging may be on anywhere: one relaxed load. Relaxed is enough: the thread or task that turns it
/// on sets it first (program order), and whatever is ordered after that setting sees it.
static inline int plexus_verbose_may_be_on(void) {
    return __atomic_load_n(&plexus_verbose_requested, __ATOMIC_RELAXED) != 0;
}

/// Notes that verbose logging is asked for.
static inline void plexus_note_verbose_requested(void) {
    __atomic_store_n(&plexus_verbose_requested, 1, __ATOMIC_RELAXED);
}

#endif
