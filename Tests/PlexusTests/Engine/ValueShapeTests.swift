import Plexus
import Testing

// Every shape of value a user can register, resolve, inject into, pass as an argument or return from a typed
// accessor: a class, class-bound and non-class protocols, a composition, `Any`, `AnyObject`, a subclass whose
// injected properties sit in its superclass, a generic class, large, 16-byte-aligned and empty structs, a closure and
// an optional. The engine moves values without knowing their type statically; each of these must arrive whole, in
// debug, release and under AddressSanitizer (`.ci/run` runs this suite in all three).

private final class Dependency {}

private protocol Service {}
private protocol ClassService: AnyObject {}
private protocol Named {
    var name: String { get }
}

/// Receives auto-injected properties; registered as each of the existential shapes below.
private class Host: Service, ClassService, Named {
    @Injected var dependency: Dependency?
    @InjectedWeak var weakDependency: Dependency?
    var name: String { "host" }
}

/// Its injected properties sit in `Host`, its superclass.
private final class SubHost: Host {
    @Injected var own: Dependency?
}

private final class GenericHost<Payload>: Service {
    let payload: Payload
    @Injected var dependency: Dependency?
    init(_ payload: Payload) { self.payload = payload }
}

private struct Large: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8
    var text = "large"
}

private struct Aligned: Equatable {
    var lanes = SIMD4<Float>(1, 2, 3, 4)
}

private struct Empty: Equatable {}

/// Whether auto-injection filled the host's properties with the container's `Dependency` singleton.
private func isInjected(_ host: Host, in container: DependencyContainer) throws -> Bool {
    let dependency: Dependency = try container.resolve()
    return host.dependency === dependency && host.weakDependency === dependency
}

@Suite struct ValueShapeTests {
    let container = DependencyContainer()

    init() {
        container.register(.singleton) { Dependency() }
    }

    static let scopes: [ComponentScope] = [.unique, .shared, .singleton, .weakSingleton]

    // MARK: Auto-injection into a class registered as each existential shape

    @Test(arguments: scopes) func injectsAClassRegisteredAsANonClassProtocol(scope: ComponentScope) throws {
        container.register(scope) { Host() as Service }
        let service: Service = try container.resolve()
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    @Test(arguments: scopes) func injectsAClassRegisteredAsAClassBoundProtocol(scope: ComponentScope) throws {
        container.register(scope) { Host() as ClassService }
        let service: ClassService = try container.resolve()
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    @Test(arguments: scopes) func injectsAClassRegisteredAsAComposition(scope: ComponentScope) throws {
        container.register(scope) { Host() as Service & Named }
        let service: Service & Named = try container.resolve()
        #expect(service.name == "host")
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    @Test(arguments: scopes) func injectsAClassRegisteredAsAny(scope: ComponentScope) throws {
        container.register(scope) { Host() as Any }
        let value: Any = try container.resolve()
        #expect(try isInjected(try #require(value as? Host), in: container))
    }

    @Test(arguments: scopes) func injectsAClassRegisteredAsAnyObject(scope: ComponentScope) throws {
        container.register(scope) { Host() as AnyObject }
        let value: AnyObject = try container.resolve()
        #expect(try isInjected(try #require(value as? Host), in: container))
    }

    @Test func injectsAClassResolvedAsAnOptionalOfANonClassProtocol() throws {
        container.register { Host() as Service }
        let service: Service? = try container.resolve()
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    @Test func injectsAClassRegisteredAsAnOptionalOfANonClassProtocol() throws {
        container.register { Host() as Service? }
        let service: Service? = try container.resolve()
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    @Test func injectsEveryInstanceOfAnOptionalDefinitionWhateverTheFirstWas() throws {
        let calls = Counter()
        container.register(.unique) { calls.increment() == 1 ? nil : Host() as Service? }
        #expect(try container.resolve() as Service? == nil)
        for _ in 0..<3 {
            let service: Service? = try container.resolve()
            #expect(try isInjected(try #require(service as? Host), in: container))
        }
    }

    @Test func injectsTheSuperclassPropertiesOfASubclassRegisteredAsAProtocol() throws {
        container.register { SubHost() as Service }
        let host = try #require(try container.resolve() as Service as? SubHost)
        #expect(try isInjected(host, in: container))
        #expect(host.own === (try container.resolve() as Dependency))
    }

    @Test func injectsAGenericClassRegisteredAsAProtocol() throws {
        container.register { GenericHost(Large()) as Service }
        let host = try #require(try container.resolve() as Service as? GenericHost<Large>)
        #expect(host.payload == Large())
        #expect(host.dependency === (try container.resolve() as Dependency))
    }

    @Test func injectsAClassRegisteredAsANonClassProtocolThroughAForwardedType() throws {
        container.register { Host() }.implements(Service.self, Named.self)
        let named: Named = try container.resolve()
        #expect(try isInjected(try #require(named as? Host), in: container))
    }

    @Test func injectsAClassRegisteredAsANonClassProtocolWithArguments() throws {
        container.register(.unique) { (_: Int, _: Large) in Host() as Service }
        let service: Service = try container.resolve(arguments: 1, Large())
        #expect(try isInjected(try #require(service as? Host), in: container))
    }

    // MARK: Values of every shape, through each scope

    @Test(arguments: scopes) func valuesOfEveryShapeArriveWhole(scope: ComponentScope) throws {
        container.register(scope) { Large() }
        container.register(scope) { Aligned() }
        container.register(scope) { Empty() }
        container.register(scope) { { (x: Int) in x * 2 } as (Int) -> Int }
        container.register(scope) { Optional(Large(text: "optional")) }
        container.register(scope) { GenericHost("generic") }

        for _ in 0..<3 {
            #expect(try container.resolve() as Large == Large())
            #expect(try container.resolve() as Aligned == Aligned())
            #expect(try container.resolve() as Empty == Empty())
            #expect(try (container.resolve() as (Int) -> Int)(21) == 42)
            #expect(try container.resolve() as Large? == Large(text: "optional"))
            #expect(try (container.resolve() as GenericHost<String>).payload == "generic")
        }
    }

    @Test func sharedInstancesOfEveryShapeAreReusedWithinAGraph() throws {
        final class Pair {
            let first: Service & Named
            let second: Service & Named
            let large: (Large, Large)
            init(first: Service & Named, second: Service & Named, large: (Large, Large)) {
                self.first = first
                self.second = second
                self.large = large
            }
        }
        container.register(.shared) { Host() as Service & Named }
        container.register(.shared) { Large(text: "shared") }
        let c = container
        container.register(.unique) {
            Pair(first: try c.resolve(), second: try c.resolve(), large: (try c.resolve(), try c.resolve()))
        }
        let pair: Pair = try container.resolve()
        #expect((pair.first as? Host) === (pair.second as? Host))
        #expect(pair.large.0 == Large(text: "shared") && pair.large.1 == pair.large.0)
        #expect(try isInjected(try #require(pair.first as? Host), in: container))
    }

    @Test func sharedInstancesOfEveryClassShapeAreReusedWithinAGraphAndFreedAfterIt() throws {
        final class Graph {
            let hosts: (Host, Host)
            let subclassed: (Host, Host)
            let generic: (GenericHost<String>, GenericHost<String>)
            init(
                hosts: (Host, Host), subclassed: (Host, Host), generic: (GenericHost<String>, GenericHost<String>)
            ) {
                (self.hosts, self.subclassed, self.generic) = (hosts, subclassed, generic)
            }
        }
        let hooked = Collected<ObjectIdentifier>()
        container.register(.shared) { Host() }.resolvingProperties { _, host in hooked.append(ObjectIdentifier(host)) }
        container.register(.shared, tag: "sub") { SubHost() as Host }
            .resolvingProperties { _, host in hooked.append(ObjectIdentifier(host)) }
        container.register(.shared) { GenericHost("generic") }
            .resolvingProperties { _, host in hooked.append(ObjectIdentifier(host)) }
        let c = container
        container.register(.unique) {
            Graph(
                hosts: (try c.resolve(), try c.resolve()),
                subclassed: (try c.resolve(tag: "sub"), try c.resolve(tag: "sub")),
                generic: (try c.resolve(), try c.resolve()))
        }
        weak var host: Host?
        weak var subclassed: Host?
        weak var generic: GenericHost<String>?
        try {
            let graph: Graph = try container.resolve()
            #expect(graph.hosts.0 === graph.hosts.1 && type(of: graph.hosts.0) == Host.self)
            #expect(graph.subclassed.0 === graph.subclassed.1 && graph.subclassed.0 is SubHost)
            #expect(graph.generic.0 === graph.generic.1 && graph.generic.0.payload == "generic")
            #expect(try isInjected(graph.hosts.0, in: container) && isInjected(graph.subclassed.0, in: container))
            let expected = [graph.hosts.0, graph.subclassed.0, graph.generic.0 as AnyObject].map(ObjectIdentifier.init)
            #expect(Set(hooked.values) == Set(expected))
            (host, subclassed, generic) = (graph.hosts.0, graph.subclassed.0, graph.generic.0)
        }()
        // The graph kept each `.shared` instance boxed once; each is freed with the graph, no box left holding it.
        #expect(host == nil && subclassed == nil && generic == nil)
    }

    // MARK: Arguments of every shape

    @Test func runtimeArgumentsOfEveryShapeArriveWhole() throws {
        container.register(.unique) { (large: Large, aligned: Aligned, empty: Empty, service: Service & Named) in
            "\(large.text) \(aligned.lanes.sum()) \(empty == Empty()) \(service.name)"
        }
        let text: String = try container.resolve(arguments: Large(), Aligned(), Empty(), Host() as Service & Named)
        #expect(text == "large 10.0 true host")

        container.register(.unique) {
            (any: Any, object: AnyObject, closure: @escaping (Int) -> Int, optional: Large?) in
            "\(any) \(object is Host) \(closure(2)) \(optional?.a ?? 0)"
        }
        let other: String = try container.resolve(
            arguments: 7 as Any, Host() as AnyObject, { $0 + 1 } as (Int) -> Int, Large?.some(Large()))
        #expect(other == "7 true 3 1")
    }

    @Test func autoWiredArgumentsOfEveryShapeArriveWhole() throws {
        final class Wired {
            let summary: String
            let service: Service & Named
            init(large: Large, aligned: Aligned, empty: Empty, service: Service & Named, optional: Large?) {
                summary = "\(large.h) \(aligned.lanes.sum()) \(empty == Empty()) \(optional?.text ?? "none")"
                self.service = service
            }
        }
        container.register { Large() }
        container.register { Aligned() }
        container.register { Empty() }
        container.register { Host() as Service & Named }
        container.register(.unique) { (large: Large, aligned: Aligned, empty: Empty, service: Service & Named) in
            Wired(large: large, aligned: aligned, empty: empty, service: service, optional: large)
        }
        for _ in 0..<3 {
            let wired: Wired = try container.resolve()
            #expect(wired.summary == "8 10.0 true large")
            #expect(try isInjected(try #require(wired.service as? Host), in: container))
        }
    }
}

// MARK: Typed accessors whose instances are existentials of a class with injected properties

extension DependencyContainer {
    fileprivate var shapeService: Factory<any Service> { self { Host() } }
    fileprivate var shapeComposition: Factory<any Service & Named> { self { SubHost() }.singleton }
    fileprivate var shapeAny: Factory<Any> { self { Host() }.shared }
    fileprivate var shapeAligned: Factory<Aligned> { self { Aligned() }.cached }
    fileprivate var shapeEmpty: Factory<Empty> { self { Empty() }.singleton }
}

@Suite struct AccessorValueShapeTests {
    let container = DependencyContainer()

    init() {
        container.register(.singleton) { Dependency() }
    }

    @Test func accessorsInjectClassesBehindEveryExistentialShape() throws {
        for _ in 0..<3 {
            #expect(try isInjected(try #require(container.shapeService() as? Host), in: container))
            #expect(try isInjected(try #require(container.shapeComposition() as? SubHost), in: container))
            #expect(try isInjected(try #require(container.shapeAny() as? Host), in: container))
            #expect(container.shapeAligned() == Aligned())
            #expect(container.shapeEmpty() == Empty())
        }
    }

    @Test func overriddenAccessorsOfEveryShapeArriveWhole() throws {
        container.shapeService.replace { SubHost() }
        container.shapeAny.replace { Large() }
        #expect(try isInjected(try #require(container.shapeService() as? SubHost), in: container))
        #expect(container.shapeAny() as? Large == Large())
    }
}
