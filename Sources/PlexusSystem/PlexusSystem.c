#define _GNU_SOURCE
#include "PlexusSystem.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__linux__)
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#if defined(__linux__)
/// The main thread's stack, as glibc's `pthread_getattr_np` computes it (lowest address: the top of the stack's mapping
/// minus RLIMIT_STACK) but without reading /proc/self/maps, which glibc parses line by line for the main thread (about
/// 250,000 instructions, paid by an app's first resolve). The kernel copies the executable's path (AT_EXECFN) to the
/// top of the new stack, just below one null pointer, so the mapping ends at the next page boundary above it. Returns
/// -1, for glibc's answer instead, when the limit is unlimited or the caller's frame is not in the range found.
static int main_thread_stack(uintptr_t *low, size_t *size) {
    const char *path = (const char *)getauxval(AT_EXECFN);
    struct rlimit limit;
    long page = sysconf(_SC_PAGESIZE);
    if (path == NULL || page <= 0 || getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
        return -1;
    }
    uintptr_t mask = (uintptr_t)page - 1;
    uintptr_t top = ((uintptr_t)path + strlen(path) + 1 + sizeof(void *) + mask) & ~mask;
    size_t length = (size_t)limit.rlim_cur & ~(size_t)mask;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (length == 0 || top < length || here <= top - length || here >= top) return -1;
    *low = top - length;
    *size = length;
    return 0;
}
#endif

int plexus_current_stack(uintptr_t *low, size_t *size) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
    size_t length = pthread_get_stacksize_np(thread);
    if (length == 0 || top < length) return -1;
    *low = top - length;
    *size = length;
    return 0;
#elif defined(__linux__)
    if (plexus_is_main_thread() && main_thread_stack(low, size) == 0) return 0;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = NULL;
    size_t length = 0;
    int failed = pthread_attr_getstack(&attributes, &address, &length);
    pthread_attr_destroy(&attributes);
    if (failed || address == NULL || length == 0) return -1;
    *low = (uintptr_t)address;
    *size = length;
    return 0;
#else
    (void)low;
    (void)size;
    return -1;
#endif
}


int plexus_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return getpid() == (pid_t)syscall(SYS_gettid);
#else
    return 0;
#endif
}

// MARK: Reader bias

/// Reader slots, shared by every bias: a thread writes the address of the bias it reads under into its slot, so a
/// writer finds the readers of its own lock. Each slot has a cache line of its own, so that readers on different
/// threads write no common memory. Threads take slots in turn; past 64 threads two may share one, and then one of
/// them reads under the lock while the other's read is in progress.
#define PLEXUS_READER_SLOTS 64

typedef struct {
    _Alignas(64) _Atomic(uintptr_t) bias;
} plexus_reader_slot;

static plexus_reader_slot plexus_readers[PLEXUS_READER_SLOTS];
static _Atomic(long) plexus_next_reader_slot = 0;
/// The calling thread's slot, -1 before its first read.
static _Thread_local long plexus_thread_reader_slot = -1;

struct plexus_bias {
    _Atomic(int) on;
    /// Reads under the lock since the bias went off; only touched with the lock held.
    long locked_reads;
};

/// How many reads under the lock turn the bias back on after a write turned it off.
#define PLEXUS_READS_BEFORE_BIAS 16

/// In the child of `fork()`, only the forking thread exists, and it is not inside a read without the lock (`fork` is
/// user code, which never runs inside one). Announcements of the parent's other threads would make a writer in the
/// child wait for ever, and their hazard marks would keep dropped slots: clear them.
static void plexus_after_fork_in_child(void) {
    for (long slot = 0; slot < PLEXUS_READER_SLOTS; slot++) {
        atomic_store_explicit(&plexus_readers[slot].bias, 0, memory_order_relaxed);
    }
    plexus_hazard_after_fork_in_child();
}

static pthread_once_t plexus_fork_once = PTHREAD_ONCE_INIT;

static void plexus_fork_setup(void) { pthread_atfork(NULL, NULL, plexus_after_fork_in_child); }

plexus_bias *plexus_bias_create(void) {
    pthread_once(&plexus_fork_once, plexus_fork_setup);
    plexus_bias *bias = malloc(sizeof(plexus_bias));
    if (bias == NULL) return NULL;
    atomic_init(&bias->on, 0);
    bias->locked_reads = 0;
    return bias;
}

void plexus_bias_destroy(plexus_bias *bias) { free(bias); }

long plexus_bias_read_begin(plexus_bias *bias) {
    if (bias == NULL || !atomic_load_explicit(&bias->on, memory_order_relaxed)) return -1;
    long slot = plexus_thread_reader_slot;
    if (slot < 0) {
        slot = atomic_fetch_add_explicit(&plexus_next_reader_slot, 1, memory_order_relaxed) % PLEXUS_READER_SLOTS;
        plexus_thread_reader_slot = slot;
    }
    uintptr_t expected = 0;
    // Sequentially consistent, like the writer's store and loads in `plexus_bias_revoke`: either the writer sees this
    // reader's announcement, or this reader sees the bias off. The compare-and-swap also keeps a thread that shares
    // the slot from overwriting an announcement in progress.
    if (!atomic_compare_exchange_strong(&plexus_readers[slot].bias, &expected, (uintptr_t)bias)) return -1;
    // The acquire half orders this read after the last write under the lock, which happened before the bias was
    // turned on (a release, with the lock held).
    if (!atomic_load(&bias->on)) {
        atomic_store_explicit(&plexus_readers[slot].bias, 0, memory_order_release);
        return -1;
    }
    return slot;
}

void plexus_bias_read_end(long slot) {
    atomic_store_explicit(&plexus_readers[slot].bias, 0, memory_order_release);
}

void plexus_bias_revoke(plexus_bias *bias) {
    if (bias == NULL) return;
    bias->locked_reads = 0;
    if (!atomic_load_explicit(&bias->on, memory_order_relaxed)) return;
    // Sequentially consistent store and loads (see `plexus_bias_read_begin`); a reader's release store when it ends
    // orders its reads before this writer's writes. No system call: a write costs one pass over the reader slots.
    atomic_store(&bias->on, 0);
    for (long slot = 0; slot < PLEXUS_READER_SLOTS; slot++) {
        while (atomic_load(&plexus_readers[slot].bias) == (uintptr_t)bias) {
            sched_yield();
        }
    }
}

void plexus_bias_note_locked_read(plexus_bias *bias) {
    if (bias == NULL || atomic_load_explicit(&bias->on, memory_order_relaxed)) return;
    if (++bias->locked_reads < PLEXUS_READS_BEFORE_BIAS) return;
    bias->locked_reads = 0;
    atomic_store_explicit(&bias->on, 1, memory_order_release);
}

int plexus_bias_is_on(plexus_bias *bias) {
    return bias != NULL && atomic_load_explicit(&bias->on, memory_order_relaxed);
}

// MARK: Answer generations

_Atomic(long) plexus_generation = 0;
_Atomic(long) plexus_record_generation = 0;
_Atomic(unsigned long) plexus_record_owner_numbers = 0;

// MARK: Task graphs

_Atomic(long) plexus_task_graphs = 0;

void plexus_task_graphs_add(long delta) {
    atomic_fetch_add_explicit(&plexus_task_graphs, delta, memory_order_relaxed);
}


// MARK: Zero-sized arguments

_Alignas(16) const unsigned char plexus_zero_sized[16] = {0};

plexus_recursive_lock *plexus_recursive_lock_create(void) {
    plexus_recursive_lock *lock = malloc(sizeof(plexus_recursive_lock));
    if (lock == NULL) return NULL;
    if (pthread_mutex_init(&lock->mutex, NULL) != 0) {
        free(lock);
        return NULL;
    }
    atomic_init(&lock->owner, 0);
    lock->depth = 0;
    return lock;
}

void plexus_recursive_lock_destroy(plexus_recursive_lock *lock) {
    pthread_mutex_destroy(&lock->mutex);
    free(lock);
}
