internal import PlexusCore

extension DependencyContainer {
    /// Creates the ``ComponentScope/eagerSingleton`` instances, in registration order.
    ///
    /// Calling it again creates those registered since (the others are already made). If a factory throws, the
    /// error propagates and the container is left not bootstrapped, so it can bootstrap again once fixed. An eager
    /// singleton whose factory takes arguments is auto-wired.
    /// - Throws: The first error a factory, hook or resolution throws.
    public func bootstrap() throws {
        let eager = beginBootstrap()
        var created = Set<ObjectIdentifier>()
        for (key, slot) in eager where created.insert(ObjectIdentifier(slot)).inserted {
            if slot.blueprint.argumentCount == 0 {
                try produce(slot, key: key, arguments: .pointer(zeroSizedArguments))
            } else {
                try produce(slot, key: key, arguments: .autoWire)
            }
        }
        endBootstrap()
        log(.verbose, "Bootstrapped \(eager.count) eager singletons")
    }

    /// Whether ``bootstrap()-y393`` has completed since the container was created or reset.
    public var isBootstrapped: Bool {
        hasBootstrapped()
    }

    /// Resolves every definition, in registration order, to check that the graph can be built; then the typed
    /// accessors' declared defaults that this container has used and that no override replaces.
    ///
    /// Each definition is resolved under its own key and under every key it ``Definition/implements(_:tag:)``, so a
    /// forwarding to a type its instances are not fails here, not at the first real resolve. A definition that takes
    /// arguments is resolved with each of `arguments` that casts to its argument types (pass a tuple for several
    /// arguments; a subclass instance or a labelled tuple casts too); if none does, its arguments are auto-wired,
    /// as ``bootstrap()-y393`` and a resolve without arguments would do.
    ///
    /// ```swift
    /// try container.validate(42, (1, "title"))
    /// ```
    ///
    /// An error your own factory or hook throws is a domain error (a service that cannot start here): it does not
    /// fail validation, also when it arrives wrapped in ``ResolutionError/autoInjectionFailed(label:type:underlyingError:)``
    /// or ``ResolutionError/autoWiringFailed(type:underlyingError:)``, and is logged at ``LogLevel/verbose`` only.
    /// While it resolves, `validate` records who resolves whom and returns it as a ``GraphReport``: the definitions
    /// met in every container, the edges between them, and findings such as captive dependencies. See
    /// <doc:SeeingYourGraph>. Callers that only check may ignore it: `try container.validate()`.
    ///
    /// The report is the same whenever you validate: before or after ``bootstrap()-y393``, after the app resolved
    /// its singletons, or a second time. A factory that does not run shows nothing it depends on, so `validate` does
    /// not reuse an instance of a caching scope (``ComponentScope/singleton``, ``ComponentScope/eagerSingleton``,
    /// ``ComponentScope/cached``, ``ComponentScope/weakSingleton``) that exists already, in any container it
    /// reaches: it runs that factory once more, with its hooks, for an instance of its own that it uses for the rest
    /// of the call and then drops; the container keeps the instance it had. An instance that does not exist yet is
    /// made and kept, as a resolve would. So a singleton's factory may run again in `validate`, as every
    /// ``ComponentScope/unique`` factory does: keep side effects that must happen once per process out of factories
    /// you validate after use, or validate before resolving.
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Returns: The graph report of this validation.
    /// - Throws: The first ``ResolutionError``, unchanged in kind (`catch ResolutionError.definitionNotFound` still
    ///   matches); its ``ResolutionError/validatedDefinition`` and description name the definition being validated.
    ///   A cycle that only initializers could close throws ``ResolutionError/circularDependency(path:)`` as before:
    ///   no report then (the error's path shows the cycle).
    @discardableResult
    public func validate(_ arguments: Any...) throws -> GraphReport {
        try validate(arguments: arguments)
    }

    /// Resolves every definition to check that the graph can be built, with argument sets given as an array: the
    /// same as ``validate(_:)-2t1ea``, for helpers that forward their own variadic arguments.
    ///
    /// ```swift
    /// func checkGraph(_ container: DependencyContainer, _ arguments: Any...) throws {
    ///     try container.validate(arguments: arguments)
    /// }
    /// ```
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Returns: The graph report of this validation, as ``validate(_:)-2t1ea`` returns it.
    /// - Throws: The first ``ResolutionError``, as ``validate(_:)-2t1ea`` does.
    @discardableResult
    public func validate(arguments: [Any]) throws -> GraphReport {
        let entries = validationEntries()
        // Graph report: edges are recorded only inside this call, on this thread.
        let recorder = GraphRecorder()
        try recorder.recording {
            for (key, slot, forwards) in entries {
                try validate(slot, key: key, forward: nil, validating: key, arguments)
                for (forwardKey, forward) in forwards {
                    try validate(slot, key: forwardKey, forward: forward, validating: key, arguments)
                }
            }
        }
        return recorder.report(validating: self)
    }

    /// Resolves the typed accessors at `roots`, then every definition, to check that the graph can be built: the
    /// accessors need not have been called before, since resolving them here registers their declared defaults.
    ///
    /// ```swift
    /// let report = try container.validate(roots: \.analytics, \.checkout.view)
    /// let withDetail = try container.validate(roots: \.analytics, \.detail, arguments: [42])
    /// print(report.mermaid)
    /// ```
    ///
    /// The returned ``GraphReport`` shows what the roots reach, as ``validate(_:)-2t1ea`` does for definitions; a root
    /// is an entry point, so it is never reported ``GraphReport/Finding/Kind/unused``. A ``ParameterFactory`` root is
    /// built with each argument set of `arguments` that is its argument type; with none, it is a root that needs an
    /// argument: logged at ``LogLevel/errors`` as such, and not built. An ``AsyncFactory`` or ``MainActorFactory`` root
    /// needs `await`: this form logs and skips it, ``validateAsync(roots:_:arguments:)`` builds it. That form has a
    /// name of its own rather than being an `async` overload of this one, so that this call keeps compiling without
    /// `await` in async code (an `async` test), where Swift would otherwise pick the async overload. A key path to
    /// anything else is logged and skipped.
    /// - Parameters:
    ///   - root: The key path from a container to a typed accessor (`\.analytics`, `\.mappers.priceMapper`).
    ///   - more: Key paths to more typed accessors.
    ///   - arguments: Argument sets for the roots and the definitions that take runtime arguments.
    /// - Returns: The graph report of this validation.
    /// - Throws: The first ``ResolutionError``, as ``validate(_:)-2t1ea`` does.
    @discardableResult
    public func validate(
        roots root: PartialKeyPath<DependencyContainer>, _ more: PartialKeyPath<DependencyContainer>...,
        arguments: [Any] = []
    ) throws -> GraphReport {
        let recorder = GraphRecorder()
        try recorder.recording {
            for root in [root] + more {
                guard let accessor = validationRoot(root) else { continue }
                var outcome = RootBuild.built
                try validate(accessor.rootKey) { outcome = try accessor.buildAsRoot(arguments: arguments) }
                logUnbuilt(accessor.rootKey, outcome)
            }
            for (key, slot, forwards) in validationEntries() {
                try validate(slot, key: key, forward: nil, validating: key, arguments)
                for (forwardKey, forward) in forwards {
                    try validate(slot, key: forwardKey, forward: forward, validating: key, arguments)
                }
            }
        }
        return recorder.report(validating: self)
    }

    /// The typed accessor at `root`, or `nil` (logged) for anything else.
    func validationRoot(_ root: PartialKeyPath<DependencyContainer>) -> (any ValidationRoot)? {
        guard let accessor = self[keyPath: root] as? any ValidationRoot else {
            log(.errors, "Plexus: validate(roots:) skipped \(root): it is not a typed accessor.")
            return nil
        }
        return accessor
    }

    /// Logs a root that `validate(roots:)` could not build, and why, by its key (which names the property; a key
    /// path's description may not).
    func logUnbuilt(_ root: DefinitionKey, _ outcome: RootBuild) {
        switch outcome {
        case .built:
            return
        case .needsArgument:
            log(
                .errors,
                "Plexus: validate(roots:) did not build \(root): it is a root that needs an argument; pass an "
                    + "argument set of its argument type in `arguments:`.")
        case .needsAwait:
            log(
                .errors,
                "Plexus: validate(roots:) did not build \(root): it needs `await`; use "
                    + "`try await validateAsync(roots:)`.")
        }
    }

    /// Validates one key of a slot: with no arguments, with each matching argument set, or auto-wired.
    private func validate(
        _ slot: Slot, key: DefinitionKey, forward: Forward?, validating: DefinitionKey, _ arguments: [Any]
    ) throws {
        if slot.blueprint.argumentCount == 0 {
            try validate(validating) {
                try produce(
                    slot, key: key, arguments: .pointer(zeroSizedArguments), forward: forward, logsFailure: false)
            }
            return
        }
        var matched = false
        for argumentSet in arguments {
            try validate(validating) {
                // `withArguments` skips argument sets that do not cast to the factory's argument types.
                _ = try slot.blueprint.withArguments(argumentSet) {
                    matched = true
                    try produce(slot, key: key, arguments: .pointer($0), forward: forward, logsFailure: false)
                }
            }
        }
        if !matched {
            try validate(validating) {
                try produce(slot, key: key, arguments: .autoWire, forward: forward, logsFailure: false)
            }
        }
    }

    /// Runs one validation resolve: a `ResolutionError` fails validation (annotated with the definition being
    /// validated, and logged at `.verbose`, since it is thrown), any other error, also one wrapped in an auto-injection or auto-wiring failure, is a
    /// domain error, logged at `.verbose`.
    private func validate(_ key: DefinitionKey, _ resolve: () throws -> Void) throws {
        do {
            try resolve()
        } catch {
            try validationOutcome(of: error, validating: key)
        }
    }

    /// What a failed validation resolve of `key` means: a `ResolutionError` (not one only wrapping a domain error)
    /// fails validation, annotated with the definition being validated and logged at `.verbose` (the caller gets it
    /// thrown); anything else is logged at
    /// `.verbose` and ignored.
    func validationOutcome(of error: any Error, validating key: DefinitionKey) throws {
        if let error = error as? ResolutionError, !error.isDomainError {
            let annotated = error.validating(key, whereRegistered: whereRegistered(key, error))
            log(.verbose, "Plexus: \(annotated)")
            throw annotated
        }
        log(.verbose, "Plexus: validating \(key) ignored a domain error: \(error)")
    }
}
