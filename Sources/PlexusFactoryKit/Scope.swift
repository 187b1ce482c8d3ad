import Foundation
import Plexus

/// Where a declaration keeps the instances it makes, and for how long: Factory's scopes, with Factory's names.
///
/// | Scope | An instance is kept |
/// | --- | --- |
/// | ``unique`` | never: every resolve makes a new one |
/// | ``cached`` | until the container, the declaration or the scope is reset (or memory pressure on Apple platforms) |
/// | ``shared`` | weakly: as long as something else holds it |
/// | ``graph`` | for one resolution: everything resolved by one outermost call shares it |
/// | ``singleton`` | once per process, across every container type |
///
/// A custom scope is a ``Cached`` of your own, reset on its own with `manager.reset(scope:)`:
///
/// ```swift
/// extension Scope { static let session = Cached() }
/// var user: Factory<User> { self { User() }.scope(.session) }
/// Container.shared.manager.reset(scope: .session)
/// ```
///
/// A scope keeps nothing itself: a declaration's instances live in the slot Plexus keeps for it (see
/// `FactoryRegistration`), with the Plexus storage the scope names.
public class Scope {
    init() {}

    /// The storage a declaration in this scope has in the engine, and the container that keeps its instances: the
    /// declaring container's own Plexus container, but for ``singleton``, whose instances are the scope's. Every
    /// subclass answers for itself (the initializer is internal, so there are no others); this answer is `.cached`'s
    /// for a custom scope.
    func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
        (.singleton, manager.plexus)
    }

    /// Whether a declaration resolved in `other` keeps its slot when resolved in this scope: the same scope, or any
    /// two singleton scopes (a clone keeps the slots of the scope it was cloned from, in its own container).
    func keepsSlot(of other: Scope) -> Bool {
        self === other || (self is Singleton && other is Singleton)
    }

    /// Keeps one instance per declaration until a reset (Plexus also releases them under memory pressure on
    /// Apple platforms).
    public static let cached = Cached()
    /// Keeps an instance for one outermost resolution: a diamond in the graph gets one instance.
    public static let graph = Graph()
    /// Keeps a weak reference: the instance lives as long as something else holds it.
    public static let shared = Shared()
    /// Makes a new instance on every resolve.
    public static let unique = Unique()
    /// Keeps one instance per process, across every container type; task-local, so a test can run with
    /// `Scope.$singleton.withValue(Scope.singleton.clone()) { … }`.
    @TaskLocal public static var singleton = Singleton()

    /// The scope of ``cached``, and the base of custom scopes.
    public final class Cached: Scope, @unchecked Sendable {
        /// Makes a new scope, whose instances ``ContainerManager/reset(scope:)`` releases on their own.
        override public init() { super.init() }

        override func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
            // `.cached` is what memory pressure releases; a custom scope keeps its instances until reset.
            (self === Scope.cached ? .cached : .singleton, manager.plexus)
        }
    }

    /// The scope of ``graph``: the instance of a Plexus `.shared` definition, one per resolution graph.
    public final class Graph: Scope, @unchecked Sendable {
        override init() { super.init() }

        /// How many declarations are being resolved, one inside another, by the resolve running now (0 outside
        /// one); the graph's instances are dropped when the outermost returns.
        public var depth: Int { ResolutionLock.withLock { Diagnostics.shared.depth } }

        override func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
            (.shared, manager.plexus)
        }
    }

    /// The scope of ``shared``: the instance of a Plexus weak singleton.
    public final class Shared: Scope, @unchecked Sendable {
        /// Makes a new weak scope.
        override public init() { super.init() }

        override func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
            (.weakSingleton, manager.plexus)
        }
    }

    /// The scope of ``singleton``: it keeps its instances in a Plexus container of its own, shared by every container
    /// type, so no container reset releases them.
    public final class Singleton: Scope, @unchecked Sendable {
        @usableFromInline let store: DependencyContainer
        /// The number of each argument a `scopeOnParameters` declaration was resolved with, by declaration. Its
        /// instance's slot is named by that number and belongs to the process, not to a container: every container
        /// must number an argument alike, so the numbers are the scope's. Forgotten, with the clocks, whenever the
        /// declaration's slots are (`forgetArguments(of:)`, `reset()`): the scope keeps no argument past a reset.
        /// Read and written under the resolution lock.
        private var argumentNumbers: [FactoryKey: [AnyHashable: Int]] = [:]
        /// When each slot with a time to live was last resolved, by declaration and slot name: the instance is the
        /// process's, so its clock is too, whichever container reads it. Read and written under the resolution lock.
        private var resolvedAt: [FactoryKey: [String: TimeInterval]] = [:]

        /// Makes an empty singleton scope.
        override public init() {
            store = DependencyContainer(name: "Scope.singleton", autoInjectProperties: false, callsResolvable: false)
            super.init()
        }

        private init(copying other: Singleton) {
            store = other.store.copyingInstances(name: "Scope.singleton")
            (argumentNumbers, resolvedAt) = ResolutionLock.withLock { (other.argumentNumbers, other.resolvedAt) }
            super.init()
        }

        /// The number of `argument` for the declaration `key`, given when first asked. Call under the resolution lock.
        func number(of argument: AnyHashable, for key: FactoryKey) -> Int {
            if let number = argumentNumbers[key]?[argument] { return number }
            let number = argumentNumbers[key, default: [:]].count
            argumentNumbers[key, default: [:]][argument] = number
            return number
        }

        /// Whether the slot `name` of the declaration `key`, last resolved more than `timeToLive` seconds before
        /// `now`, has expired; records `now` as its last resolve. Call under the resolution lock.
        func expires(_ name: String, of key: FactoryKey, timeToLive: TimeInterval, now: TimeInterval) -> Bool {
            defer { resolvedAt[key, default: [:]][name] = now }
            guard let last = resolvedAt[key]?[name] else { return false }
            return last + timeToLive <= now
        }

        /// The numbers given to the arguments of the declaration `key`. Call under the resolution lock.
        func argumentNumbers(of key: FactoryKey) -> [Int] {
            argumentNumbers[key].map { Array($0.values) } ?? []
        }

        /// Forgets the argument numbers and the clocks of the declaration `key`, whose slots were just forgotten or
        /// emptied: the arguments are released, a new one is numbered from 0 again (in a slot that keeps nothing),
        /// and the next resolve starts the time to live afresh. Call under the resolution lock.
        func forgetArguments(of key: FactoryKey) {
            // `removeValue` hands the entries out of the field's access: an argument's `deinit` that resolves a
            // declaration finds no access in progress.
            _ = argumentNumbers.removeValue(forKey: key)
            _ = resolvedAt.removeValue(forKey: key)
        }

        override func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
            (.singleton, store)
        }

        /// Releases every singleton this scope holds, with the arguments of `scopeOnParameters` declarations and the
        /// clocks of `timeToLive` ones.
        public func reset() {
            var forgotten: Any?
            ResolutionLock.withLock {
                store.dropDeclaredInstances()
                forgotten = (argumentNumbers, resolvedAt)
                (argumentNumbers, resolvedAt) = ([:], [:])
            }
            withExtendedLifetime(forgotten) {}
        }

        /// A new scope holding the same instances; what it makes afterwards stays its own.
        public func clone() -> Singleton {
            Singleton(copying: self)
        }
    }

    /// The scope of ``unique``.
    public final class Unique: Scope, @unchecked Sendable {
        /// Makes a scope that keeps nothing.
        override public init() { super.init() }

        override func storage(in manager: ContainerManager) -> (ComponentScope, DependencyContainer) {
            (.unique, manager.plexus)
        }
    }
}
