#include "PlexusHazards.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

static _Atomic(plexus_hazard_record *) plexus_hazard_records = NULL;
_Thread_local plexus_hazard_record *plexus_thread_hazards = NULL;
_Atomic(long) plexus_retired_slots = 0;
static pthread_key_t plexus_hazard_key;
static pthread_once_t plexus_hazard_key_once = PTHREAD_ONCE_INIT;

static void plexus_hazard_thread_ended(void *pointer) {
    plexus_hazard_record *record = pointer;
    if (record == NULL) return;
    // A thread that ends inside a factory (`pthread_exit`) leaves marks set: clear them, so that the slots they name
    // are not kept for ever once dropped.
    for (long index = 0; index < record->count && index < PLEXUS_HAZARD_MARKS; index++) {
        atomic_store_explicit(&record->marks[index], 0, memory_order_release);
    }
    record->count = 0;
    plexus_thread_hazards = NULL;
    atomic_store_explicit(&record->in_use, 0, memory_order_release);
}

// A failed key creation (the process's keys exhausted) would leave threads' records unreclaimed: stop instead.
static void plexus_hazard_make_key(void) {
    if (pthread_key_create(&plexus_hazard_key, plexus_hazard_thread_ended) != 0) abort();
}

/// The calling thread's record: a free one taken over, or a new one published at the head of the list.
static plexus_hazard_record *plexus_hazard_record_of_thread(void) {
    if (pthread_once(&plexus_hazard_key_once, plexus_hazard_make_key) != 0) abort();
    plexus_hazard_record *record = atomic_load_explicit(&plexus_hazard_records, memory_order_acquire);
    for (; record != NULL; record = record->next) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&record->in_use, &expected, 1)) break;
    }
    if (record == NULL) {
        record = calloc(1, sizeof(plexus_hazard_record));
        if (record == NULL) return NULL;
        atomic_init(&record->in_use, 1);
        for (int index = 0; index < PLEXUS_HAZARD_MARKS; index++) atomic_init(&record->marks[index], 0);
        plexus_hazard_record *head = atomic_load_explicit(&plexus_hazard_records, memory_order_relaxed);
        do {
            record->next = head;
        } while (!atomic_compare_exchange_weak_explicit(
            &plexus_hazard_records, &head, record, memory_order_release, memory_order_relaxed));
    }
    record->count = 0;
    plexus_thread_hazards = record;
    if (pthread_setspecific(plexus_hazard_key, record) != 0) abort();
    return record;
}

long plexus_hazard_mark_first(const void *slot) {
    if (plexus_hazard_record_of_thread() == NULL) return -1;
    return plexus_hazard_mark(slot);
}

long plexus_hazard_collect(const void **marked, long capacity) {
    long count = 0;
    plexus_hazard_record *record = atomic_load_explicit(&plexus_hazard_records, memory_order_acquire);
    for (; record != NULL; record = record->next) {
        for (int index = 0; index < PLEXUS_HAZARD_MARKS; index++) {
            uintptr_t slot = atomic_load_explicit(&record->marks[index], memory_order_acquire);
            if (slot == 0) continue;
            if (count < capacity) marked[count] = (const void *)slot;
            count++;
        }
    }
    return count;
}

void plexus_hazard_after_fork_in_child(void) {
    plexus_hazard_record *own = plexus_thread_hazards;
    plexus_hazard_record *record = atomic_load_explicit(&plexus_hazard_records, memory_order_acquire);
    for (; record != NULL; record = record->next) {
        if (record == own) continue;
        for (int index = 0; index < PLEXUS_HAZARD_MARKS; index++) {
            atomic_store_explicit(&record->marks[index], 0, memory_order_relaxed);
        }
        record->count = 0;
        atomic_store_explicit(&record->in_use, 0, memory_order_relaxed);
    }
}
