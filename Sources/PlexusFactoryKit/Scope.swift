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
/// Every cache is read and changed under the module's process-wide resolution lock (why the scopes are `Sendable`: see
/// `Sendability.swift`).
public class Scope {
    init() {}

    /// Returns the kept instance for `key`, or makes, keeps and returns one; the flag says whether it was made.
    func resolve<T>(in cache: ScopeCache, key: FactoryKey, timeToLive: TimeInterval?, make: () -> T) -> (T, Bool) {
        if let entry = cache.entries[key], let kept: T = unbox(entry) {
            guard let timeToLive else { return (kept, false) }
            // A time to live counts from the last resolve: a kept instance in use stays.
            let now = Date.timeIntervalSinceReferenceDate
            if entry.timestamp + timeToLive > now {
                cache.entries[key]?.timestamp = now
                return (kept, false)
            }
        }
        let instance = make()
        if let entry = box(instance) { cache.entries[key] = entry }
        return (instance, true)
    }

    /// Turns a cached entry back into an instance of `T`, or nil when there is none (or it is gone).
    func unbox<T>(_ entry: ScopeCache.Entry) -> T? {
        guard let strong = entry.strong else { return nil }
        return strong as? T
    }

    /// The entry that keeps `instance`, or nil when it is not kept (a nil optional is never kept).
    func box<T>(_ instance: T) -> ScopeCache.Entry? {
        if let optional = instance as? any OptionalType, optional.wrappedValue == nil { return nil }
        return ScopeCache.Entry(scope: ObjectIdentifier(self), strong: instance)
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
    }

    /// The scope of ``graph``.
    public final class Graph: Scope, @unchecked Sendable {
        let cache = ScopeCache()
        /// How many resolutions are running on the resolving thread; the graph's instances are dropped at zero.
        public private(set) var depth = 0

        override init() { super.init() }

        override func resolve<T>(in cache: ScopeCache, key: FactoryKey, timeToLive: TimeInterval?, make: () -> T)
            -> (T, Bool)
        {
            super.resolve(in: self.cache, key: key, timeToLive: timeToLive, make: make)
        }

        func enter() { depth += 1 }

        func leave() {
            depth -= 1
            if depth == 0 { cache.entries.removeAll(keepingCapacity: true) }
        }
    }

    /// The scope of ``shared``.
    public final class Shared: Scope, @unchecked Sendable {
        /// Makes a new weak scope.
        override public init() { super.init() }

        override func unbox<T>(_ entry: ScopeCache.Entry) -> T? {
            // Unwrapped first: a released reference cast to an optional `T` would read as a kept nil.
            guard let object = entry.weak else { return nil }
            return object as? T
        }

        override func box<T>(_ instance: T) -> ScopeCache.Entry? {
            let object: AnyObject
            if let optional = instance as? any OptionalType {
                guard let wrapped = optional.wrappedValue, type(of: wrapped) is AnyObject.Type else { return nil }
                object = wrapped as AnyObject
            } else {
                guard type(of: instance as Any) is AnyObject.Type else { return nil }
                object = instance as AnyObject
            }
            return ScopeCache.Entry(scope: ObjectIdentifier(self), weak: object)
        }
    }

    /// The scope of ``singleton``: it holds its instances itself, so no container reset releases them.
    public final class Singleton: Scope, @unchecked Sendable {
        let cache: ScopeCache

        /// Makes an empty singleton scope.
        override public init() {
            cache = ScopeCache()
            super.init()
        }

        private init(copying other: Singleton) {
            cache = ResolutionLock.withLock { other.cache.copy() }
            super.init()
        }

        override func resolve<T>(in cache: ScopeCache, key: FactoryKey, timeToLive: TimeInterval?, make: () -> T)
            -> (T, Bool)
        {
            super.resolve(in: self.cache, key: key, timeToLive: timeToLive, make: make)
        }

        /// Releases every singleton this scope holds.
        public func reset() {
            ResolutionLock.withLock { cache.entries.removeAll() }
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

        override func resolve<T>(in cache: ScopeCache, key: FactoryKey, timeToLive: TimeInterval?, make: () -> T)
            -> (T, Bool)
        {
            (make(), true)
        }
    }
}

/// The instances a scope keeps, by key. Read and changed only under the resolution lock.
final class ScopeCache {
    struct Entry {
        let scope: ObjectIdentifier
        var timestamp = Date.timeIntervalSinceReferenceDate
        var strong: Any?
        weak var weak: AnyObject?

        init(scope: ObjectIdentifier, strong: Any) {
            self.scope = scope
            self.strong = strong
        }

        init(scope: ObjectIdentifier, weak: AnyObject) {
            self.scope = scope
            self.weak = weak
        }
    }

    var entries: [FactoryKey: Entry] = [:]

    init(entries: [FactoryKey: Entry] = [:]) { self.entries = entries }

    func copy() -> ScopeCache { ScopeCache(entries: entries) }

    /// Drops the instances kept for a declaration, whatever argument they were kept for.
    func remove(declaration key: FactoryKey) {
        entries = entries.filter { $0.key.declaration != key }
    }

    /// Drops the instances kept by one scope.
    func remove(scope: Scope) {
        let id = ObjectIdentifier(scope)
        entries = entries.filter { $0.value.scope != id }
    }
}
