// How `validate(roots:)` builds a root of each kind of typed accessor: a `Factory` or `SingletonFactory` as it is, a
// `ParameterFactory` with the argument sets it is given, an `AsyncFactory` or `MainActorFactory` only in the async
// form.

/// What became of a root `validate(roots:)` was given.
enum RootBuild {
    /// Built, so its graph is in the report.
    case built
    /// A `ParameterFactory` with no argument set of its argument type.
    case needsArgument
    /// An `AsyncFactory` or `MainActorFactory` given to the synchronous form.
    case needsAwait
}

/// A typed accessor that `validate(roots:)` builds.
protocol ValidationRoot: AccessorDeclaration {
    /// Builds the accessor in the calling thread's resolution graph.
    func buildAsRoot(arguments: [Any]) throws -> RootBuild
    /// Builds the accessor in the current task's resolution graph (`validateAsync(roots:)`).
    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild
}

extension ValidationRoot {
    /// The key a failure is reported under.
    var rootKey: DefinitionKey {
        key ?? DefinitionKey(type: Instance.self, typeOfArguments: Void.self)
    }

    /// Runs the synchronous `buildAsRoot` as one segment of the current task's graph. A synchronous accessor hands
    /// nothing over: a definition that needs `await` under its key throws as in the synchronous `validate(roots:)`.
    func buildSynchronouslyAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        guard let container else { return try buildAsRoot(arguments: arguments.value as? [Any] ?? []) }
        return try await container.resolveAsync(
            arguments: (), logsFailure: false, deliver: { _ in .built },
            segment: { _ in .instance(try buildAsRoot(arguments: arguments.value as? [Any] ?? [])) })
    }
}

extension Factory: ValidationRoot {
    func buildAsRoot(arguments: [Any]) throws -> RootBuild {
        _ = try resolve()
        return .built
    }

    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        try await buildSynchronouslyAsRootAsync(arguments: arguments)
    }
}

extension SingletonFactory: ValidationRoot {
    func buildAsRoot(arguments: [Any]) throws -> RootBuild {
        _ = try resolve()
        return .built
    }

    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        try await buildSynchronouslyAsRootAsync(arguments: arguments)
    }
}

extension ParameterFactory: ValidationRoot {
    /// Resolves the accessor with each argument set that is its argument type.
    func buildAsRoot(arguments: [Any]) throws -> RootBuild {
        var outcome = RootBuild.needsArgument
        for case let argument as P in arguments {
            _ = try resolve(argument)
            outcome = .built
        }
        return outcome
    }

    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        try await buildSynchronouslyAsRootAsync(arguments: arguments)
    }
}

extension AsyncFactory: ValidationRoot {
    func buildAsRoot(arguments: [Any]) throws -> RootBuild { .needsAwait }

    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        _ = try await self()
        return .built
    }
}

extension MainActorFactory: ValidationRoot {
    func buildAsRoot(arguments: [Any]) throws -> RootBuild { .needsAwait }

    func buildAsRootAsync(arguments: UncheckedArguments) async throws -> RootBuild {
        guard let container, let key else { return .needsAwait }
        let (storage, make) = (storage, make)
        let _: T = try await container.resolveAsyncAccessor(key) { Self.blueprint(scope: storage, make: make) }
        return .built
    }
}
