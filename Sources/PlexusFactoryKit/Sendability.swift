// Why the Factory-style types may cross threads although they hold closures and values that are not `Sendable`:
// every closure they hold (factories, overrides, context alternatives, decorators, the references of the property
// wrappers) runs only while `ResolutionLock` is held (a declaration's slot in Plexus calls its factory only from a
// resolve that holds it, see `FactoryHandOver`), and every mutable field they reach (a manager's declarations,
// the lazy wrappers' storage, the diagnostics) is read and written only there. The lock is one process-wide
// recursive lock, so no two threads ever touch that state or run those closures at the same time. What crosses
// threads is the instance a declaration makes, and these conformances require it (and the argument of a
// `ParameterFactory`) to be `Sendable`, as Factory's do.
//
// The hottest of those fields (a manager's table and settings, a declaration's scope, slot and decorator, the
// diagnostics' stack and pending factory) are `@exclusivity(unchecked)`: besides the lock, no access to them spans a
// call to user code (a factory, a decorator, a `deinit`), so two accesses never overlap even on the thread that
// holds the recursive lock. Each is copied out or written in one step, and what a change drops is released only
// after the access: a table's entries are moved out (`removeValue`, or the whole table kept in a local) and released
// after the lock, since their `deinit`s may resolve declarations of the same container
// (`ReleaseAndRecursionTests`). The run-time check cost a third of a kept instance's resolve.
//
// Two reads take no lock, and run no user closure: a scope modifier whose scope the declaration has already, and the
// instance its scope keeps when nothing else has to see the read (no decorator, context alternative, time to live,
// per-argument scope or trace). Both rest on a `DeclarationRecord`: an immutable snapshot of the declaration's
// options, published under the lock in a table of Plexus's that readers probe under its reader bias (a writer waits
// for them, and a record is released only after). The modifier copies the word published beside the record (its
// scope's identity and `once`), the kept read retains the record. Every field the snapshot depends on forgets the
// records when it changes, under the lock (`didSet`), so a record a reader finds is the state a read under the lock
// would see; the kept instance itself is read from Plexus's slot, through the slot's entry the record keeps alive,
// under that container's own reader bias, which publishes it safely. The same answers are published, under the lock,
// in the index of declarations of the container that keeps the instance, which a read probes first under that
// container's reader bias: an item answers only while the records' generation is the one it was published at, so it
// is as current as a record. A resolve that has to make an instance takes the lock as before.

extension FactoryRegistration: @unchecked Sendable where P: Sendable, T: Sendable {}
extension Factory: @unchecked Sendable where T: Sendable {}
extension ParameterFactory: @unchecked Sendable where P: Sendable, T: Sendable {}
extension Injected: @unchecked Sendable where T: Sendable {}
extension LazyInjected: @unchecked Sendable where T: Sendable {}
extension WeakLazyInjected: @unchecked Sendable where T: Sendable {}
extension DynamicInjected: @unchecked Sendable where T: Sendable {}
extension InjectedType: @unchecked Sendable where T: Sendable {}
extension LazyStorage: @unchecked Sendable where T: Sendable {}
extension WeakStorage: @unchecked Sendable {}
