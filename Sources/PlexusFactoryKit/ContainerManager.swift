import Foundation
import Plexus

/// What a container knows about its declarations: overrides, scopes, contexts and decorators, the instances its
/// scopes keep, and the switches that change how it resolves.
///
/// Every field is read and changed under the module's process-wide resolution lock (why it is `Sendable`: see
/// `Sendability.swift`).
///
/// ```swift
/// Container.shared.manager.push()                  // keep today's registrations
/// Container.shared.analytics.register { MockAnalytics() }
/// Container.shared.manager.pop()                   // back to them
/// ```
public final class ContainerManager: @unchecked Sendable {
    /// What one declaration has registered beyond its own factory.
    struct Options {
        var registration: Any?
        var scope: Scope?
        var scopeOnParameters = false
        var timeToLive: TimeInterval?
        var argumentContexts: [String: Any]?
        var contexts: [String: Any]?
        var decorator: Any?
        var once = false
    }

    /// Container-wide settings a full reset restores.
    struct State {
        var autoRegistrationNeeded = true
        var decorator: ((Any) -> Void)?
        var defaultScope: Scope?
        var promiseTriggersError = FactoryContext.current.isDebug && !FactoryContext.current.isPreview
    }

    var options: [FactoryKey: Options] = [:]
    let cache = ScopeCache()
    var state = State()
    var isAutoRegistering = false
    private var saved: [(options: [FactoryKey: Options], cache: [FactoryKey: ScopeCache.Entry], state: State)] = []

    /// The Plexus container behind this one: collaborate it with Dip-style module containers
    /// (`manager.plexus.collaborate(with: payments)`), and a `promised(key:file:line:)`
    /// declaration or a ``Resolving`` lookup with no registration of its own is answered from there.
    public let plexus: DependencyContainer

    /// Makes an empty manager.
    public init() {
        plexus = DependencyContainer(name: "PlexusFactoryKit")
    }

    /// The scope of every declaration that names none; nil (unique) by default.
    public var defaultScope: Scope? {
        get { ResolutionLock.withLock { state.defaultScope } }
        set { ResolutionLock.withLock { state.defaultScope = newValue } }
    }

    /// Whether a resolution that comes back to a declaration already being resolved stops the process with the
    /// path it took; process-wide, on by default in every build.
    public var circularDependencyTesting: Bool {
        get { ResolutionLock.withLock { Diagnostics.shared.checksCycles } }
        set { ResolutionLock.withLock { Diagnostics.shared.checksCycles = newValue } }
    }

    /// Whether resolving a `promised(key:file:line:)` declaration nothing was registered for
    /// stops the process (true by default in debug builds outside previews) instead of returning nil.
    public var promiseTriggersError: Bool {
        get { ResolutionLock.withLock { state.promiseTriggersError } }
        set { ResolutionLock.withLock { state.promiseTriggersError = newValue } }
    }

    /// Whether every outermost resolution logs the tree it resolved, one line per declaration; process-wide.
    public var trace: Bool {
        get { ResolutionLock.withLock { Diagnostics.shared.isTracing } }
        set { ResolutionLock.withLock { Diagnostics.shared.isTracing = newValue } }
    }

    /// Where ``trace`` lines and cycle reports go (standard output by default); process-wide.
    public var logger: (String) -> Void {
        get { ResolutionLock.withLock { Diagnostics.shared.logger } }
        set { ResolutionLock.withLock { Diagnostics.shared.logger = newValue } }
    }

    /// Whether the container holds nothing of the kind `options` names: `.registration` overrides, `.context`
    /// alternatives, `.scope` kept instances (singletons are the scope's own), `.all` of them; `.none` is always
    /// empty.
    /// - Parameter options: The kind of state to look at.
    /// - Returns: True when there is none.
    public func isEmpty(_ options: FactoryResetOptions) -> Bool {
        ResolutionLock.withLock {
            let noRegistrations = self.options.values.allSatisfy { $0.registration == nil }
            let noContexts = self.options.values.allSatisfy { $0.contexts == nil && $0.argumentContexts == nil }
            switch options {
            case .all: return cache.entries.isEmpty && noRegistrations && noContexts
            case .context: return noContexts
            case .none: return true
            case .registration: return noRegistrations
            case .scope: return cache.entries.isEmpty
            }
        }
    }

    /// Drops what `options` names from every declaration: `.all` also restores the default scope, the
    /// decorator and the promise switch, and runs ``AutoRegistering/autoRegister()`` again on next use.
    /// Singletons are kept (reset them with `Scope.singleton.reset()`).
    /// - Parameter options: What to drop; `.all` by default.
    public func reset(options: FactoryResetOptions = .all) {
        ResolutionLock.withLock {
            switch options {
            case .all:
                self.options.removeAll(keepingCapacity: true)
                cache.entries.removeAll(keepingCapacity: true)
                state = State()
            case .context:
                for key in self.options.keys {
                    self.options[key]?.contexts = nil
                    self.options[key]?.argumentContexts = nil
                }
            case .none:
                break
            case .registration:
                for key in self.options.keys { self.options[key]?.registration = nil }
                state.autoRegistrationNeeded = true
            case .scope:
                cache.entries.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Releases the instances one scope keeps in this container (a custom scope, `.cached`, `.shared`).
    /// `.singleton` is not the container's: use `Scope.singleton.reset()`.
    /// - Parameter scope: The scope whose instances to release.
    public func reset(scope: Scope) {
        ResolutionLock.withLock {
            if scope is Scope.Singleton {
                Diagnostics.shared.logger(
                    "PlexusFactoryKit: singletons are not the container's; use Scope.singleton.reset()")
            } else {
                cache.remove(scope: scope)
            }
        }
    }

    /// Saves the registrations, kept instances and settings, for ``pop()`` to restore.
    public func push() {
        ResolutionLock.withLock { saved.append((options, cache.entries, state)) }
    }

    /// Restores what the last ``push()`` saved; does nothing when nothing is saved.
    public func pop() {
        ResolutionLock.withLock {
            guard let last = saved.popLast() else { return }
            options = last.options
            cache.entries = last.cache
            state = last.state
        }
    }

    /// The cache `scope` keeps its instances in: its own for `.singleton` and `.graph`, this container's for
    /// the others. Call under the resolution lock.
    func cache(for scope: Scope?) -> ScopeCache {
        switch scope {
        case let singleton as Scope.Singleton: singleton.cache
        case let graph as Scope.Graph: graph.cache
        default: cache
        }
    }
}

/// What a reset drops.
public enum FactoryResetOptions: Sendable {
    /// The override, the contexts, the kept instance and the modifiers.
    case all
    /// Nothing.
    case none
    /// The override registered with `register { }`.
    case registration
    /// The context alternatives (`onTest`, `onArg`, …).
    case context
    /// The kept instance.
    case scope
}
