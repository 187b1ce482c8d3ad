import Foundation

/// The modifiers ``Factory`` and ``ParameterFactory`` share: scope, time to live, decorators, contexts,
/// `once`, resets. Each one records its change in the container's manager and returns the declaration.
public protocol FactoryModifying {
    /// The argument type (`Void` for ``Factory``).
    associatedtype P
    /// The type the declaration makes.
    associatedtype T
    /// The declaration's identity and own factory.
    var registration: FactoryRegistration<P, T> { get set }
}

extension FactoryModifying {
    /// Keeps instances in `scope`.
    /// - Parameter scope: Where instances are kept.
    /// - Returns: The declaration.
    @inlinable
    @discardableResult
    public func scope(_ scope: Scope) -> Self {
        // Applied now (a call that discards the result still sets the scope); a scope property named before it
        // is replaced by it.
        var declaration = self
        declaration.registration.pendingScope = .none
        declaration.registration.register(scope: scope)
        return declaration
    }

    // The scope properties name the scope in the value, and its next use applies it (a read whose record says the
    // declaration has it already looks nothing else up): every read of a declaration written with one passes
    // through it.

    /// Keeps one instance until a reset (and, on Apple platforms, memory pressure).
    @inlinable public var cached: Self { naming(.cached) }
    /// Keeps an instance for one outermost resolution.
    @inlinable public var graph: Self { naming(.graph) }
    /// Keeps the instance weakly, while something else holds it.
    @inlinable public var shared: Self { naming(.shared) }
    /// Keeps one instance per process.
    @inlinable public var singleton: Self { naming(.singleton) }
    /// Makes a new instance on every resolve.
    @inlinable public var unique: Self { naming(.unique) }

    /// The declaration with `scope` as the scope its next use applies.
    @inlinable
    func naming(_ scope: ScopeName) -> Self {
        var declaration = self
        declaration.registration.pendingScope = scope
        return declaration
    }

    /// Makes a kept instance expire `seconds` after it was last resolved.
    /// - Parameter seconds: How long an unused instance is kept.
    /// - Returns: The declaration.
    @discardableResult
    public func timeToLive(_ seconds: TimeInterval) -> Self {
        registration.changeOptions { $0.timeToLive = seconds }
        return self
    }

    /// Calls `decorator` with the instance on every resolve, kept or new.
    /// - Parameter decorator: Sees the instance.
    /// - Returns: The declaration.
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T) -> Void) -> Self {
        registration.changeOptions { $0.decorator = Decorator<T> { instance, _ in decorator(instance) } }
        return self
    }

    /// Calls `decorator` with the instance on every resolve, and whether it was just made.
    /// - Parameter decorator: Sees the instance and whether it is new.
    /// - Returns: The declaration.
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T, _ instantiated: Bool) -> Void) -> Self {
        registration.changeOptions { $0.decorator = Decorator(body: decorator) }
        return self
    }

    /// Registers `factory` for each of `contexts`; a context's alternative beats an override. `.test`,
    /// `.preview` and `.debug` alternatives are registered in debug builds only.
    /// - Parameters:
    ///   - contexts: Where the alternative applies.
    ///   - factory: Makes the instance there.
    /// - Returns: The declaration.
    @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping (P) -> T) -> Self {
        for context in contexts {
            switch context {
            case .arg, .args, .device, .simulator:
                registration.register(context: context, factory)
            case .preview, .test, .debug:
                #if DEBUG
                    registration.register(context: context, factory)
                #endif
            }
        }
        return self
    }

    /// Registers an alternative used when the process has `argument` (launch or runtime).
    /// - Parameters:
    ///   - argument: The argument.
    ///   - factory: Makes the instance then.
    /// - Returns: The declaration.
    @discardableResult
    public func onArg(_ argument: String, factory: @escaping (P) -> T) -> Self {
        context(.arg(argument), factory: factory)
    }

    /// Registers an alternative used when the process has any of `args`.
    /// - Parameters:
    ///   - args: The arguments.
    ///   - factory: Makes the instance then.
    /// - Returns: The declaration.
    @discardableResult
    public func onArgs(_ args: [String], factory: @escaping (P) -> T) -> Self {
        context(.args(args), factory: factory)
    }

    /// Registers an alternative for Xcode previews (debug builds only).
    /// - Parameter factory: Makes the instance in a preview.
    /// - Returns: The declaration.
    @discardableResult
    public func onPreview(factory: @escaping (P) -> T) -> Self {
        context(.preview, factory: factory)
    }

    /// Registers an alternative for tests (debug builds only); it beats an override.
    /// - Parameter factory: Makes the instance under tests.
    /// - Returns: The declaration.
    @discardableResult
    public func onTest(factory: @escaping (P) -> T) -> Self {
        context(.test, factory: factory)
    }

    /// Registers an alternative for debug builds.
    /// - Parameter factory: Makes the instance in a debug build.
    /// - Returns: The declaration.
    @discardableResult
    public func onDebug(factory: @escaping (P) -> T) -> Self {
        context(.debug, factory: factory)
    }

    /// Registers an alternative for the simulator.
    /// - Parameter factory: Makes the instance in a simulator.
    /// - Returns: The declaration.
    @discardableResult
    public func onSimulator(factory: @escaping (P) -> T) -> Self {
        context(.simulator, factory: factory)
    }

    /// Registers an alternative for a device.
    /// - Parameter factory: Makes the instance on a device.
    /// - Returns: The declaration.
    @discardableResult
    public func onDevice(factory: @escaping (P) -> T) -> Self {
        context(.device, factory: factory)
    }

    /// Freezes the declaration's options: modifiers applied by later reads of the declaration (and overrides
    /// registered through them) are ignored, except through a declaration that is itself `.once()`.
    /// - Returns: The declaration, able to change the frozen options.
    @discardableResult
    public func once() -> Self {
        // A scope property named before `once()` is applied first, as this value (not frozen) would apply it.
        registration.changeOptions { $0.once = true }
        var copy = self
        copy.registration.once = true
        copy.registration.pendingScope = .none
        return copy
    }

    /// Drops what `options` names from this declaration.
    /// - Parameter options: What to drop; `.all` (override, contexts, instance, modifiers) by default.
    /// - Returns: The declaration.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }
}

extension FactoryModifying where P: Hashable {
    /// Keeps one instance per argument value in the declaration's scope (by default a scoped declaration keeps
    /// its first instance whatever the argument).
    public var scopeOnParameters: Self {
        registration.changeOptions { $0.scopeOnParameters = true }
        return self
    }
}
