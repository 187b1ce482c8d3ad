/*
 * The read/reclaim protocol: reads without the lock (reader bias), hazard marks, retirement of dropped slots,
 * remembered routes validated by the generation. See README.md beside this file for what each property stands for.
 *
 * The scene: a key K registered in container B; container A collaborates with B and remembers where it found K (a
 * route). Writers register K again in B (each time a new slot replaces the current one, which is dropped). Readers
 * resolve K, from B directly (the fast step at B's slot) or from A (A's route to B's slot, else the general path,
 * which remembers the route). Slot numbers grow with registration order: slot 0 is registered first.
 *
 * Abstractions:
 * - Memory is sequentially consistent. The accesses the protocol rests on are sequentially consistent in
 *   PlexusSystem.c (the announcement's compare-and-swap, the bias's store and loads); a hazard mark is stored relaxed
 *   inside the read section, whose end (a release) the writer acquires before it collects marks.
 * - A thread's reader slot is its own (no two threads share one: true below 64 threads); the compare-and-swap that
 *   announces a read then always succeeds and is a plain store.
 * - A's registry is not written by the writers: its route is read and written in one step each (under A's own bias
 *   or lock, which is the same protocol as B's, modelled once, for B).
 * - `plexus_bias_note_locked_read` turns the bias back on after 16 reads under the lock; here any read under the
 *   lock may turn it on (more interleavings, not fewer).
 * - Reference counting is a counter per slot (the registry's reference included); a slot is freed when it drops
 *   to zero.
 *
 * Seeded bugs (each must make spin fail; `.ci/spin` checks that it does):
 *   BUG_NO_HAZARD        release(_:) ignores hazard marks                  -> a slot freed while marked
 *   BUG_MARK_AFTER_READ  the fast step marks its slot after the read ends  -> a freed slot used
 *   BUG_NO_RECHECK       plexus_bias_read_begin skips its second bias load -> a read overlaps a write
 *   BUG_NO_REVOKE_WAIT   plexus_bias_revoke does not wait for readers      -> a read overlaps a write
 *   BUG_NO_GENERATION    Registry.insert does not advance the generation   -> a stale answer after a registration
 *   BUG_NO_GENERATION_CHECK  a route is followed without checking its    -> a stale answer after a registration
 *                        generation (RoutedSlot.init, Route.slot(_:ifCurrentAt:))
 *   BUG_LOCK_INSIDE_READ the fast step takes the lock inside its read     -> deadlock (the writer holding the
 *                        without the lock (lockedStep called from the       lock waits for the read to end)
 *                        withBiasedRead body)
 *   BUG_RETRY_BIASED     a failed read without the lock is retried instead -> livelock (only reads under the
 *                        of taken under the lock                            lock turn the bias back on)
 *   BUG_GEN_AFTER_SEARCH findInCollaborators reads the generation after   -> a stale answer after a registration
 *                        the search instead of before it
 */

#ifndef READERS
#define READERS 2
#endif
#ifndef WRITERS
#define WRITERS 1
#endif
#ifndef RESOLVES
#define RESOLVES 2
#endif
#define SLOTS (WRITERS + 1)
#define NONE 255

/* B's Protected<Registry>: the mutex (LockBuffer.withLockedPointer) and the bias (struct plexus_bias). */
bit lock;
bit bias_on = 1;
/* plexus_readers[slot].bias == B's bias, per reader thread. */
bit announced[READERS];
/* A withLock body is changing B's registry: a read without the lock must never see it set. */
bit writing;

/* B's registry.slots[K]. */
byte table = 0;
/* A's generation (Epoch, plexus_epoch): B's changes advance it, since A collaborates with B (Epoch.advance). */
byte generation = 0;
/* Strong references to each slot, the registry's included; a freed slot has none. */
byte refs[SLOTS];
bit freed[SLOTS];
/* plexus_hazard_record.marks, one per reader (its resolves do not nest here). */
byte mark[READERS];
/* DependencyContainer.retired, and the lock around it. */
bit retired[SLOTS];
bit retired_lock;

/* A's registry.routes[K] (RememberedRoute: generation and unretained slot). */
byte route_generation = NONE;
byte route_slot = NONE;

/* The newest slot whose registration has returned to its caller. */
byte returned = 0;
byte next_slot = 1;
byte finished = 0;

/* LockBuffer.withLockedPointer: pthread_mutex_lock / unlock. */
inline acquire_lock() { atomic { lock == 0 -> lock = 1 } }
inline release_lock() { lock = 0 }

/* A slot reference released (Swift's release); the last one frees the slot, which no thread may then have marked. */
inline release_slot(s) {
    atomic {
        refs[s]--;
        if
        :: refs[s] == 0 ->
            /* no slot freed while marked */
            for (k : 0 .. READERS - 1) { assert(mark[k] != s) }
            freed[s] = 1
        :: else
        fi
    }
}

/* plexus_bias_read_begin (PlexusSystem.c), called by Protected.withBiasedRead: `ok` says the read may skip the lock. */
inline bias_read_begin(ok) {
    if
    :: bias_on ->
        announced[me] = 1;
#ifndef BUG_NO_RECHECK
        if
        :: bias_on -> ok = 1
        :: else -> announced[me] = 0; ok = 0
        fi
#else
        ok = 1
#endif
    :: else -> ok = 0
    fi
}

/* plexus_bias_read_end. */
inline bias_read_end() { announced[me] = 0 }

/* Protected.withLockKeepingReaders: the lock, and plexus_bias_note_locked_read, which may turn the bias back on. */
inline locked_read_begin() {
    acquire_lock();
    if
    :: !bias_on -> bias_on = 1
    :: true
    fi
}

/* The slot a resolve uses: alive, and not older than a registration that returned before the resolve began. */
inline use(s) {
    assert(!freed[s]);
    /* no stale answer after a registration returns */
    assert(s >= floor)
}

/*
 * DependencyContainer.fastStep(for:into:) (DependencyContainer+Core.swift) at B: the slot under K, read without the
 * lock (or under it, lockedStep), marked by the thread's hazard mark (`mark(_:at:)`, plexus_hazard_mark); then
 * DependencyContainer.carryOut runs the factory and clears the mark (plexus_hazard_clear).
 */
inline fast_step_at_B() {
#ifndef BUG_RETRY_BIASED
    bias_read_begin(ok);
#else
    do
    :: bias_read_begin(ok); if :: ok -> break :: else fi
    od;
#endif
    if
    :: ok ->
        assert(!writing);
#ifdef BUG_LOCK_INSIDE_READ
        acquire_lock();
#endif
        s = table;
#ifndef BUG_MARK_AFTER_READ
        mark[me] = s;
#endif
#ifdef BUG_LOCK_INSIDE_READ
        release_lock();
#endif
        bias_read_end()
    :: else ->
        locked_read_begin();
        s = table;
#ifndef BUG_MARK_AFTER_READ
        mark[me] = s;
#endif
        release_lock()
    fi;
#ifdef BUG_MARK_AFTER_READ
    mark[me] = s;
#endif
    use(s);
    mark[me] = NONE
}

/* Route.slot(_:ifCurrentAt:): the route's slot, only if the generation has not moved since the route was found. */
inline current_route_slot() {
#ifndef BUG_NO_GENERATION_CHECK
    if
    :: generation == rg -> s = rs; mark[me] = s; hit = 1
    :: else -> hit = 0
    fi
#else
    s = rs; mark[me] = s; hit = 1
#endif
}

/*
 * DependencyContainer.fastStep(for:into:) at A, which holds no slot under K: the route A remembered
 * (RoutedSlot.init checks its generation), followed under B's bias or lock by fastStep(through:_:into:), which
 * marks the slot. Without a current route, the general path (DependencyContainer+Lookup.swift): findInCollaborators
 * reads the generation, then B's find retains the slot under B's lock, the route is remembered in A
 * (`remember(_:for:generation:)`), the factory runs, and the slot is released.
 */
inline resolve_from_A() {
    atomic { rg = route_generation; rs = route_slot }
    hit = 0;
    if
#ifndef BUG_NO_GENERATION_CHECK
    :: rg != NONE && rg == generation ->
#else
    :: rg != NONE ->
#endif
        bias_read_begin(ok);
        if
        :: ok -> assert(!writing); current_route_slot(); bias_read_end()
        :: else -> locked_read_begin(); current_route_slot(); release_lock()
        fi;
        if
        :: hit -> use(s); mark[me] = NONE
        :: else
        fi
    :: else
    fi;
    if
    :: !hit ->
#ifndef BUG_GEN_AFTER_SEARCH
        g = generation;
#endif
        acquire_lock();
        s = table;
        refs[s]++;
        release_lock();
#ifdef BUG_GEN_AFTER_SEARCH
        g = generation;
#endif
        atomic { route_generation = g; route_slot = s }
        use(s);
        release_slot(s)
    :: else
    fi
}

proctype Reader(byte me) {
    byte n, s, floor, rg, rs, g, k;
    bit ok, hit;
    for (n : 1 .. RESOLVES) {
        floor = returned;
        if
        :: fast_step_at_B()
        :: resolve_from_A()
        fi;
        /* Dead locals cleared, so that states differing only in them are one. */
        d_step { s = 0; floor = 0; rg = 0; rs = 0; g = 0; ok = 0; hit = 0 }
    }
    finished++
}

/*
 * A registration of K in B (DependencyContainer.insert, Registry+Facade.swift): under B's lock (Protected.withLock,
 * which first revokes the bias: plexus_bias_revoke), Registry.insert advances the generation (B's epoch, and A's as
 * its dependent) and puts a new slot in
 * the old one's place; after the lock, release(_:) → retireMarked (DependencyContainer+Retired.swift) looks
 * for hazard marks under the lock of `retired` (plexus_hazard_collect, one mark at a time), keeps the marked slots and
 * releases the others, with those kept before that nobody marks any more, after that lock.
 */
proctype Writer() {
    byte old, new, k, d;
    byte marked[READERS];
    bit release[SLOTS];
    bit keep;
    acquire_lock();
    if
    :: bias_on ->
        bias_on = 0;
#ifndef BUG_NO_REVOKE_WAIT
        for (k : 0 .. READERS - 1) { announced[k] == 0 }
#endif
    :: else
    fi;
    writing = 1;
#ifndef BUG_NO_GENERATION
    generation++;
#endif
    new = next_slot;
    next_slot++;
    refs[new] = 1;
    old = table;
    table = new;
    writing = 0;
    release_lock();

    atomic { retired_lock == 0 -> retired_lock = 1 }
    for (k : 0 .. READERS - 1) {
#ifndef BUG_NO_HAZARD
        marked[k] = mark[k]
#else
        marked[k] = NONE
#endif
    }
    /* Under the lock of `retired`, which only writers take: one step. */
    atomic {
    for (d : 0 .. SLOTS - 1) {
        if
        :: d == old || retired[d] ->
            keep = 0;
            for (k : 0 .. READERS - 1) {
                if
                :: marked[k] == d -> keep = 1
                :: else
                fi
            }
            if
            :: keep -> retired[d] = 1
            :: else -> retired[d] = 0; release[d] = 1
            fi
        :: else
        fi
    }
    keep = 0
    }
    retired_lock = 0;
    for (d : 0 .. SLOTS - 1) {
        if
        :: release[d] -> release_slot(d)
        :: else
        fi
    }
    /* The registration returns. */
    atomic { if :: new > returned -> returned = new :: else fi }
    finished++
}

init {
    byte i;
    atomic {
        refs[0] = 1;
        for (i : 0 .. READERS - 1) { mark[i] = NONE }
        for (i : 0 .. READERS - 1) { run Reader(i) }
        for (i : 1 .. WRITERS) { run Writer() }
    }
}

/* No livelock: every resolve and registration ends, under weak fairness. */
ltl terminates { <> (finished == READERS + WRITERS) }
