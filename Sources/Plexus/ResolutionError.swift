/// The errors Plexus throws when it cannot resolve what was asked for.
///
/// Every ``description`` names the types, tag and argument types involved, in Swift spelling, and says what to
/// do about it. Errors thrown by your own factories and hooks are never wrapped in this type (except inside
/// ``autoInjectionFailed(label:type:underlyingError:)`` and ``autoWiringFailed(type:underlyingError:)``, which
/// say where they happened); they propagate unchanged.
///
/// ```swift
/// do {
///     let api: Api = try container.resolve(tag: "staging")
/// } catch ResolutionError.definitionNotFound(let key) {
///     print(key.type, key.tag as Any)
/// }
/// ```
public enum ResolutionError: Error, CustomStringConvertible, Sendable {
    /// Nothing is registered for `key`, in this container or any of its collaborators.
    case definitionNotFound(key: DefinitionKey)

    /// A property marked for auto-injection could not be resolved.
    /// - `label`: the property name, without the property wrapper's underscore, or `nil` if unknown.
    /// - `type`: the type of the injected property.
    /// - `underlyingError`: why it could not be resolved.
    case autoInjectionFailed(label: String?, type: Any.Type, underlyingError: any Error)

    /// `type` could not be auto-wired from a definition that takes runtime arguments.
    case autoWiringFailed(type: Any.Type, underlyingError: any Error)

    /// Auto-wiring `type` found several definitions with the same, largest number of arguments.
    case ambiguousDefinitions(type: Any.Type, definitions: [DefinitionKey])

    /// The instance made for `key` does not have the requested type (a forwarding registration such as
    /// `implements(Api.self)` on a definition whose instances are not an `Api`). `resolved` is the instance's type.
    case invalidType(resolved: Any.Type?, key: DefinitionKey)

    /// Factories resolve each other in a loop that only constructors could close. `path` starts and ends with
    /// the same key: `A -> B -> A`.
    ///
    /// A factory that resolves its own definition again while it runs is a cycle too, even with other runtime
    /// argument values: keys compare types, not values.
    case circularDependency(path: [DefinitionKey])

    /// The graph nests resolves deeper than the calling thread's stack can hold: `depth` factories, property hooks
    /// and property injections were running, along `path` (the key each one was for, outermost first, ending with
    /// the factory that could not start). Thrown instead of overflowing the stack, which would crash the process.
    ///
    /// Secondary threads have small stacks (512 KB on Apple platforms): resolve a very deep graph on a thread with
    /// a bigger stack, or flatten it (a factory that builds a long chain itself instead of one definition a link).
    case resolutionTooDeep(depth: Int, path: [DefinitionKey])

    /// A synchronous `resolve` reached the definition for `key`, whose factory is `async` or whose singleton an
    /// async resolve is still creating: only `try await container.resolve()` can make it. Thrown instead
    /// of blocking the thread; inside a synchronous factory or hook, resolve the async dependency earlier with
    /// `await` and pass it in, or make the factory `async`. In top-level code (`main.swift`, a script) Swift picks
    /// the synchronous `resolve` even when the call is written with `await`: resolve from an async function there.
    case requiresAwait(key: DefinitionKey)

    /// A synchronous `resolve` off the main actor reached the `@MainActor` factory or property hook of the
    /// definition for `key`. Resolve it on the main actor, or with `try await container.resolve()`, which hops to
    /// the main actor to run it.
    case requiresMainActor(key: DefinitionKey)

    /// What went wrong and how to fix it; after ``DependencyContainer/validate(_:)-2t1ea``, prefixed with the definition
    /// that was being validated.
    public var description: String {
        guard let note = validationNote, let validated = note.validating else { return coreDescription }
        let location = note.whereRegistered.map { " " + $0 } ?? ""
        return "Validation of \(validated) failed: \(coreDescription)\(location)"
    }

    /// The description without the validation prefix, also used for a nested error.
    var coreDescription: String {
        switch self {
        case .definitionNotFound(let key):
            var text = "No definition registered for \(key)"
            if let requiredBy = key.diagnostics?.requiredBy, !requiredBy.isEmpty {
                text += requiredByDescription(requiredBy)
            }
            text += "."
            if let hints = key.diagnostics?.hints, !hints.isEmpty {
                text += " " + hints.joined(separator: " ")
            } else {
                text +=
                    " Register one with `register` (for example `container.register { … as \(typeName(key.type)) }`)"
                text += ", or make a container that has one a collaborator with `collaborate(with:)`."
            }
            return text
        case .autoInjectionFailed(let label, let type, let underlyingError):
            let property = label.map { "property `\($0)`" } ?? "an auto-injected property"
            return "Failed to auto-inject \(property) of type \(typeName(type)): \(nestedDescription(underlyingError))"
        case .autoWiringFailed(let type, var underlyingError):
            // A chain of auto-wired types nests one wrapper per level; the innermost error's "required by" chain
            // already names them, so the levels between are counted, not spelled.
            var nested = 0
            while case .autoWiringFailed(_, let inner)? = underlyingError as? ResolutionError {
                (underlyingError, nested) = (inner, nested + 1)
            }
            let types = nested == 1 ? "type" : "types"
            let through = nested == 0 ? "" : " (through \(nested) auto-wired \(types) below it)"
            return "Failed to auto-wire \(typeName(type))\(through): \(nestedDescription(underlyingError))"
        case .ambiguousDefinitions(let type, let definitions):
            let list = definitions.map { "\($0)" }.joined(separator: "; ")
            return "Ambiguous definitions for \(typeName(type)): \(list). They take the same number of runtime "
                + "arguments, so auto-wiring cannot choose; resolve with explicit `arguments:` or tag them apart."
        case .invalidType(let resolved, let key):
            let actual = resolved.map(typeName) ?? "nil"
            return "Resolved an instance of \(actual) for \(key), which is not \(withArticle(typeName(key.type))). "
                + "Check the `implements` and `type:` of the definition."
        case .circularDependency(let path):
            return "Circular dependency: \(cycleDescription(path)). These factories resolve each other; break the "
                + "cycle by injecting one side in `resolvingProperties` (or `@Injected`) instead of its initializer."
        case .resolutionTooDeep(let depth, let path):
            return "Resolution too deep for this thread's stack: \(depth) nested resolves ("
                + cycleDescription(path) + "). Resolve this graph on a thread with a bigger stack, or build long "
                + "chains in one factory instead of one definition per link. A path that repeats one definition "
                + "through property hooks never ends: a hook that resolves a new instance of its own definition "
                + "(not `.shared` or a singleton) starts the recursion again."
        case .requiresAwait(let key):
            return "\(key) needs `await`: its factory is `async` (or an async resolve is creating its singleton), so a "
                + "synchronous `resolve` cannot make it without blocking the thread. Use "
                + "`try await container.resolve()`. A synchronous factory, hook or auto-wired initializer cannot wait "
                + "for it even inside an async resolve: resolve it with `await` before and pass it in, or make that "
                + "factory `async`. In top-level code (main.swift, a script) Swift always picks the synchronous "
                + "`resolve`, even after `await` (it warns that no 'async' operations occur within the 'await' "
                + "expression): resolve from an async function instead."
        case .requiresMainActor(let key):
            return "\(key) has a `@MainActor` factory or property hook, and this synchronous `resolve` runs off the "
                + "main actor. Resolve it on the main actor, or with `try await container.resolve()`, which runs it there."
        }
    }
}

/// Dip's name for ``ResolutionError``.
public typealias DipError = ResolutionError
