import Foundation
import Plexus
import PlexusTesting
import Testing

/// Whether two metatypes are the same type (`#expect` cannot compare metatypes with `==` directly).
private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

// MARK: - Auto-wiring a two-argument initializer

private protocol DataStore: AnyObject {}

private final class CoreDataStore: DataStore {}

private final class EventsListWireframe {
    let dataStore: DataStore

    init(dataStore: DataStore) {
        self.dataStore = dataStore
    }
}

// MARK: - Other fixtures

private final class Engine {
    let label: String

    init(_ label: String = "engine") {
        self.label = label
    }
}

private final class Wheels {
    let label: String

    init(_ label: String = "wheels") {
        self.label = label
    }
}

private final class Seats {}

private struct Missing {}

/// Says which factory made it, and from what.
private final class Car {
    let made: String
    let engine: Engine?
    let wheels: Wheels?

    init(_ made: String, engine: Engine? = nil, wheels: Wheels? = nil) {
        self.made = made
        self.engine = engine
        self.wheels = wheels
    }
}

private protocol Vehicle: AnyObject {
    var made: String { get }
}

extension Car: Vehicle {}

private final class Garage {
    let first: Car
    let second: Car

    init(first: Car, second: Car) {
        self.first = first
        self.second = second
    }
}

private final class Loop {}
private final class Knot {}

private enum PartError: Error, Equatable {
    case outOfStock
}

private func key(_ type: Any.Type, arguments: Any.Type = Void.self, tag: DependencyContainer.Tag? = nil)
    -> DefinitionKey
{
    DefinitionKey(type: type, typeOfArguments: arguments, tag: tag)
}

/// The error wrapped by `autoWiringFailed(type:underlyingError:)`, checking the type it names.
private func autoWiringUnderlyingError(_ error: ResolutionError?, type: Any.Type) -> (any Error)? {
    guard case .autoWiringFailed(let failedType, let underlying) = error else {
        Issue.record("expected autoWiringFailed, got \(String(describing: error))")
        return nil
    }
    #expect(sameType(failedType, type))
    return underlying
}

@Suite(.silencingPlexusLogs) struct AutoWiringTests {
    let container = DependencyContainer()

    @Test func factoryTakingItsDependencyAsArgumentIsAutoWired() throws {
        container.register(.singleton) { CoreDataStore() as DataStore }
        container.register { EventsListWireframe(dataStore: $0) }

        let wireframe: EventsListWireframe = try container.resolve()

        #expect(wireframe.dataStore === (try container.resolve() as DataStore))
    }

    @Test func severalArgumentsAreResolvedInOrder() throws {
        container.register { Engine() }
        container.register { Wheels() }
        container.register { (engine: Engine, wheels: Wheels, _: Seats) in
            Car("three", engine: engine, wheels: wheels)
        }
        container.register { Seats() }

        let car: Car = try container.resolve()

        #expect(car.made == "three")
        #expect(car.engine?.label == "engine")
        #expect(car.wheels?.label == "wheels")
    }

    @Test func definitionWithTheMostArgumentsWins() throws {
        container.register { Engine() }
        container.register { Wheels() }
        container.register { (engine: Engine) in Car("one", engine: engine) }
        container.register { (engine: Engine, wheels: Wheels) in Car("two", engine: engine, wheels: wheels) }

        #expect((try container.resolve() as Car).made == "two")
    }

    @Test func definitionWithoutArgumentsIsUsedBeforeAutoWiring() throws {
        container.register { Engine() }
        container.register { Car("plain") }
        container.register { (engine: Engine) in Car("wired", engine: engine) }

        #expect((try container.resolve() as Car).made == "plain")
    }

    @Test func sameTagIsPreferredThenNilTag() throws {
        container.register { Engine() }
        container.register { Wheels() }
        container.register(tag: "sport") { (engine: Engine) in Car("sport one", engine: engine) }
        container.register { (engine: Engine, wheels: Wheels) in Car("untagged two", engine: engine, wheels: wheels) }

        // The tagged definition wins for its tag even though the untagged one takes more arguments.
        #expect((try container.resolve(tag: "sport") as Car).made == "sport one")
        #expect((try container.resolve() as Car).made == "untagged two")
        #expect((try container.resolve(tag: "family") as Car).made == "untagged two")
    }

    @Test func requestedTagIsPassedDownToArgumentsWithNilTagFallback() throws {
        container.register(tag: "sport") { Engine("sport engine") }
        container.register { Engine("plain engine") }
        container.register { Wheels("plain wheels") }
        container.register { (engine: Engine, wheels: Wheels) in Car("wired", engine: engine, wheels: wheels) }

        let sport: Car = try container.resolve(tag: "sport")
        let plain: Car = try container.resolve()

        #expect(sport.engine?.label == "sport engine")
        #expect(sport.wheels?.label == "plain wheels")
        #expect(plain.engine?.label == "plain engine")
    }

    @Test func equallyLongDefinitionsWithDifferentArgumentsAreAmbiguous() throws {
        container.register { Engine() }
        container.register { Wheels() }
        container.register { (engine: Engine) in Car("engine", engine: engine) }
        container.register { (wheels: Wheels) in Car("wheels", wheels: wheels) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Car }
        let underlying = autoWiringUnderlyingError(error, type: Car.self)
        guard case .ambiguousDefinitions(let type, let definitions) = underlying as? ResolutionError else {
            Issue.record("expected ambiguousDefinitions, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(type, Car.self))
        #expect(Set(definitions) == [key(Car.self, arguments: Engine.self), key(Car.self, arguments: Wheels.self)])
        let description = error?.description ?? ""
        #expect(description.contains("Car"))
        #expect(description.contains("Engine"))
        #expect(description.contains("Wheels"))
    }

    @Test func ambiguityAmongFewerArgumentsDoesNotMatterWhenOneTakesMore() throws {
        container.register { Engine() }
        container.register { Wheels() }
        container.register { (engine: Engine) in Car("engine", engine: engine) }
        container.register { (wheels: Wheels) in Car("wheels", wheels: wheels) }
        container.register { (engine: Engine, wheels: Wheels) in Car("both", engine: engine, wheels: wheels) }

        #expect((try container.resolve() as Car).made == "both")
    }

    @Test func missingArgumentIsReportedInsideAutoWiringFailed() throws {
        container.register { (_: Missing) in Car("never") }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Car }
        let underlying = autoWiringUnderlyingError(error, type: Car.self)
        guard case .definitionNotFound(let missing) = underlying as? ResolutionError else {
            Issue.record("expected definitionNotFound, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(missing.type, Missing.self))
        #expect(error?.description.contains("Missing") == true)
    }

    @Test func argumentFactoryErrorIsReportedInsideAutoWiringFailed() throws {
        container.register { () throws -> Engine in throw PartError.outOfStock }
        container.register { (engine: Engine) in Car("never", engine: engine) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Car }
        let underlying = autoWiringUnderlyingError(error, type: Car.self)
        #expect(underlying as? PartError == .outOfStock)
    }

    @Test func containerIsUsableAfterAutoWiringFailed() throws {
        container.register { (engine: Engine) in Car("wired", engine: engine) }
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Car }
        let underlying = autoWiringUnderlyingError(error, type: Car.self)
        guard case .definitionNotFound(let missing) = underlying as? ResolutionError else {
            Issue.record("expected definitionNotFound, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(missing.type, Engine.self))

        container.register { Engine() }

        #expect((try container.resolve() as Car).made == "wired")
    }

    @Test func autoWiredSharedInstanceIsSharedWithExplicitArgumentsInTheSameGraph() throws {
        let calls = Counter()
        container.register { Engine() }
        container.register { (engine: Engine) -> Car in
            calls.increment()
            return Car("shared", engine: engine)
        }
        container.register { [unowned container] () throws -> Garage in
            Garage(first: try container.resolve(), second: try container.resolve(arguments: Engine("explicit")))
        }

        let garage: Garage = try container.resolve()

        #expect(garage.first === garage.second)
        #expect(calls.count == 1)
    }

    @Test func autoWiredSingletonIsTheSingletonOfItsDefinition() throws {
        let calls = Counter()
        container.register { Engine() }
        container.register(.singleton) { (engine: Engine) -> Car in
            calls.increment()
            return Car("singleton", engine: engine)
        }

        let wired: Car = try container.resolve()
        let explicit: Car = try container.resolve(arguments: Engine())
        let again: Car = try container.resolve()

        #expect(wired === explicit)
        #expect(wired === again)
        #expect(calls.count == 1)
    }

    @Test func resolvingWithArgumentsNeverAutoWires() throws {
        container.register { Wheels() }
        container.register { (engine: Engine, wheels: Wheels) in Car("two", engine: engine, wheels: wheels) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(arguments: Engine()) as Car }
        guard case .definitionNotFound(let missing) = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(missing == key(Car.self, arguments: Engine.self))
        #expect(error?.description.contains("never auto-wires") == true)
    }

    @Test func forwardingDefinitionIsAutoWired() throws {
        container.register { Engine() }
        container.register { (engine: Engine) in Car("forwarded", engine: engine) }
            .implements(Vehicle.self)

        let vehicle: Vehicle = try container.resolve()

        #expect(vehicle.made == "forwarded")
    }

    @Test func optionalResolvesThroughAutoWiring() throws {
        container.register { Engine() }
        container.register { (engine: Engine) in Car("wired", engine: engine) }

        let car: Car? = try container.resolve()

        #expect(car?.made == "wired")
    }

    @Test func autoWiringWorksThroughCollaborators() throws {
        let child = DependencyContainer()
        let root = DependencyContainer()
        root.register { Engine("root engine") }
        root.register { (engine: Engine) in Car("root", engine: engine) }
        child.collaborate(with: root)

        let car: Car = try child.resolve()

        #expect(car.made == "root")
        #expect(car.engine?.label == "root engine")
    }

    @Test func localAutoWiringComesBeforeCollaborators() throws {
        let child = DependencyContainer()
        let root = DependencyContainer()
        root.register { Car("root plain") }
        child.register { Engine() }
        child.register { (engine: Engine) in Car("child wired", engine: engine) }
        child.collaborate(with: root)

        #expect((try child.resolve() as Car).made == "child wired")
    }

    @Test func autoWiringCycleThrowsInsteadOfRecursing() throws {
        container.register { (_: Knot) in Loop() }
        container.register { (_: Loop) in Knot() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Loop }

        // The cycle is reported somewhere inside the auto-wiring errors.
        var current: (any Error)? = error
        var foundCycle = false
        while let next = current as? ResolutionError {
            switch next {
            case .circularDependency(let path):
                foundCycle = path.first == path.last && path.contains { $0.type == Loop.self }
                current = nil
            case .autoWiringFailed(_, let underlying):
                current = underlying
            default:
                current = nil
            }
        }
        #expect(foundCycle, "expected a circularDependency inside \(String(describing: error))")
    }

    /// A first resolve auto-wires on the fast path, whose frames point at the key a remembered route keeps: the cycle
    /// names each level by the key it was requested under (no arguments, the tag passed down).
    @Test func anAutoWiringCycleNamesTheKeysRequested() throws {
        container.register(tag: "t") { (_: Knot) in Loop() }
        container.register(tag: "t") { (_: Loop) in Knot() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(tag: "t") as Loop }

        var current: (any Error)? = error
        var path: [DefinitionKey] = []
        while let next = current as? ResolutionError {
            switch next {
            case .circularDependency(let cycle):
                path = cycle
                current = nil
            case .autoWiringFailed(_, let underlying):
                current = underlying
            default:
                current = nil
            }
        }
        #expect(path.map { ObjectIdentifier($0.type) } == [Loop.self, Knot.self, Loop.self].map(ObjectIdentifier.init))
        let withoutArguments = ObjectIdentifier(Void.self)
        #expect(path.allSatisfy { ObjectIdentifier($0.typeOfArguments) == withoutArguments && $0.tag == "t" })
    }
}
