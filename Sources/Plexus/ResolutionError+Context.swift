extension ResolutionError {
    /// The definition ``DependencyContainer/validate(_:)-2t1ea`` was checking when it threw this error, or `nil` for an
    /// error thrown by `resolve`.
    ///
    /// `validate` throws the error as it happened (so `catch ResolutionError.definitionNotFound(let key)` still
    /// matches, `key` being what was missing); this property says which registration needed it:
    ///
    /// ```swift
    /// do {
    ///     try container.validate()
    /// } catch let error as ResolutionError {
    ///     print(error.validatedDefinition as Any)   // Optional(Presenter)
    /// }
    /// ```
    public var validatedDefinition: DefinitionKey? {
        validationNote?.validating
    }

    /// The diagnostics that say which definition `validate` was checking, and where it is.
    var validationNote: KeyDiagnostics? {
        switch self {
        case .definitionNotFound(let key), .invalidType(_, let key), .requiresAwait(let key),
            .requiresMainActor(let key):
            return key.diagnostics
        case .circularDependency(let keys), .ambiguousDefinitions(_, let keys), .resolutionTooDeep(_, let keys):
            return keys.first?.diagnostics
        case .autoInjectionFailed(_, _, let underlyingError), .autoWiringFailed(_, let underlyingError):
            return (underlyingError as? ResolutionError)?.validationNote
        }
    }

    /// Whether this error only wraps an error thrown by a factory or hook (through auto-injection or auto-wiring):
    /// a domain error, which `validate` does not fail on.
    var isDomainError: Bool {
        switch self {
        case .autoInjectionFailed(_, _, let underlyingError), .autoWiringFailed(_, let underlyingError):
            guard let resolutionError = underlyingError as? ResolutionError else { return true }
            return resolutionError.isDomainError
        case .definitionNotFound, .invalidType, .circularDependency, .ambiguousDefinitions, .resolutionTooDeep,
            .requiresAwait, .requiresMainActor:
            return false
        }
    }

    /// The same error, noting in the key it carries (the innermost one, for a wrapped error) that `validate` was
    /// checking `definition`, and the sentences that say where the definitions involved are registered.
    func validating(_ definition: DefinitionKey, whereRegistered: String? = nil) -> ResolutionError {
        func noted(_ key: DefinitionKey) -> DefinitionKey {
            var key = key
            key.diagnostics = KeyDiagnostics(
                hints: key.diagnostics?.hints ?? [], requiredBy: key.diagnostics?.requiredBy ?? [],
                validating: definition, whereRegistered: whereRegistered)
            return key
        }
        func notedFirst(_ keys: [DefinitionKey]) -> [DefinitionKey] {
            guard let first = keys.first else { return keys }
            return [noted(first)] + keys.dropFirst()
        }
        switch self {
        case .definitionNotFound(let key):
            return .definitionNotFound(key: noted(key))
        case .invalidType(let resolved, let key):
            return .invalidType(resolved: resolved, key: noted(key))
        case .requiresAwait(let key):
            return .requiresAwait(key: noted(key))
        case .requiresMainActor(let key):
            return .requiresMainActor(key: noted(key))
        case .circularDependency(let path):
            return .circularDependency(path: notedFirst(path))
        case .resolutionTooDeep(let depth, let path):
            return .resolutionTooDeep(depth: depth, path: notedFirst(path))
        case .ambiguousDefinitions(let type, let definitions):
            return .ambiguousDefinitions(type: type, definitions: notedFirst(definitions))
        case .autoInjectionFailed(let label, let type, let underlyingError):
            guard let inner = underlyingError as? ResolutionError else { return self }
            return .autoInjectionFailed(
                label: label, type: type,
                underlyingError: inner.validating(definition, whereRegistered: whereRegistered))
        case .autoWiringFailed(let type, let underlyingError):
            guard let inner = underlyingError as? ResolutionError else { return self }
            return .autoWiringFailed(
                type: type, underlyingError: inner.validating(definition, whereRegistered: whereRegistered))
        }
    }
}

/// The description of an error nested in another: a `ResolutionError` without its validation prefix (the outer
/// error shows it once).
func nestedDescription(_ error: any Error) -> String {
    (error as? ResolutionError)?.coreDescription ?? "\(error)"
}

/// `a Service`, `an Api`, `an Optional<Service>`, `a UserStore`.
func withArticle(_ name: String) -> String {
    guard let first = name.first?.lowercased() else { return name }
    // A leading "U" that sounds like "you" (User, Unique, Url) takes "a".
    let soundsLikeYou = ["uni", "use", "usa", "uri", "url", "uti", "ufo"].contains { name.lowercased().hasPrefix($0) }
    return ("aeio".contains(first) || (first == "u" && !soundsLikeYou) ? "an " : "a ") + name
}

/// A cycle path as `A -> B -> A`, each key with its tag and arguments. Runs that repeat are written once with a
/// count (`(Api (tag: "a") -> Api (tag: "b")) ×500 -> Api (tag: "a")`), and a path still longer than a screen
/// keeps its first and last steps around an elision naming how many were left out.
func cycleDescription(_ path: [DefinitionKey]) -> String {
    pathDescription(path.map(\.description), separator: " -> ")
}

/// A "required by" chain (innermost first) as `, required by A, required by B`, shortened as a cycle path is: a
/// chain as deep as the thread's stack allows would otherwise make a message of kilobytes.
func requiredByDescription(_ chain: [DefinitionKey]) -> String {
    ", required by " + pathDescription(chain.map(\.description), separator: ", required by ")
}

/// `names` joined by `separator`, runs that repeat written once with a count, and a list still longer than a screen
/// kept to its first and last steps around an elision naming how many were left out.
private func pathDescription(_ names: [String], separator: String) -> String {
    var parts: [String] = []
    var index = 0
    while index < names.count {
        var best: (period: Int, count: Int) = (1, 1)
        // Periods up to 8 cover the repeating shapes real graphs produce, and keep this linear in the path.
        for period in 1...min(8, max(1, (names.count - index) / 2)) {
            var count = 1
            while index + (count + 1) * period <= names.count,
                names[(index + count * period)..<(index + (count + 1) * period)] == names[index..<(index + period)]
            {
                count += 1
            }
            if count > 1, count * period > best.count * best.period { best = (period, count) }
        }
        let run = names[index..<(index + best.period)].joined(separator: separator)
        if best.count > 2 {
            parts.append((best.period > 1 ? "(\(run))" : run) + " ×\(best.count)")
        } else {
            parts.append(contentsOf: names[index..<(index + best.period * best.count)])
        }
        index += best.period * best.count
    }
    let shown = 12
    guard parts.count > shown else { return parts.joined(separator: separator) }
    let head = parts.prefix(shown / 2).joined(separator: separator)
    let tail = parts.suffix(shown / 2).joined(separator: separator)
    return "\(head)\(separator)… (\(parts.count - shown) more) …\(separator)\(tail)"
}

extension ResolutionError {
    /// `wrap(error)`, unless `error` says the graph is too deep for the thread's stack: that error passes up
    /// unchanged, so that a chain of auto-wired or auto-injected types that runs out of stack reports once, at the
    /// top, naming the chain's start (`catch ResolutionError.resolutionTooDeep` matches it), instead of inside one
    /// wrapper per level.
    static func wrapping(_ error: any Error, in wrap: (any Error) -> ResolutionError) -> any Error {
        if case .resolutionTooDeep = error as? ResolutionError { return error }
        return wrap(error)
    }
}
