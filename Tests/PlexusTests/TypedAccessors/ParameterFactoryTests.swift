import Foundation
import Plexus
import PlexusTesting
import Testing

private final class Detail: Sendable {
    let id: Int
    let note: String
    init(id: Int, note: String = "default") {
        self.id = id
        self.note = note
    }
}
private final class Row: Sendable {
    let id: Int
    let title: String
    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}
/// An argument that is an object, to see whether the container still holds it.
private final class Handle: Hashable, Sendable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Handle, rhs: Handle) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
private struct NotFound: Error {}
/// An argument that is not `Hashable`.
private struct Query: Sendable {
    let text: String
}
/// An argument whose `hash(into:)`, for a gated value, waits until another thread has resolved the accessor, as a
/// `hash` or `==` that resolves something, or takes a lock of its own, may.
private struct GatedKey: Hashable, Sendable {
    let id: Int
    let gate: Gate?

    static func == (lhs: GatedKey, rhs: GatedKey) -> Bool { lhs.id == rhs.id }

    func hash(into hasher: inout Hasher) {
        gate?.pass()
        hasher.combine(id)
    }
}
/// Tells the other thread that a gated `hash` started, and waits (bounded) for it to resolve, the first time.
private final class Gate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let resolved = DispatchSemaphore(value: 0)
    let passes = Counter()
    let timedOut = Counter()

    func pass() {
        guard passes.increment() == 1 else { return }
        entered.signal()
        if resolved.wait(timeout: .now() + 3) == .timedOut { timedOut.increment() }
    }
}
/// Larger than the six words an accessor's result takes on the stack.
private struct Poster: Sendable {
    var id: Int
    var words: (Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7)
}
private struct Tile: Sendable {
    var size: Int
}

extension DependencyContainer {
    fileprivate var detail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) } }
    fileprivate var keptDetail: ParameterFactory<Int, Detail> { self { id in Detail(id: id) }.singleton }
    fileprivate var row: ParameterFactory<(Int, String), Row> { self { id, title in Row(id: id, title: title) } }
    fileprivate var keptRow: ParameterFactory<(Int, String), Row> {
        self { id, title in Row(id: id, title: title) }.singleton
    }
    fileprivate var search: ParameterFactory<Query, Detail> { self { query in Detail(id: query.text.count) }.singleton }
    fileprivate var gated: ParameterFactory<GatedKey, Detail> { self { key in Detail(id: key.id) }.singleton }
    fileprivate var tile: ParameterFactory<Int, Tile> { self { size in Tile(size: size) } }
    fileprivate var poster: ParameterFactory<Int, Poster> { self { id in Poster(id: id) } }
    fileprivate var maybeDetail: ParameterFactory<Int?, Detail> { self { id in Detail(id: id ?? -1) }.singleton }
    fileprivate var missing: ParameterFactory<Handle, Detail> { self { _ in throw NotFound() }.singleton }
    fileprivate var keptPoster: ParameterFactory<Int, Poster> { self { id in Poster(id: id) }.singleton }
    fileprivate var countdown: ParameterFactory<Int, Detail> {
        self { id in id == 0 ? Detail(id: 0) : Detail(id: try self.countdown.resolve(id - 1).id + 1) }
    }

    fileprivate enum NamespaceParameterScreens {}
    fileprivate typealias ParameterScreens = Namespace<NamespaceParameterScreens>
    fileprivate var parameterScreens: ParameterScreens { namespace() }
}

extension DependencyContainer.ParameterScreens {
    fileprivate var detail: ParameterFactory<Int, Detail> {
        get { resolve { id in Detail(id: id, note: "namespace") } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct ParameterFactoryTests {
    let container = DependencyContainer()

    @Test func anAccessorIsCalledWithItsArgument() {
        #expect(container.detail(42).id == 42)
        #expect(container.detail(42) !== container.detail(42))
    }

    @Test func severalArgumentsAreOneTuple() {
        let row = container.row((7, "Inbox"))
        #expect(row.id == 7)
        #expect(row.title == "Inbox")
    }

    @Test func aSingletonKeepsOneInstancePerArgumentValue() {
        let first = container.keptDetail(1)
        #expect(container.keptDetail(1) === first)
        #expect(container.keptDetail(2) !== first)
        #expect(container.keptDetail(2).id == 2)
    }

    @Test func aSingletonWithATupleOfHashablesKeepsOneInstancePerTuple() {
        let first = container.keptRow((1, "a"))
        #expect(container.keptRow((1, "a")) === first)
        #expect(container.keptRow((1, "b")) !== first)
    }

    @Test func aSingletonWithAnArgumentThatIsNotHashableMakesAnInstancePerCall() {
        #expect(container.search(Query(text: "abc")) !== container.search(Query(text: "abc")))
        #expect(container.search.scope == .singleton)
    }

    @Test func eachContainerKeepsItsOwnInstances() {
        let other = DependencyContainer()
        #expect(container.keptDetail(1) !== other.keptDetail(1))
    }

    @Test func replaceOverridesTheDefaultAndKeepsTheStorage() {
        let before = container.keptDetail(1)
        container.keptDetail.replace { id in Detail(id: id, note: "replaced") }
        let after = container.keptDetail(1)
        #expect(after !== before)
        #expect(after.note == "replaced")
        #expect(container.keptDetail(1) === after)
    }

    @Test func decoratorsRunOncePerInstanceInTheOrderAdded() {
        container.tile.decorate { Tile(size: $0.size * 10) }
        container.tile.decorate { Tile(size: $0.size + 1) }
        #expect(container.tile(4).size == 41)
    }

    @Test func aDecoratorDropsTheKeptInstances() {
        let before = container.keptDetail(3)
        container.keptDetail.decorate { Detail(id: $0.id, note: "decorated") }
        let after = container.keptDetail(3)
        #expect(after !== before)
        #expect(after.note == "decorated")
        #expect(container.keptDetail(3) === after)
    }

    @Test func aDecoratorOfASingletonRunsOncePerKeptInstance() {
        let calls = Counter()
        container.keptDetail.decorate { detail in
            calls.increment()
            return Detail(id: detail.id, note: "decorated")
        }
        let first = container.keptDetail(3)
        #expect(container.keptDetail(3) === first)
        #expect(container.keptDetail(3).note == "decorated")
        _ = container.keptDetail(4)
        #expect(calls.count == 2)
    }

    @Test func aDecoratorOfAUniqueAccessorRunsOnEveryInstance() {
        let calls = Counter()
        container.detail.decorate { detail in
            calls.increment()
            return Detail(id: detail.id, note: "decorated")
        }
        #expect(container.detail(1).note == "decorated")
        #expect(container.detail(1) !== container.detail(1))
        #expect(calls.count == 3)
    }

    @Test func restoringASnapshotForgetsALaterDecoratorAndOverride() {
        let snapshot = container.snapshot()
        container.detail.decorate { Detail(id: $0.id, note: "decorated") }
        container.keptDetail.replace { id in Detail(id: id, note: "replaced") }
        #expect(container.detail(1).note == "decorated")
        #expect(container.keptDetail(1).note == "replaced")
        container.restore(snapshot)
        #expect(container.detail(1).note == "default")
        #expect(container.keptDetail(1).note == "default")
    }

    @Test func anOverrideMadeAfterUseAnswersTheNextCall() {
        #expect(container.detail(1).note == "default")
        container.detail.replace { id in Detail(id: id, note: "replaced") }
        #expect(container.detail(2).note == "replaced")
        container.detail.reset()
        #expect(container.detail(3).note == "default")
    }

    @Test func theKeyCarriesTheArgumentType() throws {
        let key = try #require(container.row.key)
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier(Row.self))
        #expect(ObjectIdentifier(key.typeOfArguments) == ObjectIdentifier((Int, String).self))
        #expect(key.tag == "DependencyContainer.row")
    }

    @Test func aKeyedResolveWithArgumentsReachesAnOverride() throws {
        container.detail.replace { id in Detail(id: id, note: "replaced") }
        let detail: Detail = try container.resolve(tag: "DependencyContainer.detail", arguments: 5)
        #expect(detail.id == 5)
        #expect(detail.note == "replaced")
    }

    @Test func aKeyedRegistrationUnderTheKeyOverridesTheAccessor() {
        container.register(.unique, tag: "DependencyContainer.detail") { (id: Int) in Detail(id: id, note: "keyed") }
        #expect(container.detail(8).note == "keyed")
    }

    @Test func anOverrideInACollaboratorIsSeen() {
        let module = DependencyContainer()
        container.collaborate(with: module)
        module.detail.replace { id in Detail(id: id, note: "module") }
        #expect(container.detail(2).note == "module")
    }

    @Test func aNamespaceDeclaresAndOverridesOne() {
        #expect(container.parameterScreens.detail(3).note == "namespace")
        container.parameterScreens.detail = .factory { id in Detail(id: id, note: "assigned") }
        #expect(container.parameterScreens.detail(3).note == "assigned")
    }

    @Test func resetForgetsOverridesAndInstances() {
        let before = container.keptDetail(1)
        container.keptDetail.replace { id in Detail(id: id, note: "replaced") }
        container.reset()
        let after = container.keptDetail(1)
        #expect(after !== before)
        #expect(after.note == "default")
    }

    @Test func validateWithAnArgumentSetSeesAnAccessorOnceUsed() throws {
        _ = container.detail(1)
        let report = try container.validate(7)
        let node = report.nodes.first { $0.key.tag?.contains("DependencyContainer.detail") == true }
        #expect(node?.key.type == "Detail")
        #expect(node?.key.arguments?.contains("Int") == true)
    }

    @Test func anAccessorReplacedBeforeItsFirstUseIsATypedAccessorNode() throws {
        container.detail.replace { id in Detail(id: id, note: "replaced") }
        let report = try container.validate(7)
        let node = report.nodes.first { $0.key.tag?.contains("DependencyContainer.detail") == true }
        #expect(node?.kind == .typedAccessor)
    }

    /// As for a keyed definition with arguments: the key is on the resolution path already, whatever the argument.
    @Test func aFactoryThatCallsItsOwnAccessorAgainIsACycle() {
        let error = #expect(throws: ResolutionError.self) { try container.countdown.resolve(2) }
        guard case .circularDependency = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
    }

    @Test func aSingletonIsMadeOncePerArgumentUnderContention() {
        let calls = Counter()
        let made = Collected<(Int, ObjectIdentifier)>()
        container.keptDetail.replace { id in
            calls.increment()
            var total = 0
            for index in 0..<200_000 { total &+= index }
            withExtendedLifetime(total) {}
            return Detail(id: id)
        }
        let finished = runOnThreads(8) { thread in
            for round in 0..<4 {
                let id = (thread + round) % 3
                made.append((id, ObjectIdentifier(container.keptDetail(id))))
            }
        }
        #expect(finished)
        #expect(calls.count == 3)
        for id in 0..<3 {
            #expect(Set(made.values.filter { $0.0 == id }.map(\.1)).count == 1)
        }
    }

    /// An instance whose making began before a reset belongs to the instances the reset dropped: the next call
    /// makes a new one.
    @Test func anInstanceMadeAcrossAResetIsNotKept() {
        let making = DispatchSemaphore(value: 0)
        let reset = DispatchSemaphore(value: 0)
        let calls = Counter()
        container.keptDetail.replace { id in
            if calls.increment() == 1 {
                making.signal()
                _ = reset.wait(timeout: .now() + 5)
            }
            return Detail(id: id)
        }
        let before = Collected<ObjectIdentifier>()
        let finished = runOnThreads(2, timeout: 10) { thread in
            if thread == 0 {
                before.append(ObjectIdentifier(container.keptDetail(1)))
            } else {
                _ = making.wait(timeout: .now() + 5)
                container.keptDetail.reset(.scope)
                reset.signal()
            }
        }
        #expect(finished)
        let after = container.keptDetail(1)
        #expect(before.values != [ObjectIdentifier(after)])
        #expect(container.keptDetail(1) === after)
        #expect(calls.count == 2)
    }

    /// An instance the declared default is still making when an override replaces it is not what the override
    /// answers afterwards: each definition keeps its own instances.
    @Test func anOverrideNeverAnswersWithAnInstanceItsPredecessorWasMaking() {
        _ = container.gated(GatedKey(id: 2, gate: nil))
        let gate = Gate()
        let finished = runOnThreads(2, timeout: 10) { thread in
            if thread == 0 {
                _ = container.gated(GatedKey(id: 1, gate: gate))
            } else {
                _ = gate.entered.wait(timeout: .now() + 3)
                container.gated.replace { key in Detail(id: key.id, note: "replaced") }
                gate.resolved.signal()
            }
        }
        #expect(finished)
        #expect(container.gated(GatedKey(id: 1, gate: nil)).note == "replaced")
        #expect(container.gated(GatedKey(id: 2, gate: nil)).note == "replaced")
    }

    @Test func anOptionalArgumentKeepsOneInstancePerValueNilIncluded() {
        let none = container.maybeDetail(nil)
        #expect(container.maybeDetail(nil) === none)
        #expect(container.maybeDetail(3) === container.maybeDetail(3))
        #expect(container.maybeDetail(3) !== none)
        #expect(none.id == -1)
    }

    @Test func anInstanceLargerThanTheStackBufferIsMadeAndKept() {
        #expect(container.poster(3).id == 3)
        #expect(container.poster(3).words.6 == 7)
        #expect(container.keptPoster(4).id == 4)
        container.keptPoster.decorate { poster in
            var poster = poster
            poster.words.0 = 10
            return poster
        }
        #expect(container.keptPoster(4).words.0 == 10)
    }

    @Test func aValueWhoseFactoryThrewIsMadeAgainAndALaterSuccessIsKept() throws {
        let calls = Counter()
        container.keptDetail.replace { id in
            guard calls.increment() > 1 else { throw NotFound() }
            return Detail(id: id)
        }
        #expect(throws: NotFound.self) { try container.keptDetail.resolve(5) }
        let made = try container.keptDetail.resolve(5)
        #expect(calls.count == 2)
        #expect(try container.keptDetail.resolve(5) === made)
        #expect(calls.count == 2)
    }

    @Test func aTupleWhoseFactoryThrewIsMadeAgainAndALaterSuccessIsKept() throws {
        let calls = Counter()
        container.keptRow.replace { id, title in
            guard calls.increment() > 1 else { throw NotFound() }
            return Row(id: id, title: title)
        }
        #expect(throws: NotFound.self) { try container.keptRow.resolve((5, "a")) }
        let made = try container.keptRow.resolve((5, "a"))
        #expect(try container.keptRow.resolve((5, "a")) === made)
        #expect(calls.count == 2)
    }

    /// A thread that asks for the value while its first construction is failing throws or gets an instance, and
    /// that instance is the one kept.
    @Test func aValueAskedForWhileItsFactoryThrowsIsMadeOnceAfter() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Counter()
        container.keptDetail.replace { id in
            guard calls.increment() > 1 else {
                entered.signal()
                _ = release.wait(timeout: .now() + 5)
                throw NotFound()
            }
            return Detail(id: id)
        }
        let made = Collected<Detail>()
        let finished = runOnThreads(2, timeout: 10) { thread in
            if thread == 0 {
                #expect(throws: NotFound.self) { try container.keptDetail.resolve(5) }
            } else {
                _ = entered.wait(timeout: .now() + 5)
                release.signal()
                if let detail = try? container.keptDetail.resolve(5) { made.append(detail) }
            }
        }
        #expect(finished)
        let kept = container.keptDetail(5)
        #expect(container.keptDetail(5) === kept)
        #expect(made.values.allSatisfy { $0 === kept })
        #expect(calls.count == 2)
    }

    /// A thread that waited for a value's construction when it failed, and a thread that asks while the next one
    /// runs, get one instance from one more run of the factory, whichever of the failing thread and the waiting one
    /// is first after the failure.
    @Test func aConstructionWaitedForThatFailsIsMadeOnceMoreForEveryone() {
        let failing = DispatchSemaphore(value: 0)
        let fail = DispatchSemaphore(value: 0)
        let remaking = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        let observation = EngineTestHooks.observeWaits(for: Detail.self) { waiting.signal() }
        defer { observation.stop() }
        let calls = Counter()
        container.keptDetail.replace { id in
            switch calls.increment() {
            case 1:
                failing.signal()
                _ = fail.wait(timeout: .now() + 5)
                throw NotFound()
            case 2:
                remaking.signal()
                _ = waiting.wait(timeout: .now() + 3)
                return Detail(id: id)
            default:
                return Detail(id: id)
            }
        }
        let made = Collected<ObjectIdentifier>()
        let finished = runOnThreads(3, timeout: 15) { thread in
            switch thread {
            case 0:
                #expect(throws: NotFound.self) { try container.keptDetail.resolve(5) }
            case 1:
                #expect(failing.wait(timeout: .now() + 5) == .success)
                // The waiting thread gets the instance made again, not the failure it waited for.
                #expect(throws: Never.self) { made.append(ObjectIdentifier(try container.keptDetail.resolve(5))) }
            default:
                #expect(waiting.wait(timeout: .now() + 5) == .success)
                fail.signal()
                #expect(remaking.wait(timeout: .now() + 5) == .success)
                made.append(ObjectIdentifier(container.keptDetail(5)))
            }
        }
        #expect(finished)
        #expect(calls.count == 2)
        #expect(made.values.count == 2)
        #expect(Set(made.values + [ObjectIdentifier(container.keptDetail(5))]).count == 1)
    }

    @Test func aFailedConstructionKeepsNothingOfItsArgument() {
        weak var released: Handle?
        do {
            let handle = Handle(id: 404)
            released = handle
            #expect(throws: NotFound.self) { try container.missing.resolve(handle) }
        }
        #expect(released == nil)
    }

    /// No lock is held while an argument's `hash(into:)` or `==` runs: another thread resolves the same accessor
    /// meanwhile.
    @Test func anArgumentsHashRunsWithoutALockHeld() {
        let gate = Gate()
        let finished = runOnThreads(2, timeout: 10) { thread in
            if thread == 0 {
                #expect(container.gated(GatedKey(id: 1, gate: gate)).id == 1)
            } else {
                _ = gate.entered.wait(timeout: .now() + 3)
                #expect(container.gated(GatedKey(id: 2, gate: nil)).id == 2)
                gate.resolved.signal()
            }
        }
        #expect(finished)
        #expect(gate.timedOut.count == 0)
    }
}
