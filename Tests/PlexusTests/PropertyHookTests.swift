import Foundation
import Plexus
import PlexusTesting
import Testing

/// Records events in order; `@unchecked Sendable` is safe because `entries` is only touched under `lock`.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    var events: [String] { lock.withLock { entries } }

    func record(_ event: String) {
        lock.withLock { entries.append(event) }
    }
}

private final class Notes {
    var notes: [String] = []
}

private final class Outer {
    let inner: Inner

    init(inner: Inner) {
        self.inner = inner
    }
}

private final class Inner {
    weak var outer: Outer?
    var sawCompleteOuter = false
}

private final class Leaf {}

private final class Branch {
    var leaf: Leaf?
}

/// Made by one factory as either subclass, alternately.
private class Shape {
    var hooks = 0
}

private final class Square: Shape {}

private final class Circle: Shape {}

private enum HookError: Error, Equatable {
    case failed(String)
}

/// Set by its hook; checked by threads that resolve it while another re-registers it.
private final class Hooked: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `hooked` is written by the hook before the instance is handed out.
    var hooked = false
}

@Suite(.silencingPlexusLogs) struct PropertyHookTests {
    @Test func aDefinitionCompletedBeforeItIsRegisteredNeverResolvesWithoutItsHooks() {
        let container = DependencyContainer()
        let misses = Counter()
        let owners = Counter()
        @Sendable func complete() -> Definition<Hooked, ()> {
            DependencyContainer().register(.unique) { Hooked() }
                .resolvingProperties { c, hooked in
                    hooked.hooked = true
                    if c === container { owners.increment() }
                }
        }
        container.register(complete())
        let finished = runReadersAndAWriter { _ in
            container.register(complete())
        } read: { _ in
            if let hooked = try? container.resolve() as Hooked, !hooked.hooked { misses.increment() }
        }
        #expect(finished)
        #expect(misses.count == 0)
        #expect(owners.count > 0, "the hook is given the container the definition is registered in")
    }

    let container = DependencyContainer()

    @Test func hooksAreChainableAndRunInTheOrderAdded() throws {
        container.register { Notes() }
            .resolvingProperties { _, notes in notes.notes.append("first") }
            .resolvingProperties { _, notes in notes.notes.append("second") }
            .resolvingProperties { _, notes in notes.notes.append("third") }

        let notes: Notes = try container.resolve()

        #expect(notes.notes == ["first", "second", "third"])
    }

    @Test func hookAddedAfterRegistrationIsUsed() throws {
        let definition = container.register { Notes() }
        #expect((try container.resolve() as Notes).notes.isEmpty)

        definition.resolvingProperties { _, notes in notes.notes.append("late") }

        #expect((try container.resolve() as Notes).notes == ["late"])
    }

    // Hooks of `.unique` and `.shared` definitions are queued by whichever path makes the instance (the fast path
    // once the definition is known, the general one before, through collaborators and for `T?` requests).

    @Test(arguments: [ComponentScope.unique, .shared])
    func hooksRunOncePerInstanceHoweverItIsRequested(scope: ComponentScope) throws {
        let runs = EventLog()
        container.register(scope) { Notes() }
            .resolvingProperties { _, notes in
                notes.notes.append("hooked")
                runs.record("run")
            }
        let child = DependencyContainer()
        child.collaborate(with: container)
        for _ in 0..<3 {
            #expect((try container.resolve() as Notes).notes == ["hooked"])
            #expect((try container.resolve() as Notes?)?.notes == ["hooked"])
            #expect((try child.resolve() as Notes).notes == ["hooked"])
            #expect((try child.resolve() as Notes?)?.notes == ["hooked"])
        }
        #expect(runs.events.count == 12)
    }

    @Test func hooksRunOnEveryInstanceWhenTheFactoryAlternatesItsDynamicType() throws {
        let calls = Counter()
        container.register { () -> Shape in calls.increment().isMultiple(of: 2) ? Square() : Circle() }
            .resolvingProperties { _, shape in shape.hooks += 1 }
        let shapes = try (0..<6).map { _ in try container.resolve() as Shape }
        #expect(shapes.allSatisfy { $0.hooks == 1 })
        #expect(shapes.filter { $0 is Square }.count == 3)
    }

    @Test func hooksReceiveInstancesOfProtocolValueAndExactClassTypes() throws {
        // The hook's instance arrives as `Any` and is cast to the definition's type: read in place for exactly a
        // class, cast otherwise (a protocol type, a value type).
        let seen = EventLog()
        container.register { Square() as Shape }.resolvingProperties { _, shape in seen.record("class \(shape.hooks)") }
        container.register { Notes() as AnyObject }.resolvingProperties { _, object in
            seen.record("protocol \(object is Notes)")
        }
        container.register { [1, 2, 3] }.resolvingProperties { _, numbers in seen.record("value \(numbers.count)") }
        container.register { Branch() }.resolvingProperties { _, branch in seen.record("exact \(branch.leaf == nil)") }

        for _ in 0..<2 {
            _ = try container.resolve() as Shape
            _ = try container.resolve() as AnyObject
            _ = try container.resolve() as [Int]
            _ = try container.resolve() as Branch
        }

        #expect(
            seen.events
                == Array(repeating: ["class 0", "protocol true", "value 3", "exact true"], count: 2).flatMap { $0 })
    }

    @Test func hookReceivesTheContainerThatOwnsTheDefinition() throws {
        let child = DependencyContainer()
        let owners = EventLog()
        container.register { Notes() }
            .resolvingProperties { [container] c, _ in owners.record(c === container ? "owner" : "other") }
        child.collaborate(with: container)

        _ = try child.resolve() as Notes
        _ = try container.resolve() as Notes

        #expect(owners.events == ["owner", "owner"])
    }

    @Test func hooksAreDeferredUntilTheOutermostFactoryReturned() throws {
        let log = EventLog()
        container.register { [unowned container] () throws -> Outer in
            log.record("outer factory starts")
            let inner: Inner = try container.resolve()
            log.record("outer factory returns")
            return Outer(inner: inner)
        }
        .resolvingProperties { _, _ in log.record("outer hook") }
        container.register { () -> Inner in
            log.record("inner factory")
            return Inner()
        }
        .resolvingProperties { _, _ in log.record("inner hook") }

        _ = try container.resolve() as Outer

        #expect(
            log.events == [
                "outer factory starts", "inner factory", "outer factory returns", "inner hook", "outer hook",
            ])
    }

    @Test(arguments: [ComponentScope.shared, .singleton, .weakSingleton])
    func hookObservesTheCompletedOuterObject(scope: ComponentScope) throws {
        container.register(scope) { [unowned container] in Outer(inner: try container.resolve()) }
        container.register { Inner() }
            .resolvingProperties { c, inner in
                let outer: Outer = try c.resolve()
                inner.sawCompleteOuter = outer.inner === inner
                inner.outer = outer
            }

        let outer: Outer = try container.resolve()

        #expect(outer.inner.sawCompleteOuter)
        #expect(outer.inner.outer === outer)
    }

    @Test func hooksRunInCreationOrder() throws {
        let log = EventLog()
        // Top(middle: Middle(bottom: Bottom)): Bottom is created first, then Middle, then Top.
        final class Top {}
        final class Middle {}
        final class Bottom {}
        container.register { [unowned container] () throws -> Top in
            _ = try container.resolve() as Middle
            return Top()
        }
        .resolvingProperties { _, _ in log.record("top") }
        container.register { [unowned container] () throws -> Middle in
            _ = try container.resolve() as Bottom
            return Middle()
        }
        .resolvingProperties { _, _ in log.record("middle") }
        container.register { Bottom() }
            .resolvingProperties { _, _ in log.record("bottom") }

        _ = try container.resolve() as Top

        #expect(log.events == ["bottom", "middle", "top"])
    }

    /// A resolve started by a hook is a full resolve: the instance it returns has had its own hooks run.
    @Test func aResolveInsideAHookRunsItsOwnHooksBeforeReturning() throws {
        let log = EventLog()
        container.register { Branch() }
            .resolvingProperties { c, branch in
                log.record("branch hook starts")
                branch.leaf = try c.resolve()
                log.record("branch hook returns")
            }
            .resolvingProperties { _, _ in log.record("branch second hook") }
        container.register { () -> Leaf in
            log.record("leaf factory")
            return Leaf()
        }
        .resolvingProperties { _, _ in log.record("leaf hook") }

        let branch: Branch = try container.resolve()

        #expect(branch.leaf != nil)
        #expect(
            log.events == [
                "branch hook starts", "leaf factory", "leaf hook", "branch hook returns", "branch second hook",
            ])
    }

    @Test(arguments: [ComponentScope.shared, .singleton, .eagerSingleton, .weakSingleton])
    func hookRunsAfterTheInstanceIsCachedInItsScope(scope: ComponentScope) throws {
        let identical = EventLog()
        container.register(scope) { Leaf() }
            .resolvingProperties { c, leaf in
                identical.record(try c.resolve() as Leaf === leaf ? "same" : "different")
            }

        _ = try container.resolve() as Leaf

        #expect(identical.events == ["same"])
    }

    @Test(arguments: ComponentScope.allCases)
    func hookRunsOncePerCreatedInstance(scope: ComponentScope) throws {
        let hookCalls = EventLog()
        container.register(scope) { Leaf() }
            .resolvingProperties { _, _ in hookCalls.record("hook") }

        let first: Leaf = try container.resolve()
        let second: Leaf = try container.resolve()

        let caches = scope == .singleton || scope == .eagerSingleton || scope == .weakSingleton || scope == .cached
        #expect(hookCalls.events.count == (caches ? 1 : 2))
        #expect((first === second) == caches)
    }

    @Test func hookRunsForDefinitionsWithArguments() throws {
        container.register { (note: String) in
            let notes = Notes()
            notes.notes.append(note)
            return notes
        }
        .resolvingProperties { _, notes in notes.notes.append("hooked") }

        let notes: Notes = try container.resolve(arguments: "argument")

        #expect(notes.notes == ["argument", "hooked"])
    }

    // MARK: Errors

    @Test func hookErrorPropagatesUnchangedFromTheOutermostResolve() throws {
        container.register { [unowned container] in Outer(inner: try container.resolve()) }
        container.register { Inner() }
            .resolvingProperties { _, _ in throw HookError.failed("inner") }

        let error = #expect(throws: HookError.self) { try container.resolve() as Outer }
        #expect(error == .failed("inner"))
    }

    @Test func laterHooksDoNotRunAfterAHookThrew() throws {
        let log = EventLog()
        container.register { Notes() }
            .resolvingProperties { _, _ in throw HookError.failed("first") }
            .resolvingProperties { _, _ in log.record("second") }

        #expect(throws: HookError.self) { try container.resolve() as Notes }
        #expect(log.events.isEmpty)
    }

    @Test(arguments: [ComponentScope.singleton, .eagerSingleton, .weakSingleton])
    func singletonWhoseHookThrewIsMadeAgainNextTime(scope: ComponentScope) throws {
        let factoryCalls = EventLog()
        let failures = EventLog()
        container.register(scope) { () -> Leaf in
            factoryCalls.record("factory")
            return Leaf()
        }
        .resolvingProperties { _, _ in
            if failures.events.isEmpty {
                failures.record("failed")
                throw HookError.failed("once")
            }
        }

        #expect(throws: HookError.self) { try container.resolve() as Leaf }
        let leaf: Leaf = try container.resolve()

        #expect(factoryCalls.events.count == 2)
        #expect(try container.resolve() as Leaf === leaf)
    }
}
