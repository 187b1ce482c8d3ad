extension DependencyContainer {
    /// Resolves every definition to check that the graph can be built, `async` and `@MainActor` ones included: the
    /// async form of ``validate(_:)-2t1ea``, returning the same ``GraphReport``.
    ///
    /// ```swift
    /// @Test func theGraphIsValid() async throws {
    ///     try await makeAppContainer().validate()
    /// }
    /// ```
    ///
    /// The synchronous ``validate(_:)-2t1ea`` fails on the first `async` definition with
    /// ``ResolutionError/requiresAwait(key:)``. The whole validation is one task's resolution graph, so the report
    /// sees what async factories resolve across `await`. In an async context, Swift picks this overload: write
    /// `try await container.validate()`.
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Returns: The graph report of this validation.
    /// - Throws: The first ``ResolutionError``, as ``validate(_:)-2t1ea`` does.
    @discardableResult
    public func validate(_ arguments: Any...) async throws -> GraphReport {
        try await validate(arguments: arguments)
    }

    /// The async form of ``validate(arguments:)-47haw``: argument sets as an array.
    /// - Parameter arguments: Argument sets for definitions that take runtime arguments.
    /// - Returns: The graph report of this validation.
    /// - Throws: The first ``ResolutionError``, as ``validate(_:)-2t1ea`` does.
    @discardableResult
    public func validate(arguments: [Any]) async throws -> GraphReport {
        try await validateInTask(roots: [], arguments: arguments)
    }

    /// The async form of ``validate(roots:_:arguments:)``: it also builds ``AsyncFactory`` and ``MainActorFactory``
    /// roots, in one task's resolution graph.
    ///
    /// ```swift
    /// let report = try await container.validateAsync(roots: \.database, \.catalog, \.analytics)
    /// ```
    ///
    /// It has a name of its own so that `try container.validate(roots:)` keeps compiling, without `await`, in async
    /// code.
    /// - Parameters:
    ///   - root: The key path from a container to a typed accessor of any kind.
    ///   - more: Key paths to more typed accessors.
    ///   - arguments: Argument sets for ``ParameterFactory`` roots and the definitions that take runtime arguments.
    /// - Returns: The graph report of this validation.
    /// - Throws: The first ``ResolutionError``, as ``validate(_:)-2t1ea`` does.
    @discardableResult
    public func validateAsync(
        roots root: PartialKeyPath<DependencyContainer>, _ more: PartialKeyPath<DependencyContainer>...,
        arguments: [Any] = []
    ) async throws -> GraphReport {
        try await validateInTask(roots: [root] + more, arguments: arguments)
    }

    /// Builds `roots`, then every definition, in one task's resolution graph.
    private func validateInTask(roots: [PartialKeyPath<DependencyContainer>], arguments: [Any]) async throws
        -> GraphReport
    {
        let recorder = GraphRecorder()
        try await TaskGraph.withNewGraph { graph in
            try await recorder.recording(on: graph) {
                for root in roots {
                    guard let accessor = validationRoot(root) else { continue }
                    do {
                        let outcome = try await accessor.buildAsRootAsync(arguments: UncheckedArguments(arguments))
                        logUnbuilt(accessor.rootKey, outcome)
                    } catch {
                        try validationOutcome(of: error, validating: accessor.rootKey)
                    }
                }
                // Read after the roots: building them registers their declared defaults.
                for (key, slot, forwards) in validationEntries() {
                    try await validateAsync(slot, key: key, forward: nil, validating: key, arguments)
                    for (forwardKey, forward) in forwards {
                        try await validateAsync(slot, key: forwardKey, forward: forward, validating: key, arguments)
                    }
                }
            }
        }
        return recorder.report(validating: self)
    }

    /// Validates one key of a slot, as the synchronous `validate` does, each resolve an async one.
    private func validateAsync(
        _ slot: Slot, key: DefinitionKey, forward: Forward?, validating: DefinitionKey, _ arguments: [Any]
    ) async throws {
        if slot.blueprint.argumentCount == 0 {
            try await validateAsync(validating, slot, key: key, forward: forward, given: (), autoWires: false)
            return
        }
        var matched = false
        for argumentSet in arguments {
            // The set must cast to the factory's argument types (`withArguments` says whether it does).
            guard (try? slot.blueprint.withArguments(argumentSet) { _ in }) == true else { continue }
            matched = true
            try await validateAsync(
                validating, slot, key: key, forward: forward, given: UncheckedArguments(argumentSet),
                autoWires: false, castingFrom: argumentSet)
        }
        if !matched {
            try await validateAsync(validating, slot, key: key, forward: forward, given: (), autoWires: true)
        }
    }

    /// One validation resolve of `slot` under `key`, with `given` as its arguments (`castingFrom` the argument set
    /// they were cast from), or its arguments auto-wired: a `ResolutionError` fails validation, other errors are
    /// domain errors, as in the synchronous `validate`.
    // swift-format-ignore: FunctionParameterCount
    private func validateAsync<Given: Sendable>(
        _ validating: DefinitionKey,
        _ slot: Slot,
        key: DefinitionKey,
        forward: Forward?,
        given: Given,
        autoWires: Bool,
        castingFrom argumentSet: Any? = nil
    ) async throws {
        do {
            try await resolveAsync(
                arguments: given, logsFailure: false, deliver: { _ in },
                segment: { pointer in
                    var handOver: AsyncHandOver?
                    if let argumentSet {
                        _ = try slot.blueprint.withArguments(argumentSet) { arguments in
                            handOver = try self.produceSegment(
                                slot, key: key, arguments: autoWires ? .autoWire : .pointer(arguments),
                                forward: forward, logsFailure: false)
                        }
                    } else {
                        handOver = try self.produceSegment(
                            slot, key: key, arguments: autoWires ? .autoWire : .pointer(pointer), forward: forward,
                            logsFailure: false)
                    }
                    return handOver.map { .handOver($0) } ?? .instance(())
                })
        } catch {
            try validationOutcome(of: error, validating: validating)
        }
    }
}
