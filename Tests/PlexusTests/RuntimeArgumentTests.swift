import Foundation
import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject, Sendable {}
private final class ServiceImp: Service {}
private class Base: @unchecked Sendable {}
private final class Derived: Base, @unchecked Sendable {}

/// Records the arguments its factory received.
private final class Received: Sendable {
    let values: [String]
    init(_ values: Any...) { self.values = values.map { "\($0)" } }
}

@Suite(.silencingPlexusLogs) struct RuntimeArgumentTests {
    let container = DependencyContainer()

    /// Expects `body` to throw `definitionNotFound` and returns the error's key and description.
    private func notFound(
        _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (key: DefinitionKey, description: String)? {
        let error = #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) { try body() }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record(
                "expected definitionNotFound, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return (key, "\(error!)")
    }

    @Test(arguments: [0, 1, 3, 7])
    func sumsArgumentsThroughTheOneGenericRegisterAndResolve(count: Int) throws {
        container.register { 0 }
        container.register { (a: Int) in a }
        container.register { (a: Int, b: Int, c: Int) in a + b + c }
        container.register { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) in a + b + c + d + e + f + g }
        let sum: Int
        switch count {
        case 0: sum = try container.resolve()
        case 1: sum = try container.resolve(arguments: 1)
        case 3: sum = try container.resolve(arguments: 1, 2, 3)
        default: sum = try container.resolve(arguments: 1, 2, 3, 4, 5, 6, 7)
        }
        #expect(sum == count * (count + 1) / 2)
    }

    @Test func zeroArguments() throws {
        container.register { Received() }
        #expect(try (container.resolve() as Received).values == [])
    }

    @Test func oneArgument() throws {
        container.register { (a: Int) in Received(a) }
        #expect(try (container.resolve(arguments: 5) as Received).values == ["5"])
    }

    @Test func threeArgumentsOfDifferentTypes() throws {
        container.register { (a: Int, b: String, c: Double) in Received(a, b, c) }
        #expect(try (container.resolve(arguments: 1, "two", 3.5) as Received).values == ["1", "two", "3.5"])
    }

    @Test func sevenArgumentsOfDifferentTypes() throws {
        container.register { (a: Int, b: String, c: Double, d: Bool, e: Character, f: [Int], g: Int?) in
            Received(a, b, c, d, e, f, g as Any)
        }
        let received: Received = try container.resolve(arguments: 1, "two", 3.5, true, "e" as Character, [6], 7 as Int?)
        #expect(received.values == ["1", "two", "3.5", "true", "e", "[6]", "Optional(7)"])
    }

    @Test func argumentsAreForwardedInOrder() throws {
        container.register { (a: String, b: String, c: String) in Received(a, b, c) }
        #expect(try (container.resolve(arguments: "x", "y", "z") as Received).values == ["x", "y", "z"])
    }

    @Test func wrongOrderThrowsWithNearMiss() throws {
        container.register { (a: Int, b: String) in Received(a, b) }
        let failure = try #require(notFound { _ = try container.resolve(arguments: "a", 1) as Received })
        #expect(failure.key == DefinitionKey(type: Received.self, typeOfArguments: (String, Int).self))
        #expect(failure.description.contains("(String, Int)"))
        #expect(failure.description.contains("registered with arguments (Int, String)"))
    }

    @Test func tooFewArgumentsThrowWithNearMiss() throws {
        container.register { (a: Int, b: String) in Received(a, b) }
        let failure = try #require(notFound { _ = try container.resolve(arguments: 1) as Received })
        #expect(failure.key == DefinitionKey(type: Received.self, typeOfArguments: Int.self))
        #expect(failure.description.contains("registered with arguments (Int, String)"))
    }

    @Test func tooManyArgumentsThrowWithNearMiss() throws {
        container.register { (a: Int, b: String) in Received(a, b) }
        let failure = try #require(notFound { _ = try container.resolve(arguments: 1, "b", 2) as Received })
        #expect(failure.key == DefinitionKey(type: Received.self, typeOfArguments: (Int, String, Int).self))
        #expect(failure.description.contains("registered with arguments (Int, String)"))
    }

    @Test func wrongArgumentTypeThrowsWithNearMiss() throws {
        container.register { (a: Int, b: String) in Received(a, b) }
        let failure = try #require(notFound { _ = try container.resolve(arguments: 1.0, "b") as Received })
        #expect(failure.key == DefinitionKey(type: Received.self, typeOfArguments: (Double, String).self))
        #expect(failure.description.contains("registered with arguments (Int, String)"))
    }

    @Test func argumentsForADefinitionWithoutArgumentsThrowWithNearMiss() throws {
        container.register { Received() }
        let failure = try #require(notFound { _ = try container.resolve(arguments: 1) as Received })
        #expect(failure.description.contains("without arguments"))
    }

    @Test func noArgumentsForADefinitionWithArgumentsAutoWiresInsteadOfMatching() throws {
        container.register { (a: String) in Received(a) }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Received }
        guard case .autoWiringFailed(let type, let underlying)? = error,
            case .definitionNotFound(let key)? = underlying as? ResolutionError
        else {
            Issue.record("expected autoWiringFailed(definitionNotFound), got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Received.self))
        #expect(key == DefinitionKey(type: String.self, typeOfArguments: Void.self))
        container.register { "auto" }
        #expect(try (container.resolve() as Received).values == ["auto"])
    }

    @Test func argumentsMatchByExactStaticType() throws {
        container.register { (value: Int?) in Received(value as Any) }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(arguments: 5) as Received }
        #expect(try (container.resolve(arguments: 5 as Int?) as Received).values == ["Optional(5)"])
        #expect(try (container.resolve(arguments: nil as Int?) as Received).values == ["nil"])
    }

    @Test func subclassArgumentDoesNotMatchBaseClassParameter() throws {
        container.register { (base: Base) in Received(base) }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(arguments: Derived()) as Received }
        _ = try container.resolve(arguments: Derived() as Base) as Received
    }

    @Test func protocolArgument() throws {
        container.register { (service: Service) in Received(service is ServiceImp) }
        #expect(try (container.resolve(arguments: ServiceImp() as Service) as Received).values == ["true"])
    }

    @Test func definitionsOfOneTypeWithDifferentArgumentsAreIndependent() throws {
        container.register { Received("none") }
        container.register { (a: Int) in Received("int", a) }
        container.register { (a: String) in Received("string", a) }
        container.register { (a: Int, b: String) in Received("pair", a, b) }
        container.register { (a: String, b: Int) in Received("swapped", a, b) }
        #expect(try (container.resolve() as Received).values == ["none"])
        #expect(try (container.resolve(arguments: 1) as Received).values == ["int", "1"])
        #expect(try (container.resolve(arguments: "s") as Received).values == ["string", "s"])
        #expect(try (container.resolve(arguments: 1, "s") as Received).values == ["pair", "1", "s"])
        #expect(try (container.resolve(arguments: "s", 1) as Received).values == ["swapped", "s", "1"])
    }

    @Test func untaggedDefinitionWithArgumentsAnswersATaggedResolve() throws {
        container.register { (a: Int) in Received(a) }
        #expect(try (container.resolve(tag: "any", arguments: 3) as Received).values == ["3"])
    }

    @Test func taggedDefinitionWithArgumentsBeatsUntagged() throws {
        container.register { (a: Int) in Received("untagged", a) }
        container.register(tag: "t") { (a: Int) in Received("tagged", a) }
        #expect(try (container.resolve(tag: "t", arguments: 3) as Received).values == ["tagged", "3"])
    }

    @Test func uniqueWithArgumentsMakesAnInstancePerResolve() throws {
        container.register(.unique) { (a: Int) in Received(a) }
        let one: Received = try container.resolve(arguments: 1)
        let two: Received = try container.resolve(arguments: 2)
        #expect(one !== two)
        #expect(one.values == ["1"])
        #expect(two.values == ["2"])
    }

    @Test func singletonWithArgumentsIsOnePerDefinition() throws {
        let counter = Counter()
        container.register(.singleton) { (a: Int) -> Received in
            counter.increment()
            return Received(a)
        }
        let first: Received = try container.resolve(arguments: 1)
        let second: Received = try container.resolve(arguments: 2)
        #expect(first === second)
        #expect(first.values == ["1"])
        #expect(counter.count == 1)
    }

    @Test func argumentsReachFactoriesResolvedInsideAGraph() throws {
        final class Screen: Sendable {
            let title: Received
            init(title: Received) { self.title = title }
        }
        container.register { (title: String) in Received(title) }
        container.register { [container] (title: String) in Screen(title: try container.resolve(arguments: title)) }
        let screen: Screen = try container.resolve(arguments: "Inbox")
        #expect(screen.title.values == ["Inbox"])
    }

    @Test func weaklyTypedResolveWithArgumentsMatchesExactly() throws {
        container.register { (a: Int, b: String) in Received(a, b) }
        let any = try container.resolve(Received.self, arguments: 1, "b")
        #expect((any as? Received)?.values == ["1", "b"])
        #expect(throws: ResolutionError.self) { _ = try container.resolve(Received.self, arguments: "b", 1) }
    }
}
