import Foundation
import Plexus
import PlexusTesting
import Testing

private final class First: Sendable {}
private final class Second: Sendable {}
private final class Third: Sendable {}
private final class Lazy: Sendable {}
private final class Dependent: Sendable {
    let first: First
    init(first: First) { self.first = first }
}
private final class Missing: Sendable {}

private enum DomainError: Error, Equatable { case notYet }

/// The type's name without the decoration release builds give private types ("(First in _551F…)").
private func plainName(of type: Any.Type) -> String {
    let name = "\(type)"
    guard name.hasPrefix("("), let end = name.range(of: " in ") else { return name }
    return String(name[name.index(after: name.startIndex)..<end.lowerBound])
}

@Suite(.silencingPlexusLogs) struct BootstrapTests {
    let container = DependencyContainer()
    private let log = Log()

    private func registerEager<T: Sendable>(_ make: @escaping @Sendable () -> T, tag: String? = nil) {
        let log = log
        container.register(.eagerSingleton, tag: tag) { () -> T in
            log.append(plainName(of: T.self))
            return make()
        }
    }

    @Test func bootstrapCreatesEagerSingletonsInRegistrationOrder() throws {
        registerEager(Third.init)
        registerEager(First.init)
        registerEager(Second.init)
        #expect(log.entries.isEmpty)
        try container.bootstrap()
        #expect(log.entries == ["Third", "First", "Second"])
    }

    @Test func bootstrapOrderFollowsRegistrationNotTags() throws {
        registerEager(First.init, tag: "z")
        registerEager(First.init, tag: "a")
        registerEager(Second.init)
        registerEager(First.init)
        try container.bootstrap()
        #expect(log.entries == ["First", "First", "Second", "First"])
    }

    @Test(arguments: [ComponentScope.unique, .shared, .singleton, .weakSingleton])
    func bootstrapLeavesOtherScopesAlone(scope: ComponentScope) throws {
        let log = log
        container.register(scope) { () -> Lazy in
            log.append("Lazy")
            return Lazy()
        }
        try container.bootstrap()
        #expect(log.entries.isEmpty)
    }

    @Test func bootstrappedInstanceIsTheOneResolvedLater() throws {
        registerEager(First.init)
        try container.bootstrap()
        let first: First = try container.resolve()
        #expect(try container.resolve() as First === first)
        #expect(log.count(of: "First") == 1)
    }

    @Test func eagerSingletonResolvedBeforeBootstrapIsNotCreatedAgain() throws {
        registerEager(First.init)
        let first: First = try container.resolve()
        try container.bootstrap()
        #expect(try container.resolve() as First === first)
        #expect(log.count(of: "First") == 1)
    }

    @Test func bootstrapTwiceCreatesEachEagerSingletonOnce() throws {
        registerEager(First.init)
        registerEager(Second.init)
        try container.bootstrap()
        try container.bootstrap()
        #expect(log.entries == ["First", "Second"])
    }

    @Test func eagerSingletonUnderTwoTagsIsCreatedOnce() throws {
        let log = log
        let definition = container.register(.eagerSingleton, tag: "a") { () -> First in
            log.append("First")
            return First()
        }
        container.register(definition, tag: "b")
        try container.bootstrap()
        #expect(log.count(of: "First") == 1)
        #expect(try container.resolve(tag: "a") as First === (try container.resolve(tag: "b") as First))
    }

    @Test func bootstrapCreatesDependenciesOfEagerSingletons() throws {
        let log = log
        container.register(.singleton) { () -> First in
            log.append("First")
            return First()
        }
        container.register(.eagerSingleton) { [container] () -> Dependent in
            log.append("Dependent")
            return Dependent(first: try container.resolve())
        }
        try container.bootstrap()
        #expect(log.entries == ["Dependent", "First"])
        let dependent: Dependent = try container.resolve()
        #expect(dependent.first === (try container.resolve() as First))
    }

    @Test func bootstrapRunsPropertyHooksOfEagerSingletons() throws {
        let log = log
        container.register(.eagerSingleton) { First() }.resolvingProperties { _, _ in log.append("hook") }
        try container.bootstrap()
        #expect(log.entries == ["hook"])
    }

    @Test func isBootstrappedIsFalseUntilBootstrapCompletes() throws {
        #expect(container.isBootstrapped == false)
        registerEager(First.init)
        #expect(container.isBootstrapped == false)
        try container.bootstrap()
        #expect(container.isBootstrapped)
    }

    @Test func bootstrapOfAnEmptyContainerSucceeds() throws {
        try container.bootstrap()
        #expect(container.isBootstrapped)
    }

    @Test func failingBootstrapPropagatesTheErrorAndLeavesTheContainerNotBootstrapped() {
        container.register(.eagerSingleton) { () throws -> First in throw DomainError.notYet }
        #expect(throws: DomainError.notYet) { try container.bootstrap() }
        #expect(container.isBootstrapped == false)
    }

    @Test func failedBootstrapCanBeRetried() throws {
        let log = log
        container.register(.eagerSingleton) { () throws -> First in
            log.append("attempt")
            if log.count(of: "attempt") == 1 { throw DomainError.notYet }
            return First()
        }
        #expect(throws: DomainError.notYet) { try container.bootstrap() }
        #expect(container.isBootstrapped == false)
        try container.bootstrap()
        #expect(container.isBootstrapped)
        #expect(log.count(of: "attempt") == 2)
        _ = try container.resolve() as First
        #expect(log.count(of: "attempt") == 2)
    }

    @Test func failedBootstrapCanBeRetriedAfterRegisteringTheMissingDependency() throws {
        container.register(.eagerSingleton) { [container] () -> Dependent in
            Dependent(first: try container.resolve())
        }
        let error = #expect(throws: ResolutionError.self) { try container.bootstrap() }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: First.self, typeOfArguments: Void.self))
        #expect(container.isBootstrapped == false)
        container.register(.singleton) { First() }
        try container.bootstrap()
        #expect(container.isBootstrapped)
    }

    @Test func eagerSingletonsMadeBeforeAFailureAreNotMadeAgainOnRetry() throws {
        registerEager(First.init)
        let log = log
        container.register(.eagerSingleton) { () throws -> Second in
            log.append("Second")
            if log.count(of: "Second") == 1 { throw DomainError.notYet }
            return Second()
        }
        registerEager(Third.init)
        #expect(throws: DomainError.notYet) { try container.bootstrap() }
        try container.bootstrap()
        #expect(log.entries == ["First", "Second", "Second", "Third"])
    }

    @Test func registerAfterBootstrapWorks() throws {
        registerEager(First.init)
        try container.bootstrap()
        container.register { Lazy() }
        container.register(.singleton) { Second() }
        _ = try container.resolve() as Lazy
        #expect(try container.resolve() as Second === (try container.resolve() as Second))
    }

    @Test func eagerSingletonRegisteredAfterBootstrapIsCreatedByTheNextBootstrap() throws {
        registerEager(First.init)
        try container.bootstrap()
        registerEager(Second.init)
        #expect(log.entries == ["First"])
        try container.bootstrap()
        #expect(log.entries == ["First", "Second"])
        #expect(container.isBootstrapped)
    }

    @Test func eagerSingletonRegisteredAfterBootstrapIsCreatedOnFirstUse() throws {
        try container.bootstrap()
        registerEager(Second.init)
        let second: Second = try container.resolve()
        #expect(log.entries == ["Second"])
        try container.bootstrap()
        #expect(log.entries == ["Second"])
        #expect(try container.resolve() as Second === second)
    }

    @Test func overridingAnEagerSingletonAfterBootstrapReplacesIt() throws {
        registerEager(First.init)
        try container.bootstrap()
        let old: First = try container.resolve()
        registerEager(First.init)
        try container.bootstrap()
        #expect(log.count(of: "First") == 2)
        #expect(try container.resolve() as First !== old)
    }

    @Test func resetClearsTheBootstrapState() throws {
        registerEager(First.init)
        try container.bootstrap()
        container.reset()
        #expect(container.isBootstrapped == false)
    }

    @Test func bootstrapAfterResetCreatesTheNewEagerSingletons() throws {
        registerEager(First.init)
        try container.bootstrap()
        let old: First = try container.resolve()
        container.reset()
        registerEager(First.init)
        try container.bootstrap()
        #expect(log.count(of: "First") == 2)
        #expect(try container.resolve() as First !== old)
    }
}
