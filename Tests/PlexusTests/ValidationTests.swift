import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject, Sendable {}
private final class ServiceImp: Service {}
private final class Missing: Sendable {}
private final class AlsoMissing: Sendable {}
private final class Client: Sendable {
    let service: Service
    init(service: Service) { self.service = service }
}
private final class Cell: Sendable {}
private class Base: @unchecked Sendable {}
private final class Derived: Base, @unchecked Sendable {}
private final class Left: Sendable {
    init(right: Right) {}
}
private final class Right: Sendable {
    init(left: Left) {}
}

private enum DomainError: Error { case cannotStartHere }

@Suite(.silencingPlexusLogs) struct ValidationTests {
    let container = DependencyContainer()
    private let log = Log()

    /// The key of the `definitionNotFound` that `body` throws.
    private func missingKey(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> DefinitionKey? {
        let error = #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) { try body() }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record(
                "expected definitionNotFound, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return key
    }

    @Test func validatePassesOnAnEmptyContainer() throws {
        try container.validate()
    }

    @Test func validatePassesOnAGoodGraph() throws {
        container.register(.singleton) { ServiceImp() as Service }
        container.register { [container] in Client(service: try container.resolve()) }
        container.register(.eagerSingleton, tag: "t") { Cell() }
        try container.validate()
    }

    @Test func validateResolvesEveryDefinitionInRegistrationOrder() throws {
        let log = log
        container.register(.unique) { () -> Cell in
            log.append("unique")
            return Cell()
        }
        container.register(.singleton, tag: "s") { () -> Cell in
            log.append("singleton")
            return Cell()
        }
        container.register(.shared, tag: 1) { () -> Service in
            log.append("shared")
            return ServiceImp()
        }
        container.register(.weakSingleton) { () -> Service in
            log.append("weak")
            return ServiceImp()
        }
        try container.validate()
        #expect(log.entries == ["unique", "singleton", "shared", "weak"])
    }

    @Test func validateFailsOnAMissingDependency() throws {
        container.register { [container] in Client(service: try container.resolve()) }
        let key = try #require(missingKey { try container.validate() })
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self))
    }

    @Test func validateFailsOnTheFirstResolutionErrorInRegistrationOrder() throws {
        container.register { ServiceImp() as Service }
        container.register { [container] () -> Cell in
            _ = try container.resolve() as AlsoMissing
            return Cell()
        }
        container.register { [container] () -> Client in
            _ = try container.resolve() as Missing
            return Client(service: ServiceImp())
        }
        let key = try #require(missingKey { try container.validate() })
        #expect(key == DefinitionKey(type: AlsoMissing.self, typeOfArguments: Void.self))
    }

    @Test func validateIgnoresDomainErrors() throws {
        container.register { () throws -> Service in throw DomainError.cannotStartHere }
        container.register { Cell() }
        try container.validate()
    }

    @Test func validateIgnoresDomainErrorsFromHooks() throws {
        container.register { Cell() }.resolvingProperties { _, _ in throw DomainError.cannotStartHere }
        try container.validate()
    }

    @Test func domainErrorDoesNotHideALaterResolutionError() throws {
        container.register { () throws -> Service in throw DomainError.cannotStartHere }
        container.register { [container] () -> Cell in
            _ = try container.resolve() as Missing
            return Cell()
        }
        let key = try #require(missingKey { try container.validate() })
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func validateFailsWhenAHookCannotResolve() throws {
        container.register { Cell() }.resolvingProperties { container, _ in _ = try container.resolve() as Missing }
        let key = try #require(missingKey { try container.validate() })
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func validateFailsOnAConstructorCycle() {
        container.register { [container] in Left(right: try container.resolve()) }
        container.register { [container] in Right(left: try container.resolve()) }
        let error = #expect(throws: ResolutionError.self) { try container.validate() }
        guard case .circularDependency? = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
    }

    @Test func validateUsesArgumentSetsThatMatchTheDefinitionsTypes() throws {
        let log = log
        container.register { (id: Int) -> Cell in
            log.append("int \(id)")
            return Cell()
        }
        container.register(tag: "pair") { (id: Int, title: String) -> Cell in
            log.append("pair \(id) \(title)")
            return Cell()
        }
        container.register { (title: String) -> Service in
            log.append("string \(title)")
            return ServiceImp()
        }
        try container.validate(5, (1, "one"), "title")
        #expect(log.entries == ["int 5", "pair 1 one", "string title"])
    }

    @Test func validateUsesAnArgumentSetOfAProtocolType() throws {
        container.register { [container] (service: Service) -> Cell in
            _ = try container.resolve() as Missing
            return Cell()
        }
        let key = try #require(missingKey { try container.validate(ServiceImp() as Service) })
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func validateUsesAnArgumentSetOfASubclass() throws {
        container.register { [container] (base: Base) -> Cell in
            _ = try container.resolve() as Missing
            return Cell()
        }
        let key = try #require(missingKey { try container.validate(Derived()) })
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func validateUsesALabelledTupleArgumentSet() throws {
        let log = log
        container.register { (id: Int, title: String) -> Cell in
            log.append("\(id) \(title)")
            return Cell()
        }
        try container.validate((id: 1, title: "one"))
        #expect(log.entries == ["1 one"])
    }

    @Test func validateTriesEveryMatchingArgumentSet() throws {
        let log = log
        container.register { (id: Int) -> Cell in
            log.append("\(id)")
            return Cell()
        }
        try container.validate(1, "skip", 2)
        #expect(log.entries == ["1", "2"])
    }

    @Test func validateAutoWiresDefinitionsWithoutAMatchingArgumentSet() throws {
        let log = log
        container.register { (value: Double) -> Cell in
            log.append("double \(value)")
            return Cell()
        }
        container.register { (id: Int, title: String) -> Service in
            log.append("pair \(id) \(title)")
            return ServiceImp()
        }
        let error = try #require(throws: ResolutionError.self) { try container.validate(1, ("one", 1)) }
        guard case .autoWiringFailed(_, let underlyingError) = error,
            case .definitionNotFound(let key)? = underlyingError as? ResolutionError
        else {
            Issue.record("expected autoWiringFailed(definitionNotFound), got \(error)")
            return
        }
        #expect(key == DefinitionKey(type: Double.self, typeOfArguments: Void.self))
        container.register { 0.5 }
        container.register { 7 }
        container.register { "seven" }
        try container.validate(1, ("one", 1))
        #expect(log.entries == ["double 0.5", "pair 7 seven"])
    }

    @Test func validateFailsWhenADefinitionWithArgumentsHasAMissingDependency() throws {
        container.register { [container] (id: Int) -> Cell in
            _ = try container.resolve() as Missing
            return Cell()
        }
        let key = try #require(missingKey { try container.validate(7) })
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func validatePassesWhenDependenciesComeFromACollaborator() throws {
        let other = DependencyContainer()
        other.register { ServiceImp() as Service }
        container.collaborate(with: other)
        container.register { [container] in Client(service: try container.resolve()) }
        try container.validate()
    }

    @Test func containerResolvesAfterAFailedValidation() throws {
        container.register { [container] in Client(service: try container.resolve()) }
        #expect(throws: ResolutionError.self) { try container.validate() }
        container.register { ServiceImp() as Service }
        try container.validate()
        _ = try container.resolve() as Client
    }

    // MARK: Forwarding, auto-wiring, domain errors, naming the definition

    @Test func validateFailsOnAForwardingToATypeTheInstanceIsNot() throws {
        container.register { Cell() }.implements(Service.self, tag: "wrong")
        let error = try #require(throws: ResolutionError.self) { try container.validate() }
        guard case .invalidType(let resolved, let key) = error else {
            Issue.record("expected invalidType, got \(error)")
            return
        }
        #expect(resolved.map(ObjectIdentifier.init) == ObjectIdentifier(Cell.self))
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "wrong"))
        #expect(error.validatedDefinition == DefinitionKey(type: Cell.self, typeOfArguments: Void.self))
    }

    @Test func validatePassesForwardingsTheInstanceConformsTo() throws {
        container.register { ServiceImp() }.implements(Service.self).implements(Service.self, tag: "t")
        container.register { (id: Int) in ServiceImp() }.implements(Service.self)
        try container.validate(1)
    }

    @Test func validateChecksForwardingsOfDefinitionsWithArguments() throws {
        container.register { (id: Int) in Cell() }.implements(Service.self)
        let error = try #require(throws: ResolutionError.self) { try container.validate(1) }
        guard case .invalidType(_, let key) = error else {
            Issue.record("expected invalidType, got \(error)")
            return
        }
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Int.self))
    }

    @Test func validateAutoWiresAndFailsLikeTheFirstRealResolveWould() throws {
        container.register { (service: Service) in Client(service: service) }
        let error = try #require(throws: ResolutionError.self) { try container.validate() }
        guard case .autoWiringFailed = error else {
            Issue.record("expected autoWiringFailed, got \(error)")
            return
        }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Client }
        container.register { ServiceImp() as Service }
        try container.validate()
    }

    @Test func domainErrorReachedThroughInjectedIsIgnored() throws {
        container.register { () throws -> Service in throw DomainError.cannotStartHere }
        container.register { Holder() }
        try container.validate()
        let error = try #require(throws: ResolutionError.self) { _ = try container.resolve() as Holder }
        guard case .autoInjectionFailed(_, _, let underlyingError) = error else {
            Issue.record("expected autoInjectionFailed, got \(error)")
            return
        }
        #expect(underlyingError is DomainError)
    }

    @Test func domainErrorReachedThroughAutoWiringIsIgnored() throws {
        container.register { () throws -> Service in throw DomainError.cannotStartHere }
        container.register { [container] (cell: Cell) -> Client in Client(service: try container.resolve()) }
        container.register { (service: Service) in Cell() }
        try container.validate()
    }

    @Test func argumentSetThatMatchesButMeetsADomainErrorIsNotAutoWired() throws {
        let log = log
        container.register { (id: Int) throws -> Cell in
            log.append("called with \(id)")
            throw DomainError.cannotStartHere
        }
        try container.validate(3)
        #expect(log.entries == ["called with 3"])
    }

    @Test func resolutionErrorWrappedInAutoInjectionStillFails() throws {
        container.register { Holder() }
        let error = try #require(throws: ResolutionError.self) { try container.validate() }
        guard case .autoInjectionFailed = error else {
            Issue.record("expected autoInjectionFailed, got \(error)")
            return
        }
        #expect(error.validatedDefinition == DefinitionKey(type: Holder.self, typeOfArguments: Void.self))
    }

    @Test func everyValidationErrorNamesTheDefinitionBeingValidated() throws {
        container.register { Cell() }
        container.register(tag: "main") { [container] in Client(service: try container.resolve()) }
        let key = try #require(missingKey { try container.validate() })
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self))
        let error = try #require(throws: ResolutionError.self) { try container.validate() }
        let client = DefinitionKey(type: Client.self, typeOfArguments: Void.self, tag: "main")
        #expect(error.validatedDefinition == client)
        #expect(
            "\(error)".hasPrefix("Validation of Client (tag: \"main\") failed: No definition registered for Service"))
    }

    @Test func errorsFromResolveNameNoValidatedDefinition() throws {
        let error = try #require(throws: ResolutionError.self) { _ = try container.resolve() as Missing }
        #expect(error.validatedDefinition == nil)
        #expect("\(error)".hasPrefix("No definition registered for Missing"))
    }
}

/// Has an auto-injected `Service`.
private final class Holder {
    @Injected var service: Service?
}
