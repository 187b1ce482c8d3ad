#define _GNU_SOURCE
#include "PlexusSystem.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
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
/// threads write no common memory.
#define PLEXUS_READER_SLOTS 64

typedef struct {
    _Alignas(64) _Atomic(uintptr_t) bias;
} plexus_reader_slot;

static plexus_reader_slot plexus_readers[PLEXUS_READER_SLOTS];
static _Atomic(long) plexus_next_reader_slot = 0;
/// The calling thread's slot; -1 before its first read, -2 when it has none (asymmetric mode, every slot taken).
static _Thread_local long plexus_thread_reader_slot = -1;

struct plexus_bias {
    _Atomic(int) on;
    /// Reads under the lock since the bias went off; only touched with the lock held.
    long locked_reads;
};

/// How many reads under the lock turn the bias back on after a write turned it off.
#define PLEXUS_READS_BEFORE_BIAS 16

/// Asymmetric mode (Linux with `membarrier`): a reader announces itself with a plain store, and a writer that turns
/// the bias off makes every running thread of the process execute a full memory barrier (`membarrier`) before it looks
/// for readers: either it sees the reader's announcement, or the reader sees the bias off. Readers then need no atomic
/// read-modify-write, but each needs a slot of its own (`plexus_reader_owned`). Elsewhere, a reader takes a slot,
/// possibly shared with other threads, with a sequentially consistent compare-and-swap.
static _Atomic(int) plexus_asymmetric = 0;
/// Whether threads own their reader slots (asymmetric mode was set up): stays set if the mode is given up later.
static _Atomic(int) plexus_reader_slots_owned = 0;
static pthread_once_t plexus_asymmetric_once = PTHREAD_ONCE_INIT;
/// Asymmetric mode: which slots a thread owns, and the key whose destructor gives a slot back when its thread ends.
static _Atomic(int) plexus_reader_owned[PLEXUS_READER_SLOTS];
static pthread_key_t plexus_reader_key;

#if defined(__linux__) && defined(SYS_membarrier)
#include <linux/membarrier.h>

static void plexus_reader_thread_ended(void *slot) {
    long index = (long)(intptr_t)slot - 1;
    plexus_thread_reader_slot = -1;
    if (index >= 0 && index < PLEXUS_READER_SLOTS) {
        atomic_store_explicit(&plexus_reader_owned[index], 0, memory_order_release);
    }
}

static void plexus_asymmetric_setup(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    if (pthread_key_create(&plexus_reader_key, plexus_reader_thread_ended) != 0) return;
    atomic_store_explicit(&plexus_reader_slots_owned, 1, memory_order_release);
    atomic_store_explicit(&plexus_asymmetric, 1, memory_order_release);
}

/// Every running thread of the process executes a full memory barrier before this returns; 0 on success.
static int plexus_membarrier(void) { return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0); }
#else
static void plexus_asymmetric_setup(void) {}
static int plexus_membarrier(void) { return -1; }
#endif

/// Asymmetric mode: a slot of the calling thread's own, or -2 when every slot is taken (it then reads under the lock).
static long plexus_claim_reader_slot(void) {
    for (long index = 0; index < PLEXUS_READER_SLOTS; index++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&plexus_reader_owned[index], &expected, 1)) {
            pthread_setspecific(plexus_reader_key, (void *)(intptr_t)(index + 1));
            return index;
        }
    }
    return -2;
}

/// In the child of `fork()`, only the forking thread exists, and it is not inside a read without the lock (`fork` is
/// user code, which never runs inside one). Announcements and reader slots of the parent's other threads would make a
/// writer in the child wait for ever, and their hazard marks would keep dropped slots: clear them.
static void plexus_after_fork_in_child(void) {
    long own = plexus_thread_reader_slot;
    for (long slot = 0; slot < PLEXUS_READER_SLOTS; slot++) {
        atomic_store_explicit(&plexus_readers[slot].bias, 0, memory_order_relaxed);
        if (slot != own) atomic_store_explicit(&plexus_reader_owned[slot], 0, memory_order_relaxed);
    }
    plexus_hazard_after_fork_in_child();
}

static pthread_once_t plexus_fork_once = PTHREAD_ONCE_INIT;

static void plexus_fork_setup(void) { pthread_atfork(NULL, NULL, plexus_after_fork_in_child); }

plexus_bias *plexus_bias_create(void) {
    pthread_once(&plexus_fork_once, plexus_fork_setup);
    pthread_once(&plexus_asymmetric_once, plexus_asymmetric_setup);
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
    if (atomic_load_explicit(&plexus_asymmetric, memory_order_relaxed)) {
        if (slot == -1) slot = plexus_thread_reader_slot = plexus_claim_reader_slot();
        if (slot < 0) return -1;
        // The slot is this thread's alone: busy only with a read of its own in progress.
        if (atomic_load_explicit(&plexus_readers[slot].bias, memory_order_relaxed) != 0) return -1;
        atomic_store_explicit(&plexus_readers[slot].bias, (uintptr_t)bias, memory_order_relaxed);
        // Only the compiler must keep the store before the load: the writer's `membarrier` orders them for the CPU.
        atomic_signal_fence(memory_order_seq_cst);
        // Acquire: the last write under the lock happens before the bias was turned on (a release, with the lock held).
        if (!atomic_load_explicit(&bias->on, memory_order_acquire)) {
            atomic_store_explicit(&plexus_readers[slot].bias, 0, memory_order_release);
            return -1;
        }
        return slot;
    }
    if (slot < 0) {
        if (atomic_load_explicit(&plexus_reader_slots_owned, memory_order_relaxed)) {
            // Back from asymmetric mode (a failed `membarrier`): slots stay owned, so that no thread's plain store can
            // overwrite another's compare-and-swap in a shared slot.
            if (slot == -2) return -1;
            slot = plexus_thread_reader_slot = plexus_claim_reader_slot();
            if (slot < 0) return -1;
        } else {
            slot = atomic_fetch_add_explicit(&plexus_next_reader_slot, 1, memory_order_relaxed) % PLEXUS_READER_SLOTS;
            plexus_thread_reader_slot = slot;
        }
    }
    uintptr_t expected = 0;
    // Sequentially consistent, like the writer's store and loads below: either the writer sees this reader, or this
    // reader sees the bias off.
    if (!atomic_compare_exchange_strong(&plexus_readers[slot].bias, &expected, (uintptr_t)bias)) return -1;
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
    // orders its reads before this writer's writes.
    atomic_store(&bias->on, 0);
    if (atomic_load_explicit(&plexus_asymmetric, memory_order_relaxed) && plexus_membarrier() != 0) {
        // Registered at start, so this does not fail (unless a sandbox forbids the call later). Then readers go back
        // to the compare-and-swap, and this writer gives a reader's announcement made without a barrier a
        // millisecond to become visible (a store buffer drains in far less) before it looks.
        atomic_store(&plexus_asymmetric, 0);
        usleep(1000);
    }
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

// MARK: Task graphs

_Atomic(long) plexus_task_graphs = 0;

void plexus_task_graphs_add(long delta) {
    atomic_fetch_add_explicit(&plexus_task_graphs, delta, memory_order_relaxed);
}

