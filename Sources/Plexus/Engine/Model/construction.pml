/*
 * The construction protocol: a singleton's claim, waiting for another graph's construction, lending a ready value
 * to break a deadlock, graphs that borrowed finishing together (or failing together), publication and rollback.
 * See README.md beside this file for what each property stands for.
 *
 * The scene: two singletons, A (slot 0) and B (slot 1), whose factories take no dependencies and whose property
 * hooks resolve each other (A's hook resolves B, B's hook resolves A): the hook-closed cycle of
 * Graph/README.md. Three threads, each an outermost resolve (one resolution graph, one session): graph 0 resolves
 * A, graph 1 resolves B, graph 2 resolves THIRD (A unless told), or, with REGISTRAR, registers A's definition again
 * (Registrar, below). A hook may fail (throw) before or after its resolve, at most FAILURES times in all.
 *
 * Abstractions:
 * - The registry lock, and each ConstructionSignal's mutex, guard short sections that take no other lock and run
 *   no user code: each section is one atomic step here. A signal's condition is broadcast on every change of what
 *   a waiter waits for (`lend`, `open`), so `ConstructionSignal.wait` is a blocking guard on that state.
 * - The WaitBoard's condition is modelled as a condition variable (a sleeper misses no broadcast sent after it
 *   released the board's mutex, and sees none sent before), because its wake-ups are the delicate part.
 * - The cycle search under the board's lock (`Records.cycle`, `canLend`) reads the signals it meets in one step. In
 *   the engine each read takes the signal's mutex on its own; a construction may become ready, be lent or end
 *   between two reads (each of those only moves forwards), which the model does not interleave.
 * - Which cycle the depth-first search finds first, and which of its edges it lends, depend on the order of
 *   dictionaries: the model lends any lendable edge on any cycle through the waiter (every choice the engine could
 *   make, and more).
 * - Not modelled: async resolution (`waitAsync`, `holdAcrossAwait`), a registration of another definition or a
 *   removal during a construction (the slot itself replaced), `.shared` and weak singletons, `validate`, factories
 *   that throw (a hook's failure takes the same rollback path), `didResolveDependencies` callbacks.
 *
 * Seeded bugs (each must make spin fail; `.ci/spin` checks that it does):
 *   BUG_CLAIM_IN_TWO_STEPS    Slot.acquire checks `pending` and claims in two lock sections -> made twice
 *   BUG_PUBLISH_BEFORE_HOOKS  a singleton is published when its factory returns          -> half-built answer
 *   BUG_NO_FINISH_TOGETHER    a graph that borrowed publishes without finishTogether       -> half-built answer
 *   BUG_IGNORE_ROLLBACK       finishTogether takes a rolled-back loan for a published one -> half-built answer
 *                             (graphs that borrowed do not fail together)
 *   BUG_DROP_KEEPS_INSTANCE   (with REGISTRAR) Slot.dropCached keeps the published      -> stale answer after a
 *                             instance                                                    registration
 *   BUG_NO_CYCLE_CHECK        prepareWait blocks without looking for a cycle               -> deadlock
 *   BUG_NO_CHANGED            ConstructionSignal.open does not wake finishTogether         -> deadlock
 *   BUG_SPIN_FINISH           finishTogether waits for every loan's publication, polling   -> livelock
 */

#ifndef THIRD
#define THIRD 0
#endif
#ifndef FAILURES
#define FAILURES 1
#endif
#define GRAPHS 3
/* Claims in all (a failure or a registration lets more be made); at most 8: `borrowed` holds a bit per claim. */
#ifndef MAXC
#ifndef REGISTRAR
#define MAXC 4
#else
#define MAXC 6
#endif
#endif
#define NONE 255

/* Acquisition (Slot.swift), and how a wait ends. */
#define CACHED 1
#define CREATE 2
#define WAIT 3
#define LENT 4
#define OPENED 5
#define THROW 6

/* Each Pending (Slot.swift) and its ConstructionSignal (ConstructionSignal.swift), by claim number; the value a claim's
 * factory makes is named by the claim's number too. */
byte claims = 0;
byte c_owner[MAXC];
byte c_slot[MAXC];
bit c_ready[MAXC];        /* valueIsReady */
bit c_open[MAXC];         /* isOpen */
bit c_rolled[MAXC];       /* rollback != nil */
byte c_borrowers[MAXC];   /* borrowers, a bit per graph */
/* The value's hook has run, and which value of the other singleton it holds since. */
bit hook_done[MAXC];
byte holds[MAXC];

/* Slot (Slot.swift): `instance`, `pending`, whether `pendingValue` is set. */
byte instance[2];
byte pending[2];
bit pending_value[2];
/* Constructions of each slot whose factory ran and that are neither rolled back nor dropped (counted: c_made). */
byte made[2];
bit c_made[MAXC];
byte failures = 0;
/* REGISTRAR: the claims made before its registration returned (NONE: not yet). */
byte registered = NONE;

/* WaitBoard.Records: `waits` (kind and, for `.one`, its construction) and `finishing`, and each graph's `borrowed`
 * (ResolutionGraph state). */
#define W_NONE 0
#define W_ONE 1
#define W_FINISHING 2
byte waits[GRAPHS];
byte wait_one[GRAPHS];
byte borrowed[GRAPHS];    /* a bit per claim */
bit board_lock;
bit must_broadcast;       /* Records.mustBroadcast */
bit asleep[GRAPHS];       /* in pthread_cond_wait on the board's condition */
byte finished = 0;

#define BORROWS(g, c) ((c_borrowers[c] >> (g)) & 1)
/* ConstructionSignal.hasReleased */
#define RELEASED(c, g) (c_open[c] || BORROWS(g, c))
/* Records.edges(of:): graph g waits for construction c. */
#define EDGE(g, c) ((waits[g] == W_ONE && wait_one[g] == (c) && !RELEASED(c, g)) \
                    || (waits[g] == W_FINISHING && ((borrowed[g] >> (c)) & 1) && !c_open[c]))
/* Records.canLend */
#define CAN_LEND(g, c) (waits[g] == W_ONE && c_ready[c] && !RELEASED(c, g))

/* WaitBoard.withLock: the board's mutex; on the way out, broadcastIfChanged. */
inline board_enter() { atomic { board_lock == 0 -> board_lock = 1 } }
inline board_leave() {
    atomic {
        if
        :: must_broadcast -> must_broadcast = 0; for (i : 0 .. GRAPHS - 1) { asleep[i] = 0 }
        :: else
        fi;
        board_lock = 0
    }
}
/* Records.wait: broadcastIfChanged, then pthread_cond_wait (releases the mutex, sleeps, takes it again). */
inline board_wait() {
    atomic {
        if
        :: must_broadcast -> must_broadcast = 0; for (i : 0 .. GRAPHS - 1) { asleep[i] = 0 }
        :: else
        fi;
        asleep[me] = 1;
        board_lock = 0
    }
    atomic { asleep[me] == 0 && board_lock == 0 -> board_lock = 1 }
}

/*
 * Records.cycle(from:lending:) and canLend, for graph `me`, under the board's lock: `any_cycle` says whether a cycle
 * of waits runs through `me`; `lendable` holds the lendable edges (waiter * MAXC + construction) of every cycle
 * through `me` that has one.
 */
inline find_cycles() {
    d_step {
        any_cycle = 0;
        lendable = 0;
        for (c1 : 0 .. MAXC - 1) {
            if
            :: c1 < claims && EDGE(me, c1) ->
                g1 = c_owner[c1];
                if
                :: g1 == me ->
                    any_cycle = 1;
                    if :: CAN_LEND(me, c1) -> lendable = lendable | (1 << (me * MAXC + c1)) :: else fi
                :: else ->
                    for (c2 : 0 .. MAXC - 1) {
                        if
                        :: c2 < claims && EDGE(g1, c2) ->
                            g2 = c_owner[c2];
                            if
                            :: g2 == me ->
                                any_cycle = 1;
                                if
                                :: CAN_LEND(me, c1) || CAN_LEND(g1, c2) ->
                                    if :: CAN_LEND(me, c1) -> lendable = lendable | (1 << (me * MAXC + c1)) :: else fi;
                                    if :: CAN_LEND(g1, c2) -> lendable = lendable | (1 << (g1 * MAXC + c2)) :: else fi
                                :: else
                                fi
                            :: g2 != me && g2 != g1 ->
                                for (c3 : 0 .. MAXC - 1) {
                                    if
                                    :: c3 < claims && EDGE(g2, c3) && c_owner[c3] == me ->
                                        any_cycle = 1;
                                        if
                                        :: CAN_LEND(me, c1) || CAN_LEND(g1, c2) || CAN_LEND(g2, c3) ->
                                            if :: CAN_LEND(me, c1) -> lendable = lendable | (1 << (me * MAXC + c1)) :: else fi;
                                            if :: CAN_LEND(g1, c2) -> lendable = lendable | (1 << (g1 * MAXC + c2)) :: else fi;
                                            if :: CAN_LEND(g2, c3) -> lendable = lendable | (1 << (g2 * MAXC + c3)) :: else fi
                                        :: else
                                        fi
                                    :: else
                                    fi
                                }
                            :: else
                            fi
                        :: else
                        fi
                    }
                fi
            :: else
            fi
        }
        c1 = 0; c2 = 0; c3 = 0; g1 = 0; g2 = 0
    }
}

/* Picks one edge of `lendable` (any), and lends it: ConstructionSignal.lend(to:). */
inline lend_one() {
    atomic {
        e = 0;
        do
        :: (lendable >> e) & 1 -> break
        :: (lendable >> (e + 1)) != 0 -> e++
        od;
        c_borrowers[e % MAXC] = c_borrowers[e % MAXC] | (1 << (e / MAXC))
    }
}

/* A new claim of slot s for this graph (Slot.acquire's last case). */
inline claim(s) {
    assert(claims < MAXC);
    c = claims; claims++;
    c_owner[c] = me; c_slot[c] = s; holds[c] = NONE;
    pending[s] = c
}

/* Slot.acquire (and DependencyContainer.claimSingleton on the fast path), under the registry lock. */
inline acquire(s) {
    atomic {
        if
        :: instance[s] != NONE -> kind = CACHED; c = instance[s]
        :: instance[s] == NONE && pending[s] != NONE && c_owner[pending[s]] == me && pending_value[s] ->
            /* graph.usesUnfinished: the graph's own value, before it is published */
            kind = CACHED; c = pending[s];
            for (j : 0 .. 2) {
                if
                :: j < commits && commit[j] == c && j < earliest_unfinished -> earliest_unfinished = j
                :: else
                fi
            }
            j = 0
        :: instance[s] == NONE && pending[s] != NONE && !(c_owner[pending[s]] == me && pending_value[s]) ->
            kind = WAIT; c = pending[s]
        :: instance[s] == NONE && pending[s] == NONE ->
            kind = CREATE;
#ifndef BUG_CLAIM_IN_TWO_STEPS
            claim(s)
#else
            skip
#endif
        fi
    }
#ifdef BUG_CLAIM_IN_TWO_STEPS
    if
    :: kind == CREATE -> atomic { claim(s) }
    :: else
    fi
#endif
}

/*
 * ResolutionGraph.prepareWait(for:requested:slot:) (Graph/ResolutionGraph+Waiting.swift): records the wait on the
 * board, lends values on cycles through this graph until none can be broken (returning LENT when one was lent to
 * this graph), throws (THROW) on a cycle of constructors only; WAIT: block.
 */
inline prepare_wait() {
    if
    :: c_owner[c] == me -> outcome = THROW   /* asks for its own result inside its factory */
    :: else ->
        board_enter();
        waits[me] = W_ONE; wait_one[me] = c;
        outcome = WAIT;
#ifndef BUG_NO_CYCLE_CHECK
        do
        :: find_cycles();
           if
           :: lendable != 0 ->
               lend_one();
               if
               :: e / MAXC == me -> waits[me] = W_NONE; outcome = LENT; break
               :: else
               fi
           :: else ->
               if
               :: any_cycle -> waits[me] = W_NONE; outcome = THROW
               :: else
               fi;
               break
           fi
        od;
#endif
        board_leave()
    fi
}

/*
 * Slot.reuse's wait (Slot+Produce.swift) → ResolutionGraph.wait(for:requested:slot:): prepareWait, then
 * ConstructionSignal.wait(as:) and endWait; a lent value is borrowed (`borrow`) if it is still the slot's pending
 * value, else the slot is asked again (Slot.acquire).
 */
inline get(s) {
    acquire(s);
    do
    :: kind == WAIT ->
        prepare_wait();
        if
        :: outcome == WAIT ->
            (RELEASED(c, me));
            atomic { outcome = (!c_open[c] && BORROWS(me, c) -> LENT : OPENED) }
            board_enter(); waits[me] = W_NONE; board_leave()
        :: else
        fi;
        if
        :: outcome == THROW -> kind = THROW; break
        :: outcome == LENT && pending[s] == c && pending_value[s] ->
            borrowed[me] = borrowed[me] | (1 << c); kind = CACHED; break
        :: else -> acquire(s)
        fi
    :: kind != WAIT -> break
    od;
    outcome = 0
}

/* Whether value v is whole: its hook ran, it was not rolled back, and so for what it holds (a cycle of two). */
inline check_whole(v) {
    w = v;
    for (k : 1 .. 3) {
        if
        :: w != NONE ->
            assert(hook_done[w] && !c_rolled[w]);   /* no half-built graph */
            w = holds[w]
        :: else
        fi
    }
    w = 0
}

/* ConstructionSignal.open(rollback:): ends the construction; if it was lent, wakes finishTogether
 * (ResolutionGraph.constructionsChanged). */
inline open(cc, rolled) {
    atomic { c_rolled[cc] = rolled; c_open[cc] = 1; lent = (c_borrowers[cc] != 0) }
#ifndef BUG_NO_CHANGED
    if
    :: lent -> board_enter(); must_broadcast = 1; board_leave()
    :: else
    fi;
#endif
    lent = 0
}

/* ResolutionGraph.end(commitsFrom:publishing:) for one commit: Slot.commit under the registry lock, then open. */
inline publish(index) {
    cc = commit[index];
    atomic {
#ifndef BUG_PUBLISH_BEFORE_HOOKS
        check_whole(cc);
#endif
        if
        :: pending[c_slot[cc]] == cc ->
            instance[c_slot[cc]] = cc; pending[c_slot[cc]] = NONE; pending_value[c_slot[cc]] = 0
        :: else
        fi
    }
    open(cc, 0);
    cc = 0
}

/* The same, rolling back: Slot.rollBack, then open(rollback:). */
inline roll_back(index) {
    cc = commit[index];
    atomic {
        if :: c_made[cc] -> made[c_slot[cc]]--; c_made[cc] = 0 :: else fi;
        if
        :: pending[c_slot[cc]] == cc -> pending[c_slot[cc]] = NONE; pending_value[c_slot[cc]] = 0
        :: else
        fi
    }
    open(cc, 1);
    cc = 0
}

/*
 * The factory of a claimed singleton, then Slot.store: the value becomes the slot's pendingValue, the signal says
 * it is ready (markValueReady), the claim is the scope's commit (willCommit) and the value's hook is queued.
 */
inline construct(s) {
    /* A singleton made once: counted while the construction is the slot's (a registration may have dropped it). */
    atomic {
        if
        :: pending[s] == c -> made[s]++; c_made[c] = 1; assert(made[s] == 1); assert(instance[s] == NONE)
        :: else
        fi
    }
    atomic { if :: pending[s] == c -> pending_value[s] = 1 :: else fi }
    c_ready[c] = 1;
    commit[commits] = c; commits++;
#ifdef BUG_PUBLISH_BEFORE_HOOKS
    publish(commits - 1);
#endif
}

/* abandonScope's end(commitsFrom:rollingBackAfter:): rolls back the commits from `from` on, in order. */
inline roll_back_range(from) {
    for (j : from .. 2) {
        if
        :: j < commits -> roll_back(j)
        :: else
        fi
    }
    j = 0
}

/* A property hook that may throw (user code). */
inline hook_may_fail() {
    if
    :: atomic { failures < FAILURES -> failures++ }; goto abandon
    :: true
    fi
}

/*
 * ResolutionGraph.finishTogether (Graph/ResolutionGraph+Waiting.swift), called by mayPublish at the outermost scope
 * of a graph that borrowed: blocks until every construction it borrowed is published, or every graph it depends on
 * through loans waits here too (Records.finishesTogether); throws when one is rolled back.
 */
inline finish_together() {
    board_enter();
    finishing_me = 1;
    do
    :: d_step {
           failed = 0; underway = 0;
           for (k : 0 .. MAXC - 1) {
               if
               :: (borrowed[me] >> k) & 1 ->
                   if
                   :: !c_open[k] -> underway = 1
#ifndef BUG_IGNORE_ROLLBACK
                   :: c_open[k] && c_rolled[k] -> failed = 1
#endif
                   :: else
                   fi
               :: else
               fi
           }
           k = 0
       }
       if
       :: failed || !underway -> break
       :: else
       fi;
       waits[me] = W_FINISHING;
#ifndef BUG_SPIN_FINISH
       /* Records.finishesTogether */
       d_step {
           together = 1; seen = (1 << me); next = (1 << me);
           do
           :: next == 0 -> break
           :: else ->
               g = 0;
               do :: (next >> g) & 1 -> break :: else -> g++ od;
               next = next & ~(1 << g);
               if
               :: waits[g] != W_FINISHING -> together = 0; break
               :: else
               fi;
               for (k : 0 .. MAXC - 1) {
                   if
                   :: ((borrowed[g] >> k) & 1) && !c_open[k] && !((seen >> c_owner[k]) & 1) ->
                       seen = seen | (1 << c_owner[k]); next = next | (1 << c_owner[k])
#ifndef BUG_IGNORE_ROLLBACK
                   :: ((borrowed[g] >> k) & 1) && c_open[k] && c_rolled[k] -> together = 0
#endif
                   :: else
                   fi
               }
               if :: !together -> break :: else fi
           od;
           g = 0; k = 0; seen = 0; next = 0
       }
       if
       :: together -> break
       :: else
       fi;
       do
       :: find_cycles();
          if
          :: lendable != 0 -> lend_one()
          :: else -> break
          fi
       od;
       must_broadcast = 1;
       board_wait()
#else
       board_leave();
       board_enter()
#endif
    od;
    waits[me] = W_NONE; finishing_me = 0; must_broadcast = 1;
    board_leave();
    if
    :: failed -> goto abandon
    :: else
    fi
}

/*
 * ResolutionGraph.closeScope's decision to publish (mayPublish, Graph/ResolutionGraph+Scopes.swift) at `depth` for
 * the commits from `mark`: not while a singleton of an enclosing scope it may hold is unfinished
 * (usesUnfinished), nor before the outermost scope in a graph that borrowed, which first finishes together.
 */
inline close_scope(depth, mark) {
    if
    :: mark > earliest_unfinished -> skip
    :: else ->
        earliest_unfinished = NONE;
        if
        :: borrowed[me] == 0 || depth == 1 ->
#ifndef BUG_NO_FINISH_TOGETHER
            if
            :: borrowed[me] != 0 -> finish_together()
            :: else
            fi;
#endif
            for (j : mark .. 2) {
                if
                :: j < commits -> publish(j)
                :: else
                fi
            }
            commits = mark
        :: else
        fi
    fi
}

/*
 * One outermost resolve of singleton x on graph `me` (DependencyContainer.resolveInGraph → find → Slot.produce,
 * or the fast path's claimSingleton → constructSingleton; both claim with Slot.acquire), unrolled: its factory, the
 * outermost scope's hook (which resolves y in a full scope of its own, whose hook resolves x again), publication,
 * return. On a failure (`abandon`): abandonScope at each level rolls back its commits, innermost first.
 */
proctype Graph(byte me; byte x) {
    byte y = 1 - x;
    byte i, kind, c, outcome, cc, v, v2, w, e, k, j, g, g1, g2, c1, c2, c3, seen, next;
    byte commit[3];
    byte commits = 0;
    byte earliest_unfinished = NONE;
    byte mark2 = NONE;
    byte mark3 = NONE;
    byte v3;
    int lendable;
    bit any_cycle, lent, failed, underway, together, finishing_me;

    /* A resolve that starts after the registration returned never gets a value of A made before it. */
#ifdef REGISTRAR
    bit after_registration;
    after_registration = (registered != NONE);
#endif

    /* depth 1: resolve x */
    get(x);
    if :: kind == THROW -> goto abandon :: else fi;
    v = c;
    if
    :: kind == CREATE ->
        construct(x);
        /* closeScope, outermost (full): the queued hook of v, which resolves y (depth 2, a full scope) */
        hook_may_fail();
        mark2 = commits;
        get(y);
        if :: kind == THROW -> goto abandon :: else fi;
        v2 = c;
        if
        :: kind == CREATE ->
            construct(y);
            /* depth 2's hook: resolves x (depth 3): the graph's own unfinished value */
            hook_may_fail();
            get(x);
            if :: kind == THROW -> goto abandon :: else fi;
            v3 = c;
            if
            :: kind == CREATE ->
                /* Only after a registration dropped x's construction (REGISTRAR): x is made again, in depth 3's
                 * full scope, and its hook resolves y (depth 4): the graph's own unfinished value. */
                mark3 = commits;
                construct(x);
                get(y);
                if :: kind == THROW -> goto abandon :: else fi;
                holds[v3] = c;
                hook_done[v3] = 1;
                close_scope(3, mark3);
                mark3 = NONE
            :: else
            fi;
            hook_may_fail();
            holds[v2] = v3;
            hook_done[v2] = 1;
            v3 = 0
        :: else
        fi;
        close_scope(2, mark2);
        mark2 = NONE;
        hook_may_fail();
        holds[v] = v2;
        hook_done[v] = 1;
        v2 = 0
    :: else
    fi;
    close_scope(1, 0);
    /* The resolve returns v. */
    check_whole(v);
#ifdef REGISTRAR
    assert(!after_registration || x != 0 || v >= registered);   /* no stale answer after a registration */
#endif
    goto done;

abandon:
    /* abandonScope at each open scope, innermost first; each rolls back its own commits in order. */
    if
    :: mark3 != NONE -> roll_back_range(mark3); commits = mark3
    :: else
    fi;
    if
    :: mark2 != NONE -> roll_back_range(mark2); commits = mark2
    :: else
    fi;
    roll_back_range(0);
    commits = 0;
    /* The graph that borrowed drops its loans (popScope). */
    borrowed[me] = 0;

done:
    finished++
}

/*
 * With REGISTRAR, the third thread registers A's definition again while the others resolve: Registry.insert under the
 * registry lock finds the same definition and calls Slot.dropCached, which drops the published instance and the
 * construction in progress (its graph goes on, but can no longer publish it; graphs waiting for it wake when it
 * ends). The dropped construction no longer counts as the slot's: the next resolve may make another.
 */
proctype Registrar() {
    atomic {
        if
        :: pending[0] != NONE && c_made[pending[0]] -> made[0]--; c_made[pending[0]] = 0
        :: else
        fi;
#ifndef BUG_DROP_KEEPS_INSTANCE
        if
        :: instance[0] != NONE && c_made[instance[0]] -> made[0]--; c_made[instance[0]] = 0
        :: else
        fi;
#endif
#ifndef BUG_DROP_KEEPS_INSTANCE
        instance[0] = NONE;
#endif
        pending[0] = NONE; pending_value[0] = 0;
        /* Every value of A made so far was claimed before this registration. */
        registered = claims
    }
    finished++
}

init {
    byte i;
    atomic {
        instance[0] = NONE; instance[1] = NONE;
        pending[0] = NONE; pending[1] = NONE;
        run Graph(0, 0);
        run Graph(1, 1);
#ifndef REGISTRAR
        run Graph(2, THIRD)
#else
        run Registrar()
#endif
    }
}

/* No livelock: every resolve returns or throws, under weak fairness. */
ltl terminates { <> (finished == GRAPHS) }
