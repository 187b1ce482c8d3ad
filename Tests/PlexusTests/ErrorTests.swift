import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject, Sendable {}
private final class ServiceImp: Service {}
private final class Unrelated: Sendable {}
private final class Missing: Sendable {}
private final class Cell: Sendable {}
private protocol NearMissApi: AnyObject, Sendable {}
private final class HTTPNearMissApi: NearMissApi {}

/// Two types whose constructors need each other.
private final class Left: Sendable {
    let right: Right
    init(right: Right) { self.right = right }
}
private final class Right: Sendable {
    let left: Left?
    init(left: Left?) { self.left = left }
}

/// Marks whether its hook ran, to tell a finished instance from a half-built one.
private final class Hooked: @unchecked Sendable {
    private let lock = NSLock()
    private var ran = false
    var hookRan: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ran
    }
    func markHookRan() {
        lock.lock()
        defer { lock.unlock() }
        ran = true
    }
}

private enum DomainError: Error, Equatable {
    case offline
    case rejected(String)
}

/// An error compared by identity.
private final class ReferenceError: Error, Sendable {}

@Suite(.silencingPlexusLogs) struct ErrorTests {
    let container = DependencyContainer()

    /// The error `body` throws, as a `ResolutionError`, or `nil` after recording an issue.
    private func resolutionError(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> ResolutionError? {
        #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) { try body() }
    }

    // MARK: Descriptions

    @Test func notFoundNamesTheType() throws {
        let error = try #require(resolutionError { _ = try container.resolve() as Service })
        #expect("\(error)".contains("No definition registered for Service"))
    }

    @Test func notFoundNamesTheTag() throws {
        let error = try #require(resolutionError { _ = try container.resolve(tag: "prod") as Service })
        #expect("\(error)".contains("Service (tag: \"prod\")"))
        let numbered = try #require(resolutionError { _ = try container.resolve(tag: 3) as Service })
        #expect("\(numbered)".contains("Service (tag: 3)"))
    }

    @Test func notFoundNamesArgumentTypesInSwiftSpelling() throws {
        let error = try #require(resolutionError { _ = try container.resolve(arguments: 1, "a") as Service })
        #expect("\(error)".contains("Service (arguments: (Int, String))"))
        let one = try #require(resolutionError { _ = try container.resolve(arguments: 1) as Service })
        #expect("\(one)".contains("Service (arguments: (Int))"))
    }

    @Test func notFoundNamesTagAndArgumentsTogether() throws {
        let error = try #require(
            resolutionError {
                _ = try container.resolve(tag: "prod", arguments: 1, "a") as Service
            })
        #expect("\(error)".contains("Service (tag: \"prod\", arguments: (Int, String))"))
    }

    @Test func notFoundSpellsOptionalsTheSwiftWay() throws {
        let error = try #require(resolutionError { _ = try container.resolve() as Service? })
        #expect("\(error)".contains("Optional<Service>"))
    }

    @Test func notFoundSpellsOptionalArgumentsTheSwiftWay() throws {
        let error = try #require(resolutionError { _ = try container.resolve(arguments: 1 as Int?) as Service })
        #expect("\(error)".contains("(Optional<Int>)"))
    }

    @Test func notFoundWithoutNearMissSaysHowToFix() throws {
        let error = try #require(resolutionError { _ = try container.resolve() as Missing })
        let description = "\(error)"
        #expect(description.contains("register"))
        #expect(description.contains("collaborate(with:)"))
    }

    @Test func notFoundNamesTheNearMissTag() throws {
        container.register(tag: "prod") { ServiceImp() as Service }
        let error = try #require(resolutionError { _ = try container.resolve(tag: "staging") as Service })
        #expect("\(error)".contains("registered for tag \"prod\""))
        let untagged = try #require(resolutionError { _ = try container.resolve() as Service })
        #expect("\(untagged)".contains("registered for tag \"prod\""))
    }

    @Test func notFoundNamesTheNearMissIntTag() throws {
        container.register(tag: 2) { ServiceImp() as Service }
        let error = try #require(resolutionError { _ = try container.resolve(tag: 3) as Service })
        #expect("\(error)".contains("registered for tag 2"))
    }

    @Test func notFoundNamesTheNearMissArguments() throws {
        container.register { (id: Int) in ServiceImp() as Service }
        let error = try #require(resolutionError { _ = try container.resolve(arguments: "1") as Service })
        #expect("\(error)".contains("registered with arguments (Int)"))
    }

    @Test func notFoundNamesNearMissWithoutArguments() throws {
        container.register { ServiceImp() as Service }
        let error = try #require(resolutionError { _ = try container.resolve(arguments: 1) as Service })
        #expect("\(error)".contains("registered without arguments"))
    }

    @Test func notFoundNamesNearMissOfTagAndArguments() throws {
        container.register(tag: "prod") { (id: Int) in ServiceImp() as Service }
        let error = try #require(
            resolutionError {
                _ = try container.resolve(tag: "staging", arguments: "x") as Service
            })
        let description = "\(error)"
        #expect(description.contains("tag \"prod\""))
        #expect(description.contains("arguments (Int)"))
    }

    @Test func notFoundOfOptionalNamesNearMissOfWrappedType() throws {
        container.register(tag: "prod") { ServiceImp() as Service }
        let error = try #require(resolutionError { _ = try container.resolve() as Service? })
        #expect("\(error)".contains("registered for tag \"prod\""))
    }

    @Test func notFoundNamesNearMissesInCollaborators() throws {
        let other = DependencyContainer()
        other.register(tag: "prod") { ServiceImp() as Service }
        container.collaborate(with: other)
        let error = try #require(resolutionError { _ = try container.resolve(tag: "staging") as Service })
        #expect("\(error)".contains("registered for tag \"prod\""))
    }

    @Test func invalidTypeNamesResolvedAndRequestedTypes() throws {
        container.register { ServiceImp() }.implements(Unrelated.self, tag: "u")
        let error = try #require(resolutionError { _ = try container.resolve(tag: "u") as Unrelated })
        guard case .invalidType = error else {
            Issue.record("expected invalidType, got \(error)")
            return
        }
        let description = "\(error)"
        #expect(description.contains("ServiceImp"))
        #expect(description.contains("Unrelated (tag: \"u\")"))
    }

    @Test func circularDependencyReadsAsAPath() throws {
        container.register { [container] in Left(right: try container.resolve()) }
        container.register { [container] in Right(left: try container.resolve()) }
        let error = try #require(resolutionError { _ = try container.resolve() as Left })
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(error)")
            return
        }
        #expect(path.map { "\($0.type)" } == ["Left", "Right", "Left"])
        #expect("\(error)".contains("Left -> Right -> Left"))
    }

    @Test func ambiguousDefinitionsNamesTypeAndCandidates() {
        let error = ResolutionError.ambiguousDefinitions(
            type: Cell.self,
            definitions: [
                DefinitionKey(type: Cell.self, typeOfArguments: Int.self),
                DefinitionKey(type: Cell.self, typeOfArguments: String.self, tag: "t"),
            ])
        let description = "\(error)"
        #expect(description.contains("Cell"))
        #expect(description.contains("(Int)"))
        #expect(description.contains("(String)"))
        #expect(description.contains("\"t\""))
    }

    @Test func ambiguousAutoWiringIsReportedThroughAutoWiringFailed() throws {
        container.register { (id: Int) in Cell() }
        container.register { (name: String) in Cell() }
        let error = try #require(resolutionError { _ = try container.resolve() as Cell })
        guard case .autoWiringFailed(_, let underlying) = error,
            case .ambiguousDefinitions(_, let definitions)? = underlying as? ResolutionError
        else {
            Issue.record("expected autoWiringFailed(ambiguousDefinitions), got \(error)")
            return
        }
        #expect(
            Set(definitions) == [
                DefinitionKey(type: Cell.self, typeOfArguments: Int.self),
                DefinitionKey(type: Cell.self, typeOfArguments: String.self),
            ])
        let description = "\(error)"
        #expect(description.contains("Cell"))
        #expect(description.contains("(Int)"))
        #expect(description.contains("(String)"))
    }

    @Test func autoWiringFailedNamesTypeAndCause() {
        let cause = ResolutionError.definitionNotFound(
            key: DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
        let description = "\(ResolutionError.autoWiringFailed(type: Cell.self, underlyingError: cause))"
        #expect(description.contains("Cell"))
        #expect(description.contains("Missing"))
    }

    @Test func autoInjectionFailedNamesPropertyTypeAndCause() {
        let error = ResolutionError.autoInjectionFailed(
            label: "api", type: Service?.self, underlyingError: DomainError.offline)
        let description = "\(error)"
        #expect(description.contains("api"))
        #expect(description.contains("Optional<Service>"))
        #expect(description.contains("offline"))
    }

    @Test func everyCaseHasADescription() {
        let key = DefinitionKey(type: Cell.self, typeOfArguments: Void.self)
        let errors: [ResolutionError] = [
            .definitionNotFound(key: key),
            .autoInjectionFailed(label: nil, type: Cell.self, underlyingError: DomainError.offline),
            .autoWiringFailed(type: Cell.self, underlyingError: DomainError.offline),
            .ambiguousDefinitions(type: Cell.self, definitions: [key]),
            .invalidType(resolved: nil, key: key),
            .circularDependency(path: [key, key]),
        ]
        for error in errors {
            #expect("\(error)".contains("Cell"), "\(error)")
        }
    }

    // MARK: DipError

    @Test func dipErrorAliasWorksInCatch() {
        do {
            _ = try container.resolve(tag: "x") as Service
            Issue.record("expected an error")
        } catch DipError.definitionNotFound(let key) {
            #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "x"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        do {
            _ = try container.resolve() as Service
        } catch let error as DipError {
            guard case .definitionNotFound = error else {
                Issue.record("unexpected \(error)")
                return
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: Propagation

    @Test func factoryErrorPropagatesUnchanged() {
        container.register { () throws -> Service in throw DomainError.rejected("factory") }
        #expect(throws: DomainError.rejected("factory")) { _ = try container.resolve() as Service }
    }

    @Test func factoryErrorFromDependencyPropagatesUnchanged() {
        container.register { () throws -> Missing in throw DomainError.offline }
        container.register { [container] () -> Service in
            _ = try container.resolve() as Missing
            return ServiceImp()
        }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
    }

    @Test func factoryErrorWithArgumentsPropagatesUnchanged() {
        container.register { (id: Int) throws -> Service in throw DomainError.rejected("\(id)") }
        #expect(throws: DomainError.rejected("5")) { _ = try container.resolve(arguments: 5) as Service }
    }

    @Test func factoryErrorIsTheSameObject() {
        let thrown = ReferenceError()
        container.register(.singleton) { () throws -> Service in throw thrown }
        do {
            _ = try container.resolve() as Service
            Issue.record("expected an error")
        } catch let error as ReferenceError {
            #expect(error === thrown)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func hookErrorPropagatesUnchanged() {
        container.register { ServiceImp() as Service }.resolvingProperties { _, _ in throw DomainError.offline }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
    }

    @Test func dependencyHookErrorPropagatesUnchanged() {
        container.register { Missing() }.resolvingProperties { _, _ in throw DomainError.rejected("hook") }
        container.register { [container] () -> Service in
            _ = try container.resolve() as Missing
            return ServiceImp()
        }
        #expect(throws: DomainError.rejected("hook")) { _ = try container.resolve() as Service }
    }

    @Test func factoryErrorInsideCollaboratorPropagatesUnchanged() {
        let other = DependencyContainer()
        other.register { () throws -> Service in throw DomainError.offline }
        container.collaborate(with: other)
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
    }

    // MARK: The container after an error

    @Test func containerResolvesAfterNotFound() throws {
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        container.register { ServiceImp() as Service }
        _ = try container.resolve() as Service
    }

    @Test func singletonWhoseFactoryFailedIsConstructedOnTheNextResolve() throws {
        let attempts = Counter()
        container.register(.singleton) { () throws -> Service in
            if attempts.increment() == 1 { throw DomainError.offline }
            return ServiceImp()
        }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
        let first: Service = try container.resolve()
        #expect(try container.resolve() as Service === first)
        #expect(attempts.count == 2)
    }

    @Test func singletonWhoseHookFailedIsNotKeptHalfBuilt() throws {
        let attempts = Counter()
        container.register(.singleton) { Hooked() }
            .resolvingProperties { _, hooked in
                if attempts.increment() == 1 { throw DomainError.offline }
                hooked.markHookRan()
            }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Hooked }
        let hooked: Hooked = try container.resolve()
        #expect(hooked.hookRan, "the singleton handed out must have had its hooks run")
        #expect(try container.resolve() as Hooked === hooked)
    }

    @Test func singletonCreatedInAGraphThatFailedLaterIsNotKept() throws {
        let made = Counter()
        container.register(.singleton) { () -> Missing in
            made.increment()
            return Missing()
        }
        container.register { [container] () throws -> Service in
            _ = try container.resolve() as Missing
            throw DomainError.offline
        }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
        let missing: Missing = try container.resolve()
        #expect(try container.resolve() as Missing === missing)
        #expect(made.count <= 2)
    }

    @Test func containerResolvesAfterCircularDependency() throws {
        container.register { [container] in Left(right: try container.resolve()) }
        container.register { [container] in Right(left: try container.resolve()) }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Left }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Right }
        container.register { Right(left: nil) }
        let left: Left = try container.resolve()
        #expect(left.right.left == nil)
    }

    @Test func containerResolvesAfterInvalidType() throws {
        container.register(.singleton) { ServiceImp() }.implements(Unrelated.self)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Unrelated }
        let service: ServiceImp = try container.resolve()
        #expect(try container.resolve() as ServiceImp === service)
    }

    @Test func containerResolvesAfterAutoWiringFailed() throws {
        container.register { (id: Int) in Cell() }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Cell }
        container.register { 1 }
        _ = try container.resolve() as Cell
    }

    @Test func containerResolvesAfterHookError() throws {
        let attempts = Counter()
        container.register { ServiceImp() as Service }
            .resolvingProperties { _, _ in
                if attempts.increment() == 1 { throw DomainError.offline }
            }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
        _ = try container.resolve() as Service
    }

    @Test func sharedInstanceOfAFailedGraphIsNotReused() throws {
        let made = Counter()
        container.register(.shared) { () -> Missing in
            made.increment()
            return Missing()
        }
        container.register { [container] () throws -> Service in
            _ = try container.resolve() as Missing
            throw DomainError.offline
        }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
        _ = try container.resolve() as Missing
        #expect(made.count == 2)
    }

    @Test func contextIsClearedAfterAnError() throws {
        container.register { () throws -> Service in throw DomainError.offline }
        #expect(throws: DomainError.offline) { _ = try container.resolve() as Service }
        #expect(container.context == nil)
    }

    @Test func aTypeRegisteredUnderALongerNameIsANearMiss() {
        let container = DependencyContainer(name: "Networking")
        container.register { HTTPNearMissApi() }  // the result is not cast to the protocol resolved below
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as NearMissApi }
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("Near miss: HTTPNearMissApi is registered, a type other than NearMissApi"))
        #expect(description.contains("It is in Networking"))
    }

    @Test func unrelatedTypesAreNoNearMiss() {
        let container = DependencyContainer()
        container.register { Unrelated() }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Missing }
        #expect(error.map { "\($0)".contains("Near miss") } == false)
    }
}
