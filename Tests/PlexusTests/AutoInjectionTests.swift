import Foundation
import Plexus
import PlexusTesting
import Testing

/// Whether two metatypes are the same type (`#expect` cannot compare metatypes with `==` directly).
private func sameType(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

// MARK: - Injected types

private final class Api {
    let name: String
    var didInjectCalls = 0

    init(_ name: String = "api") {
        self.name = name
    }
}

private protocol Delegate: AnyObject {}

private final class AppDelegate: Delegate {}

private struct Config: Equatable {
    let value: Int
}

private struct Missing {}
private protocol Repository: AnyObject {}
private final class RemoteRepository: Repository {}
/// A `Repository` that wraps another one, resolved under another tag.
private final class CachingRepository: Repository {
    let inner: Repository
    init(inner: Repository) { self.inner = inner }
}
private final class RepositoryHost {
    @Injected(required: false, tag: "cached") var repository: Repository?
}

private final class Broken {}

private final class NeedsMissing {}

private enum InjectionError: Error, Equatable {
    case broken
    case custom
}

// MARK: - Hosts

private final class Client {
    @Injected var api: Api?
    @InjectedWeak var delegate: Delegate?
}

private final class PlainValues {
    let api = Injected<Api>()
    let delegate = InjectedWeak<Delegate>()
}

private final class OptionalApi {
    @Injected(required: false) var api: Api?
}

private final class OptionalBroken {
    @Injected(required: false) var broken: Broken?
}

private final class OptionalNeedsMissing {
    @Injected(required: false) var needsMissing: NeedsMissing?
}

private final class RequiredMissing {
    @Injected var missing: Missing?
}

private final class Tagged {
    @Injected var inherited: Api?
    @Injected(tag: nil) var untagged: Api?
    @Injected(tag: "explicit") var explicit: Api?
    @InjectedWeak(tag: "explicit") var weakExplicit: Delegate?
}

private final class Notified {
    @Injected(didInject: { $0.didInjectCalls += 1 }) var api: Api?
    @Injected(tag: "explicit", didInject: { $0.didInjectCalls += 1 }) var explicit: Api?
}

private final class WithConfig {
    @Injected var config: Config?
}

private struct ValueHost {
    @Injected var api: Api?
}

private final class WithInitialValue {
    @Injected var api: Api? = Api("initial")
}

/// Records the order in which its properties' types are resolved.
private final class OrderProbe {
    let name: String

    init(_ name: String) {
        self.name = name
    }
}

private final class First {}
private final class Second {}
private final class Third {}

private class BaseHost {
    @Injected var first: First?
}

private class MiddleHost: BaseHost {
    @Injected var second: Second?
}

private final class DerivedHost: MiddleHost {
    @Injected var third: Third?
}

// MARK: - A cycle closed by a weak property

private final class Parent {
    @Injected var child: Child?
}

private final class Child {
    @InjectedWeak var parent: Parent?
}

// MARK: - A custom box

/// A box of our own: resolves untagged, remembers the container and the context it saw.
private final class Remembered<T>: AutoInjectedPropertyBox {
    static var wrappedType: Any.Type { T.self }

    var value: T?
    var container: ObjectIdentifier?
    var injectedInProperty: String?
    var resolveCalls = 0

    func resolve(_ container: DependencyContainer) throws {
        resolveCalls += 1
        self.container = ObjectIdentifier(container)
        injectedInProperty = container.context?.injectedInProperty
        value = try container.resolve() as T
    }
}

private final class Failing: AutoInjectedPropertyBox {
    static var wrappedType: Any.Type { Api.self }

    func resolve(_ container: DependencyContainer) throws {
        throw InjectionError.custom
    }
}

private final class CustomHost {
    let remembered = Remembered<Api>()
}

private final class FailingHost {
    let failing = Failing()
}

/// Records events; `@unchecked Sendable` is safe because `entries` is only touched under `lock`.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    var events: [String] { lock.withLock { entries } }

    func record(_ event: String) {
        lock.withLock { entries.append(event) }
    }
}

/// The checks common to `autoInjectionFailed` errors.
private func expectAutoInjectionFailed(
    _ error: ResolutionError?, label expectedLabel: String, type expectedType: Any.Type,
    sourceLocation: SourceLocation = #_sourceLocation
) -> (any Error)? {
    guard case .autoInjectionFailed(let label, let type, let underlying) = error else {
        Issue.record("expected autoInjectionFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
        return nil
    }
    #expect(label == expectedLabel, sourceLocation: sourceLocation)
    #expect(sameType(type, expectedType), sourceLocation: sourceLocation)
    #expect(error?.description.contains("`\(expectedLabel)`") == true, sourceLocation: sourceLocation)
    return underlying
}

@Suite(.silencingPlexusLogs) struct AutoInjectionTests {
    let container = DependencyContainer()

    // MARK: Wrappers and plain values

    @Test func injectedAndInjectedWeakPropertiesAreFilled() throws {
        container.register { Api() }
        container.register(.singleton) { AppDelegate() as Delegate }
        container.register { Client() }

        let client: Client = try container.resolve()

        #expect(client.api?.name == "api")
        #expect(client.delegate === (try container.resolve() as Delegate))
    }

    @Test func plainValuesAreFilled() throws {
        container.register { Api() }
        container.register(.singleton) { AppDelegate() as Delegate }
        container.register { PlainValues() }

        let host: PlainValues = try container.resolve()

        #expect(host.api.value?.name == "api")
        #expect(host.delegate.value === (try container.resolve() as Delegate))
    }

    @Test func valueTypesAreInjected() throws {
        container.register { Config(value: 42) }
        container.register { WithConfig() }

        #expect((try container.resolve() as WithConfig).config == Config(value: 42))
    }

    @Test func structHostsAreInjected() throws {
        container.register { Api() }
        container.register { ValueHost() }

        #expect((try container.resolve() as ValueHost).api?.name == "api")
    }

    @Test func injectionReplacesTheInitialValue() throws {
        let host = WithInitialValue()
        #expect(host.api?.name == "initial")
        container.register { Api("injected") }
        container.register { WithInitialValue() }

        #expect((try container.resolve() as WithInitialValue).api?.name == "injected")
    }

    @Test func injectedWeakDoesNotKeepItsValueAlive() throws {
        container.register { AppDelegate() as Delegate }
        container.register { Client() }
        container.register { Api() }

        let client: Client = try container.resolve()

        // The shared delegate was only held by the graph, which has ended.
        #expect(client.delegate == nil)
        #expect(client.api != nil)
    }

    // MARK: required

    @Test func requiredPropertyThatCannotBeResolvedThrows() throws {
        container.register { RequiredMissing() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as RequiredMissing }

        let underlying = expectAutoInjectionFailed(error, label: "missing", type: Missing.self)
        guard case .definitionNotFound(let key) = underlying as? ResolutionError else {
            Issue.record("expected definitionNotFound, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(key.type, Missing.self))
        #expect(error?.description.contains("Missing") == true)
    }

    @Test func requiredPropertyFactoryErrorIsWrapped() throws {
        container.register { () throws -> Api in throw InjectionError.broken }
        container.register(.singleton) { AppDelegate() as Delegate }
        container.register { Client() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Client }

        let underlying = expectAutoInjectionFailed(error, label: "api", type: Api.self)
        #expect(underlying as? InjectionError == .broken)
    }

    @Test func optionalPropertyStaysNilWhenItsTypeIsNotRegistered() throws {
        container.register { OptionalApi() }

        let host: OptionalApi = try container.resolve()

        #expect(host.api == nil)
    }

    @Test func optionalPropertyIsFilledWhenRegistered() throws {
        container.register { Api() }
        container.register { OptionalApi() }

        #expect((try container.resolve() as OptionalApi).api != nil)
    }

    @Test func optionalPropertyStillThrowsWhenItsFactoryThrows() throws {
        container.register { () throws -> Broken in throw InjectionError.broken }
        container.register { OptionalBroken() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as OptionalBroken }

        let underlying = expectAutoInjectionFailed(error, label: "broken", type: Broken.self)
        #expect(underlying as? InjectionError == .broken)
    }

    /// The missing dependency has the property's type, under another tag: it is not the property's own key, so
    /// the failure propagates instead of leaving the property `nil`.
    @Test func optionalPropertyStillThrowsWhenADependencyOfTheSameTypeIsMissing() throws {
        container.register(tag: "cached") { [unowned container] () throws -> Repository in
            CachingRepository(inner: try container.resolve(tag: "remote") as Repository)
        }
        container.register { RepositoryHost() }
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as RepositoryHost }
        _ = expectAutoInjectionFailed(error, label: "repository", type: Repository.self)
        container.register(tag: "remote") { RemoteRepository() as Repository }
        #expect(try (container.resolve() as RepositoryHost).repository is CachingRepository)
    }

    @Test func optionalPropertyStillThrowsWhenItsOwnDependencyIsMissing() throws {
        container.register { [unowned container] () throws -> NeedsMissing in
            _ = try container.resolve() as Missing
            return NeedsMissing()
        }
        container.register { OptionalNeedsMissing() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as OptionalNeedsMissing }

        let underlying = expectAutoInjectionFailed(error, label: "needsMissing", type: NeedsMissing.self)
        guard case .definitionNotFound(let key) = underlying as? ResolutionError else {
            Issue.record("expected definitionNotFound, got \(String(describing: underlying))")
            return
        }
        #expect(sameType(key.type, Missing.self))
    }

    // MARK: tag

    private func registerTaggedApis() {
        container.register { Api("untagged") }
        container.register(tag: "graph") { Api("graph") }
        container.register(tag: "explicit") { Api("explicit") }
        container.register(.singleton, tag: "explicit") { AppDelegate() as Delegate }
        container.register { Tagged() }
    }

    @Test func propertyWithoutTagInheritsTheTagOfTheGraph() throws {
        registerTaggedApis()

        let tagged: Tagged = try container.resolve(tag: "graph")

        #expect(tagged.inherited?.name == "graph")
    }

    @Test func inheritedTagFallsBackToUntagged() throws {
        registerTaggedApis()

        #expect((try container.resolve() as Tagged).inherited?.name == "untagged")
        #expect((try container.resolve(tag: "other") as Tagged).inherited?.name == "untagged")
    }

    @Test func explicitNilTagMeansUntagged() throws {
        registerTaggedApis()

        let tagged: Tagged = try container.resolve(tag: "graph")

        #expect(tagged.untagged?.name == "untagged")
    }

    @Test func explicitTagIsUsedWhateverTheGraphTag() throws {
        registerTaggedApis()

        let tagged: Tagged = try container.resolve(tag: "graph")
        let delegate: Delegate = try container.resolve(tag: "explicit")

        #expect(tagged.explicit?.name == "explicit")
        #expect(tagged.weakExplicit === delegate)
    }

    // MARK: didInject

    @Test func didInjectIsCalledWithTheInjectedValue() throws {
        container.register(.unique) { Api() }
        container.register(.unique, tag: "explicit") { Api("explicit") }
        container.register { Notified() }

        let host: Notified = try container.resolve()

        #expect(host.api?.didInjectCalls == 1)
        #expect(host.explicit?.name == "explicit")
        #expect(host.explicit?.didInjectCalls == 1)
    }

    @Test func didInjectIsNotCalledForAnOptionalPropertyLeftNil() throws {
        final class Quiet {
            @Injected(required: false, didInject: { _ in Issue.record("didInject called without a value") })
            var api: Api?
        }
        container.register { Quiet() }

        #expect((try container.resolve() as Quiet).api == nil)
    }

    // MARK: Order

    @Test func superclassPropertiesAreInjectedFirst() throws {
        let log = EventLog()
        container.register { () -> First in
            log.record("first")
            return First()
        }
        container.register { () -> Second in
            log.record("second")
            return Second()
        }
        container.register { () -> Third in
            log.record("third")
            return Third()
        }
        container.register { DerivedHost() }

        let host: DerivedHost = try container.resolve()

        #expect(log.events == ["first", "second", "third"])
        #expect(host.first != nil && host.second != nil && host.third != nil)
    }

    // MARK: On and off

    @Test func containerCanTurnAutoInjectionOff() throws {
        let container = DependencyContainer(autoInjectProperties: false)
        container.register { Api() }
        container.register { Client() }

        #expect(!container.autoInjectProperties)
        #expect((try container.resolve() as Client).api == nil)
    }

    @Test func definitionCanTurnAutoInjectionOff() throws {
        container.register { Api() }
        container.register { Client() }.autoInjectingProperties(false)
        container.register { OptionalApi() }

        #expect(container.autoInjectProperties)
        #expect((try container.resolve() as Client).api == nil)
        #expect((try container.resolve() as OptionalApi).api != nil)
    }

    @Test func definitionCanTurnAutoInjectionOnInAContainerThatHasItOff() throws {
        let container = DependencyContainer(autoInjectProperties: false)
        container.register { Api() }
        container.register(.singleton) { AppDelegate() as Delegate }
        container.register { Client() }.autoInjectingProperties()
        container.register { OptionalApi() }.autoInjectingProperties(true)
        container.register { WithConfig() }

        #expect((try container.resolve() as Client).api != nil)
        #expect((try container.resolve() as OptionalApi).api != nil)
        #expect((try container.resolve() as WithConfig).config == nil)
    }

    @Test func autoInjectionOffSkipsEvenRequiredProperties() throws {
        container.register { RequiredMissing() }.autoInjectingProperties(false)

        #expect((try container.resolve() as RequiredMissing).missing == nil)
    }

    // MARK: Collaboration

    @Test func propertiesAreInjectedFromCollaborators() throws {
        let root = DependencyContainer()
        root.register { Api("root") }
        container.register { OptionalApi() }
        container.collaborate(with: root)

        #expect((try container.resolve() as OptionalApi).api?.name == "root")
    }

    @Test func hostFoundInCollaboratorIsInjectedByItsOwner() throws {
        let root = DependencyContainer()
        root.register { Api("root") }
        root.register { CustomHost() }
        container.collaborate(with: root)

        let host: CustomHost = try container.resolve()

        #expect(host.remembered.value?.name == "root")
        #expect(host.remembered.container == ObjectIdentifier(root))
    }

    @Test func collaboratorSettingOfAutoInjectionAppliesToItsDefinitions() throws {
        let root = DependencyContainer(autoInjectProperties: false)
        root.register { Api("root") }
        root.register { OptionalApi() }
        container.collaborate(with: root)

        #expect((try container.resolve() as OptionalApi).api == nil)
    }

    // MARK: Cycles and lifetime

    @Test func weakBackReferenceClosesTheCycleAndBothObjectsAreFreed() throws {
        let parentCalls = EventLog()
        container.register { () -> Parent in
            parentCalls.record("parent")
            return Parent()
        }
        container.register { Child() }
        weak var weakParent: Parent?
        weak var weakChild: Child?
        do {
            let parent: Parent = try container.resolve()
            let child = try #require(parent.child)
            #expect(child.parent === parent)
            weakParent = parent
            weakChild = child
        }

        #expect(parentCalls.events == ["parent"])
        #expect(weakParent == nil)
        #expect(weakChild == nil)
    }

    // MARK: Custom boxes

    @Test func customBoxIsResolvedWithTheOwningContainer() throws {
        container.register { Api("custom") }
        container.register { CustomHost() }

        let host: CustomHost = try container.resolve()

        #expect(host.remembered.value?.name == "custom")
        #expect(host.remembered.container == ObjectIdentifier(container))
        #expect(host.remembered.resolveCalls == 1)
    }

    @Test func customBoxSeesThePropertyInTheContext() throws {
        container.register { Api("custom") }
        container.register { CustomHost() }

        let host: CustomHost = try container.resolve()

        #expect(host.remembered.injectedInProperty == "remembered")
    }

    @Test func customBoxErrorIsWrappedWithItsLabelAndType() throws {
        container.register { FailingHost() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as FailingHost }

        let underlying = expectAutoInjectionFailed(error, label: "failing", type: Api.self)
        #expect(underlying as? InjectionError == .custom)
    }

    @Test func wrappedTypeIsTheInjectedType() {
        #expect(sameType(Injected<Api>.wrappedType, Api.self))
        #expect(sameType(InjectedWeak<Delegate>.wrappedType, Delegate.self))
        #expect(sameType(Remembered<Config>.wrappedType, Config.self))
    }
}

/// `@Injected` only in the superclass.
private class InjectingBase {
    @Injected var api: Api?
}
private final class PlainSubclass: InjectingBase {}

/// A base without `@Injected` properties, and a subclass that adds one.
private class PlainBase {}
private final class InjectingSubclass: PlainBase {
    @Injected var api: Api?
}

@Suite struct AutoInjectionDynamicTypeTests {
    let container = DependencyContainer()

    @Test func propertiesOnlyInTheSuperclassAreInjected() throws {
        container.register { Api() }
        container.register { PlainSubclass() }

        #expect((try container.resolve() as PlainSubclass).api != nil)
    }

    @Test func aSubclassRegisteredAsItsBaseIsInjected() throws {
        container.register { Api() }
        container.register { InjectingSubclass() as PlainBase }

        let instance = try #require(try container.resolve() as PlainBase as? InjectingSubclass)

        #expect(instance.api != nil)
    }

    @Test func aHostRegisteredAsAnOptionalIsInjected() throws {
        container.register { Api() }
        container.register { InjectingSubclass() as InjectingSubclass? }

        let instance = try #require(try container.resolve() as InjectingSubclass?)

        #expect(instance.api != nil)
    }
}

/// Resolved first by a container that does not auto-inject, then by one that does.
private final class LearnedTwice {
    @Injected var api: Api?
}

@Suite struct AutoInjectionLearningTests {
    @Test func aClassFirstResolvedWithoutAutoInjectionIsStillInjectedWhereItIsOn() throws {
        let off = DependencyContainer(autoInjectProperties: false)
        off.register { Api() }
        off.register { LearnedTwice() }
        let on = DependencyContainer()
        on.register { Api() }
        on.register { LearnedTwice() }

        #expect(try (off.resolve() as LearnedTwice).api == nil)
        #expect(try (on.resolve() as LearnedTwice).api != nil)
        #expect(try (off.resolve() as LearnedTwice).api == nil)
    }
}

// MARK: - The box's value

/// A value whose `deinit` runs `onDeinit`.
private final class Tracked {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void = {}) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// A value type wider than a pointer, holding references.
private struct Wide: Equatable {
    let name: String
    let numbers: [Int]
    let flag: Bool
    let ratio: Double
}

@Suite struct InjectedValueTests {
    @Test func aValueIsReleasedWhenReplacedClearedOrItsBoxIsFreed() {
        weak var first: Tracked?
        weak var second: Tracked?
        var box: Injected<Tracked>? = Injected(wrappedValue: nil)
        do {
            let value = Tracked()
            first = value
            box?.value = value
        }
        #expect(first != nil)
        do {
            let value = Tracked()
            second = value
            box?.wrappedValue = value
        }
        #expect(first == nil)
        #expect(second === box?.value)
        box?.value = nil
        #expect(second == nil)
        #expect(box?.value == nil)

        weak var third: Tracked?
        do {
            let value = Tracked()
            third = value
            box?.value = value
        }
        box = nil
        #expect(third == nil)
    }

    @Test func anInitialValueIsKeptUntilReplaced() {
        let box = Injected(wrappedValue: Wide(name: "initial", numbers: [1, 2], flag: true, ratio: 0.5))
        #expect(box.value == Wide(name: "initial", numbers: [1, 2], flag: true, ratio: 0.5))
        box.value = Wide(name: "next", numbers: [3], flag: false, ratio: 2)
        #expect(box.wrappedValue == Wide(name: "next", numbers: [3], flag: false, ratio: 2))
        #expect(Injected<Wide>(wrappedValue: nil).value == nil)
    }

    @Test func aReplacedValueThatReadsThePropertyAsItGoesSeesTheNewValue() {
        let box = Injected<Tracked>(wrappedValue: nil)
        var seen: [Bool] = []
        box.value = Tracked { seen.append(box.value != nil) }
        box.value = Tracked()
        #expect(seen == [true])
        // A value that empties the property as it goes leaves it empty, and nothing else is freed twice.
        box.value = Tracked { box.value = nil }
        box.value = nil
        #expect(box.value == nil)
    }

    @Test func injectionStoresWideValues() throws {
        let container = DependencyContainer()
        container.register { Wide(name: "wide", numbers: [4, 5, 6], flag: true, ratio: 1.5) }
        let box = Injected<Wide>()
        try box.resolve(container)
        #expect(box.value == Wide(name: "wide", numbers: [4, 5, 6], flag: true, ratio: 1.5))
        try box.resolve(container)
        #expect(box.value?.numbers == [4, 5, 6])
    }
}
