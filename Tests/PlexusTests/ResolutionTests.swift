import Plexus
import PlexusTesting
import Testing

private protocol Service: AnyObject {}
private final class ServiceImp: Service, Sendable {}
private final class OtherImp: Service, Sendable {}
private final class TaggedImp: Service, Sendable {}
private final class ForwardedImp: Service, Sendable {}
private final class Missing {}
private struct Cell: Equatable {
    let id: Int
    let title: String
}
/// Two types whose factories resolve each other (the first through an `Optional`).
private enum Cycle {
    final class Front {}
    final class Back {}
}

/// The unqualified name of a type.
private func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// A value type whose `Optional` needs a tag byte of its own (no spare bit patterns).
private struct Size: Equatable {
    let width: Double
    let height: Double
}

/// 128 bytes of stack.
private typealias StackJunk = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)

/// Calls `body` below `depth` stack frames that are each filled with a non-zero pattern.
@inline(never)
private func belowDirtyFrames<R>(_ depth: Int, _ body: () throws -> R) rethrows -> R {
    let pattern: UInt64 = 0xA5A5_A5A5_A5A5_A5A5
    var junk: StackJunk = (
        pattern, pattern, pattern, pattern, pattern, pattern, pattern, pattern,
        pattern, pattern, pattern, pattern, pattern, pattern, pattern, pattern
    )
    defer { withUnsafeMutableBytes(of: &junk) { withExtendedLifetime($0.baseAddress) {} } }
    return depth == 0 ? try body() : try belowDirtyFrames(depth - 1, body)
}

/// Calls `body` at many stack depths, after dirtying the stack each time, and returns every result.
///
/// A resolve that leaves part of its result uninitialized (an `Optional`'s tag byte) gives whatever the stack held
/// there, so one call may look right by chance; many calls on stacks dirtied in different places do not.
private func atManyStackDepths<R>(_ body: () throws -> R) rethrows -> [R] {
    var results: [R] = []
    for depth in 0..<24 {
        results.append(try belowDirtyFrames(depth, body))
        results.append(try body())
    }
    return results
}

/// How the runtime's generic `Optional` machinery (reflection, printing, unspecialized generics) sees each value.
///
/// A malformed `Optional` can compare equal in specialized code and still read as `nil` here, so tests of
/// `Optional` results look at them both ways.
private func described<T>(_ values: [T?]) -> Set<String> {
    Set(values.map { String(describing: $0) })
}

/// The name of a resolved instance's class, to tell which definition answered.
private func kind(_ instance: Any) -> String {
    String(describing: type(of: instance))
}

@Suite(.silencingPlexusLogs) struct ResolutionTests {
    let container = DependencyContainer()

    @Test func resolvesByReturnType() throws {
        container.register { ServiceImp() as Service }
        let service: Service = try container.resolve()
        #expect(service is ServiceImp)
    }

    @Test func resolvesWithAsCast() throws {
        container.register { ServiceImp() as Service }
        container.register(tag: "prod") { OtherImp() as Service }
        #expect(try container.resolve() as Service is ServiceImp)
        #expect(try container.resolve(tag: "prod") as Service is OtherImp)
    }

    @Test func concreteAndProtocolRegistrationsAreDistinctKeys() throws {
        container.register(.singleton) { ServiceImp() as Service }
        container.register(.singleton) { ServiceImp() }
        let asProtocol: Service = try container.resolve()
        let asConcrete: ServiceImp = try container.resolve()
        #expect(asProtocol !== asConcrete)
    }

    @Test func resolvesValueTypes() throws {
        container.register { 42 }
        container.register { "hello" }
        container.register { Cell(id: 1, title: "one") }
        #expect(try container.resolve() as Int == 42)
        #expect(try container.resolve() as String == "hello")
        #expect(try container.resolve() as Cell == Cell(id: 1, title: "one"))
    }

    @Test func resolvesFunctionTypes() throws {
        container.register { { 7 } as @Sendable () -> Int }
        let make: @Sendable () -> Int = try container.resolve()
        #expect(make() == 7)
    }

    @Test func weaklyTypedResolveReturnsTheInstance() throws {
        container.register { ServiceImp() as Service }
        let any = try container.resolve(Service.self)
        #expect(any is ServiceImp)
        #expect((any as? Service) != nil)
    }

    @Test func weaklyTypedResolveHonoursTags() throws {
        container.register { ServiceImp() as Service }
        container.register(tag: "prod") { OtherImp() as Service }
        #expect(try container.resolve(Service.self, tag: "prod") is OtherImp)
        #expect(try container.resolve(Service.self, tag: "unknown") is ServiceImp)
    }

    @Test func weaklyTypedResolveWithArguments() throws {
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }
        let any = try container.resolve(Cell.self, arguments: 3, "three")
        #expect(any as? Cell == Cell(id: 3, title: "three"))
    }

    @Test func weaklyTypedResolveWithTagAndArguments() throws {
        container.register(tag: "t") { (id: Int) in Cell(id: id, title: "tagged") }
        let any = try container.resolve(Cell.self, tag: "t", arguments: 5)
        #expect(any as? Cell == Cell(id: 5, title: "tagged"))
    }

    @Test func weaklyTypedResolveSharesTheSingleton() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let typed: Service = try container.resolve()
        let any = try container.resolve(Service.self)
        #expect(ObjectIdentifier(any as AnyObject) == ObjectIdentifier(typed))
    }

    @Test func weaklyTypedResolveOfUnknownTypeThrowsForRequestedKey() {
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve(Service.self, tag: "x") }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "x"))
    }

    @Test func weaklyTypedResolveWithWrongArgumentsThrows() {
        container.register { (id: Int) in Cell(id: id, title: "") }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve(Cell.self, arguments: "1") }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Cell.self, typeOfArguments: String.self))
    }

    @Test func optionalResolvesThroughTheWrappedDefinition() throws {
        container.register { ServiceImp() as Service }
        let service: Service? = try container.resolve()
        #expect(service is ServiceImp)
    }

    @Test func implicitlyUnwrappedOptionalResolvesThroughTheWrappedDefinition() throws {
        container.register { ServiceImp() as Service }
        let service: Service! = try container.resolve()
        #expect(service is ServiceImp)
    }

    @Test func optionalSharesTheSingletonOfTheWrappedDefinition() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let plain: Service = try container.resolve()
        let optional: Service? = try container.resolve()
        let unwrapped: Service! = try container.resolve()
        #expect(optional === plain)
        #expect(unwrapped === plain)
    }

    @Test(arguments: ComponentScope.allCases)
    func optionalOfValueTypeResolvesThroughTheWrappedDefinition(scope: ComponentScope) throws {
        container.register(scope) { 2.5 }
        container.register(scope) { 42 }
        container.register(scope) { Size(width: 1, height: 2) }
        container.register(scope) { UInt8(7) }
        container.register(scope) { (3, 4) }
        let doubles = try atManyStackDepths { () throws -> Double? in try container.resolve() }
        let ints = try atManyStackDepths { () throws -> Int? in try container.resolve() }
        let sizes = try atManyStackDepths { () throws -> Size? in try container.resolve() }
        let bytes = try atManyStackDepths { () throws -> UInt8? in try container.resolve() }
        let pairs = try atManyStackDepths { () throws -> (Int, Int)? in try container.resolve() }
        #expect(doubles.allSatisfy { $0 == 2.5 })
        #expect(described(doubles) == described([2.5]))
        #expect(ints.allSatisfy { $0 == 42 })
        #expect(described(ints) == described([42]))
        #expect(sizes.allSatisfy { $0 == Size(width: 1, height: 2) })
        #expect(described(sizes) == described([Size(width: 1, height: 2)]))
        #expect(bytes.allSatisfy { $0 == 7 })
        #expect(described(bytes) == described([UInt8(7)]))
        #expect(described(pairs) == described([(3, 4)]))
    }

    @Test func implicitlyUnwrappedOptionalOfValueType() throws {
        container.register(.singleton) { Size(width: 3, height: 4) }
        let sizes = try atManyStackDepths { () throws -> Size? in
            let size: Size! = try container.resolve()
            return size
        }
        #expect(described(sizes) == described([Size(width: 3, height: 4)]))
    }

    @Test func optionalOfValueTypeWithTagAndArguments() throws {
        container.register { (value: Double) in value * 2 }
        let doubled = try atManyStackDepths { () throws -> Double? in
            try container.resolve(tag: "any", arguments: 1.5)
        }
        #expect(described(doubled) == described([3.0]))
    }

    @Test func optionalOfValueTypeFromACollaborator() throws {
        let other = DependencyContainer()
        other.register(.singleton) { 2.5 }
        container.collaborate(with: other)
        let values = try atManyStackDepths { () throws -> Double? in try container.resolve() }
        #expect(described(values) == described([2.5]))
    }

    @Test func optionalOfValueTypeAutoWired() throws {
        container.register { 4 }
        container.register { (count: Int) in Double(count) / 2 }
        let values = try atManyStackDepths { () throws -> Double? in try container.resolve() }
        #expect(described(values) == described([2.0]))
    }

    @Test func optionalWeaklyTypedAndThroughForwarding() throws {
        container.register { Size(width: 5, height: 6) }
        #expect(try container.resolve(Size?.self) as? Size == Size(width: 5, height: 6))
        container.register { ServiceImp() }.implements(Service.self)
        let services = try atManyStackDepths { () throws -> Service? in try container.resolve() }
        #expect(services.allSatisfy { $0 is ServiceImp })
    }

    @Test func optionalWithTagAndArguments() throws {
        container.register(tag: "t") { (id: Int) in Cell(id: id, title: "t") }
        let cell: Cell? = try container.resolve(tag: "t", arguments: 9)
        #expect(cell == Cell(id: 9, title: "t"))
    }

    @Test func optionalFallsBackToUntaggedWrappedDefinition() throws {
        container.register { ServiceImp() as Service }
        let service: Service? = try container.resolve(tag: "anything")
        #expect(service is ServiceImp)
    }

    @Test func optionalOfUnregisteredTypeThrowsForTheOptionalKey() {
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service? }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Service?.self, typeOfArguments: Void.self))
    }

    @Test func optionalRegisteredExplicitlyBeatsTheWrappedDefinition() throws {
        container.register { ServiceImp() as Service }
        container.register { nil as Service? }
        let service: Service? = try container.resolve()
        #expect(service == nil)
        #expect(try container.resolve() as Service is ServiceImp)
    }

    // After its first answer, a `T?` request goes straight to `T`'s definition (a remembered route, taken by the
    // fast path); every change that can move the answer must still be seen.

    @Test func optionalRequestSeesAnOptionalDefinitionRegisteredAfterItsFirstAnswer() throws {
        container.register { ServiceImp() as Service }
        #expect(try container.resolve() as Service? is ServiceImp)
        #expect(try container.resolve() as Service? is ServiceImp)
        container.register { nil as Service? }
        #expect(try container.resolve() as Service? == nil)
    }

    @Test func optionalRequestFollowsTheWrappedDefinitionWhenItIsReplaced() throws {
        container.register { ServiceImp() as Service }
        #expect(try container.resolve() as Service? is ServiceImp)
        #expect(try container.resolve() as Service? is ServiceImp)
        container.register { OtherImp() as Service }
        #expect(try container.resolve() as Service? is OtherImp)
        #expect(try container.resolve() as Service? is OtherImp)
    }

    @Test func optionalRequestThrowsOnceTheWrappedDefinitionIsRemoved() throws {
        let definition = container.register { Size(width: 1, height: 1) }
        #expect(try container.resolve() as Size? == Size(width: 1, height: 1))
        #expect(try container.resolve() as Size? == Size(width: 1, height: 1))
        container.remove(definition)
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Size? }
        container.reset()
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Size? }
    }

    @Test(arguments: [ComponentScope.unique, .shared, .singleton, .weakSingleton])
    func optionalRequestKeepsTheScopeOfTheWrappedDefinition(scope: ComponentScope) throws {
        container.register(scope) { ServiceImp() as Service }
        let plain: Service = try container.resolve()
        let answers = try (0..<3).map { _ in try #require(try container.resolve() as Service?) }
        for answer in answers {
            #expect((answer === plain) == (scope == .singleton || scope == .weakSingleton))
        }
        #expect((answers[1] === answers[2]) == (scope == .singleton || scope == .weakSingleton))
    }

    @Test func optionalRequestInsideAFactoryNamesTheWrappedKeyInACycle() throws {
        container.register { (try container.resolve() as Cycle.Back?).map { _ in Cycle.Front() } ?? Cycle.Front() }
        container.register { () throws -> Cycle.Back in
            _ = try container.resolve() as Cycle.Front
            return Cycle.Back()
        }
        for _ in 0..<2 {
            let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Cycle.Front }
            guard case .circularDependency(let path)? = error else {
                Issue.record("expected circularDependency, got \(String(describing: error))")
                return
            }
            #expect(path.map { typeName($0.type) } == ["Front", "Back", "Front"])
        }
    }

    @Test func stringTagsMatchAsSwiftStringsCompare() throws {
        // Canonically equivalent spellings are equal strings, so they name the same tag.
        container.register(.singleton, tag: "caf\u{E9}") { ServiceImp() as Service }
        let composed: Service = try container.resolve(tag: "caf\u{E9}")
        #expect(try container.resolve(tag: "cafe\u{301}") as Service === composed)
        // ASCII tags, short (stored inline) and long (on the heap), built at run time.
        let long = String(repeating: "module.", count: 6) + "service"
        container.register(.singleton, tag: long) { OtherImp() as Service }
        container.register(.singleton, tag: "prod") { TaggedImp() as Service }
        #expect(try container.resolve(tag: String(long.dropFirst(0))) as Service is OtherImp)
        #expect(try container.resolve(tag: ["p", "r", "o", "d"].joined()) as Service is TaggedImp)
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "Prod") as Service }
    }

    /// Three characters outside ASCII are canonically equivalent to ASCII ones (KELVIN SIGN to "K", GREEK QUESTION
    /// MARK to ";", GREEK VARIA to "`"): Swift compares the strings equal, so they name the same tag. Before, the
    /// ASCII spelling and the other were hashed differently, and the lookup missed.
    @Test func aTagCanonicallyEqualToAnASCIITagNamesIt() throws {
        #expect("K;`" == "\u{212A}\u{037E}\u{1FEF}")
        container.register(.singleton, tag: "K;`") { ServiceImp() as Service }
        let ascii: Service = try container.resolve(tag: "K;`")
        #expect(try container.resolve(tag: "\u{212A}\u{037E}\u{1FEF}") as Service === ascii)
        container.register(.singleton, tag: "\u{212A}elvin") { TaggedImp() as Service }
        #expect(try container.resolve(tag: "Kelvin") as Service is TaggedImp)
    }

    @Test func untaggedDefinitionAnswersAnyTag() throws {
        container.register(.singleton) { ServiceImp() as Service }
        let untagged: Service = try container.resolve()
        #expect(try container.resolve(tag: "a") as Service === untagged)
        #expect(try container.resolve(tag: 1) as Service === untagged)
    }

    @Test func untaggedDefinitionWithArgumentsAnswersAnyTag() throws {
        container.register { (id: Int, title: String) in Cell(id: id, title: title) }
        let cell: Cell = try container.resolve(tag: "a", arguments: 1, "x")
        #expect(cell == Cell(id: 1, title: "x"))
    }

    @Test func taggedDefinitionDoesNotAnswerOtherTagsOrNone() {
        container.register(tag: "a") { ServiceImp() as Service }
        #expect(throws: ResolutionError.self) { _ = try container.resolve() as Service }
        #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "b") as Service }
    }

    @Test func exactTagBeatsUntagged() throws {
        container.register { ServiceImp() as Service }
        container.register(tag: "a") { TaggedImp() as Service }
        #expect(try kind(container.resolve(tag: "a") as Service) == "TaggedImp")
        #expect(try kind(container.resolve() as Service) == "ServiceImp")
        #expect(try kind(container.resolve(tag: "b") as Service) == "ServiceImp")
    }

    @Test func exactTagBeatsUntaggedRegisteredLater() throws {
        container.register(tag: "a") { TaggedImp() as Service }
        container.register { ServiceImp() as Service }
        #expect(try kind(container.resolve(tag: "a") as Service) == "TaggedImp")
    }

    @Test func exactTagBeatsUntaggedWithArguments() throws {
        container.register { (id: Int) in Cell(id: id, title: "untagged") }
        container.register(tag: "a") { (id: Int) in Cell(id: id, title: "a") }
        #expect(try (container.resolve(tag: "a", arguments: 1) as Cell).title == "a")
        #expect(try (container.resolve(tag: "b", arguments: 1) as Cell).title == "untagged")
        #expect(try (container.resolve(arguments: 1) as Cell).title == "untagged")
    }

    @Test func directDefinitionBeatsForwardingOfTheSameKey() throws {
        container.register { ForwardedImp() }.implements(Service.self)
        container.register { ServiceImp() as Service }
        container.register { TaggedImp() }.implements(Service.self)
        #expect(try kind(container.resolve() as Service) == "ServiceImp")
    }

    @Test func untaggedDirectDefinitionBeatsTaggedForwarding() throws {
        container.register { ServiceImp() as Service }
        container.register { ForwardedImp() }.implements(Service.self, tag: "a")
        #expect(try kind(container.resolve(tag: "a") as Service) == "ServiceImp")
    }

    @Test func taggedForwardingBeatsUntaggedForwarding() throws {
        container.register { ServiceImp() }.implements(Service.self)
        container.register { TaggedImp() }.implements(Service.self, tag: "a")
        #expect(try kind(container.resolve(tag: "a") as Service) == "TaggedImp")
        #expect(try kind(container.resolve(tag: "b") as Service) == "ServiceImp")
        #expect(try kind(container.resolve() as Service) == "ServiceImp")
    }

    @Test func forwardingIsUsedWhenNoDirectDefinitionMatches() throws {
        container.register(tag: "other") { ServiceImp() as Service }
        container.register { ForwardedImp() }.implements(Service.self)
        #expect(try kind(container.resolve(tag: "a") as Service) == "ForwardedImp")
    }

    @Test func localDefinitionBeatsCollaborator() throws {
        let other = DependencyContainer()
        other.register { OtherImp() as Service }
        container.collaborate(with: other)
        container.register { ServiceImp() as Service }
        #expect(try kind(container.resolve() as Service) == "ServiceImp")
    }

    @Test func localUntaggedFallbackBeatsCollaboratorsExactTag() throws {
        let other = DependencyContainer()
        other.register(tag: "a") { OtherImp() as Service }
        container.collaborate(with: other)
        container.register { ServiceImp() as Service }
        #expect(try kind(container.resolve(tag: "a") as Service) == "ServiceImp")
    }

    @Test func localForwardingBeatsCollaborator() throws {
        let other = DependencyContainer()
        other.register { OtherImp() as Service }
        container.collaborate(with: other)
        container.register { ForwardedImp() }.implements(Service.self)
        #expect(try kind(container.resolve() as Service) == "ForwardedImp")
    }

    @Test func localAutoWiringBeatsCollaborator() throws {
        let other = DependencyContainer()
        other.register { Cell(id: 99, title: "collaborator") }
        container.collaborate(with: other)
        container.register { 7 }
        container.register { (id: Int) in Cell(id: id, title: "auto-wired") }
        #expect(try container.resolve() as Cell == Cell(id: 7, title: "auto-wired"))
    }

    @Test func collaboratorAnswersWhatIsMissingLocally() throws {
        let other = DependencyContainer()
        other.register { OtherImp() as Service }
        container.collaborate(with: other)
        #expect(try kind(container.resolve() as Service) == "OtherImp")
    }

    @Test func notFoundCarriesTheRequestedKey() {
        container.register(tag: "a") { ServiceImp() as Service }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve(tag: "b") as Service }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Service.self, typeOfArguments: Void.self, tag: "b"))
        #expect(key.tag == .string("b"))
    }

    @Test func resolveInsideFactoryResolvesDependencies() throws {
        final class Consumer: Sendable {
            let service: Service & Sendable
            init(service: Service & Sendable) { self.service = service }
        }
        container.register { ServiceImp() as Service & Sendable }
        container.register { [container] in Consumer(service: try container.resolve()) }
        let consumer: Consumer = try container.resolve()
        #expect(consumer.service is ServiceImp)
    }

    @Test func missingDependencyInsideFactoryThrowsForTheDependency() {
        container.register { [container] () -> Cell in
            _ = try container.resolve() as Missing
            return Cell(id: 0, title: "")
        }
        let error = #expect(throws: ResolutionError.self) { _ = try container.resolve() as Cell }
        guard case .definitionNotFound(let key)? = error else {
            Issue.record("expected definitionNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == DefinitionKey(type: Missing.self, typeOfArguments: Void.self))
    }

    @Test func factoryMayRecoverFromAFailedInnerResolve() throws {
        container.register { [container] () -> Cell in
            let missing = try? container.resolve() as Missing
            return Cell(id: missing == nil ? 1 : 2, title: "")
        }
        #expect(try container.resolve() as Cell == Cell(id: 1, title: ""))
    }
}
