import Foundation
import Plexus
import PlexusTesting
import Testing

// MARK: - Constructor injection on one side, property injection on the other

private final class Client {
    let server: Server

    init(server: Server) {
        self.server = server
    }
}

private final class Server {
    weak var client: Client?
}

// MARK: - Constructor cycles

private final class A {}
private final class B {}
private final class C {}

// MARK: - A deep chain

private final class Node {
    let next: Node?

    init(next: Node?) {
        self.next = next
    }

    var length: Int {
        var count = 1
        var node = self
        while let next = node.next {
            count += 1
            node = next
        }
        return count
    }
}

/// The outcome of work done on another thread; `@unchecked Sendable` is safe because `value` is only touched
/// under `lock`.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<Int, any Error>?

    var result: Result<Int, any Error>? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// The scopes that cache instances, so that a cycle closed by a property hook needs no second construction.
private let cachingScopes: [ComponentScope] = [.shared, .singleton, .eagerSingleton, .weakSingleton, .cached]

private func key(_ type: Any.Type) -> DefinitionKey {
    DefinitionKey(type: type, typeOfArguments: Void.self, tag: nil)
}

@Suite(.silencingPlexusLogs) struct CircularGraphTests {
    let container = DependencyContainer()

    private struct Calls {
        let client = Counter()
        let server = Counter()
        let hook = Counter()
        /// Hooks that found the cycle closed: the client they resolved holds the server being completed.
        let closed = Counter()
    }

    private func registerClientServer(client clientScope: ComponentScope, server serverScope: ComponentScope) -> Calls {
        let calls = Calls()
        container.register(clientScope) { [unowned container] in
            calls.client.increment()
            return Client(server: try container.resolve())
        }
        container.register(serverScope) {
            calls.server.increment()
            return Server()
        }
        .resolvingProperties { c, server in
            calls.hook.increment()
            let client: Client = try c.resolve()
            if client.server === server { calls.closed.increment() }
            server.client = client
        }
        return calls
    }

    // MARK: Cycles closed by a property hook

    @Test(arguments: cachingScopes, cachingScopes)
    func cycleResolvedFromConstructorSideCallsEachFactoryOnce(client: ComponentScope, server: ComponentScope) throws {
        let calls = registerClientServer(client: client, server: server)

        let resolved: Client = try container.resolve()

        #expect(resolved.server.client === resolved)
        #expect(calls.closed.count == 1)
        #expect(calls.client.count == 1)
        #expect(calls.server.count == 1)
        #expect(calls.hook.count == 1)
    }

    @Test(arguments: cachingScopes, cachingScopes)
    func cycleResolvedFromPropertySideCallsEachFactoryOnce(client: ComponentScope, server: ComponentScope) throws {
        let calls = registerClientServer(client: client, server: server)

        let resolved: Server = try container.resolve()

        // The server holds its client weakly: only a singleton client outlives the graph.
        if client == .singleton || client == .eagerSingleton {
            #expect(resolved.client?.server === resolved)
        }
        #expect(calls.closed.count == 1)
        #expect(calls.client.count == 1)
        #expect(calls.server.count == 1)
        #expect(calls.hook.count == 1)
    }

    @Test(arguments: cachingScopes)
    func cycleOfPropertyHooksOnBothSidesCallsEachFactoryOnce(scope: ComponentScope) throws {
        final class Left {
            var right: Right?
        }
        final class Right {
            weak var left: Left?
        }
        let leftCalls = Counter()
        let rightCalls = Counter()
        container.register(scope) {
            leftCalls.increment()
            return Left()
        }
        .resolvingProperties { c, left in left.right = try c.resolve() }
        container.register(scope) {
            rightCalls.increment()
            return Right()
        }
        .resolvingProperties { c, right in right.left = try c.resolve() }

        let left: Left = try container.resolve()

        #expect(left.right?.left === left)
        #expect(leftCalls.count == 1)
        #expect(rightCalls.count == 1)
    }

    @Test(arguments: [true, false])
    func singletonsLinkedThroughTheHookOfASharedInstanceResolveFromEitherEnd(fromA: Bool) throws {
        // A's initializer takes B (singleton); B's initializer takes C (shared), whose hook takes A.
        let aCalls = Counter()
        let bCalls = Counter()
        container.register(.singleton) { [unowned container] () throws -> A in
            aCalls.increment()
            _ = try container.resolve() as B
            return A()
        }
        container.register(.singleton) { [unowned container] () throws -> B in
            bCalls.increment()
            _ = try container.resolve() as C
            return B()
        }
        container.register { C() }
            .resolvingProperties { c, _ in _ = try c.resolve() as A }

        if fromA {
            _ = try container.resolve() as A
        } else {
            _ = try container.resolve() as B
        }

        #expect(aCalls.count == 1)
        #expect(bCalls.count == 1)
    }

    @Test func singletonCycleIsKeptForLaterResolves() throws {
        let calls = registerClientServer(client: .singleton, server: .singleton)

        let first: Client = try container.resolve()
        let second: Client = try container.resolve()
        let server: Server = try container.resolve()

        #expect(first === second)
        #expect(server === first.server)
        #expect(calls.client.count == 1)
        #expect(calls.server.count == 1)
        #expect(calls.hook.count == 1)
    }

    @Test func sharedCycleIsNewForEachGraph() throws {
        let calls = registerClientServer(client: .shared, server: .shared)

        let first: Client = try container.resolve()
        let second: Client = try container.resolve()

        #expect(first !== second)
        #expect(first.server !== second.server)
        #expect(second.server.client === second)
        #expect(calls.client.count == 2)
        #expect(calls.server.count == 2)
    }

    // MARK: Constructor cycles

    @Test(arguments: ComponentScope.allCases, ComponentScope.allCases)
    func twoStepConstructorCycleThrowsWithPath(a aScope: ComponentScope, b bScope: ComponentScope) throws {
        container.register(aScope) { [unowned container] () throws -> A in
            _ = try container.resolve() as B
            return A()
        }
        container.register(bScope) { [unowned container] () throws -> B in
            _ = try container.resolve() as A
            return B()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as A }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [key(A.self), key(B.self), key(A.self)])
        #expect(error?.description.hasPrefix("Circular dependency: A -> B -> A") == true)
    }

    @Test(arguments: ComponentScope.allCases)
    func threeStepConstructorCycleThrowsWithPath(scope: ComponentScope) throws {
        container.register(scope) { [unowned container] () throws -> A in
            _ = try container.resolve() as B
            return A()
        }
        container.register(scope) { [unowned container] () throws -> B in
            _ = try container.resolve() as C
            return B()
        }
        container.register(scope) { [unowned container] () throws -> C in
            _ = try container.resolve() as A
            return C()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as A }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [key(A.self), key(B.self), key(C.self), key(A.self)])
        #expect(error?.description.hasPrefix("Circular dependency: A -> B -> C -> A") == true)
    }

    @Test(arguments: ComponentScope.allCases)
    func cycleEnteredMidwayReportsOnlyTheLoop(scope: ComponentScope) throws {
        // C -> A -> B -> A: C is not part of the loop.
        container.register(scope) { [unowned container] () throws -> C in
            _ = try container.resolve() as A
            return C()
        }
        container.register(scope) { [unowned container] () throws -> A in
            _ = try container.resolve() as B
            return A()
        }
        container.register(scope) { [unowned container] () throws -> B in
            _ = try container.resolve() as A
            return B()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as C }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [key(A.self), key(B.self), key(A.self)])
        #expect(error?.description.hasPrefix("Circular dependency: A -> B -> A") == true)
    }

    @Test(arguments: ComponentScope.allCases)
    func selfCycleThrowsWithPath(scope: ComponentScope) throws {
        container.register(scope) { [unowned container] () throws -> A in
            _ = try container.resolve() as A
            return A()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as A }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [key(A.self), key(A.self)])
        #expect(error?.description.hasPrefix("Circular dependency: A -> A") == true)
    }

    @Test func cycleThroughTaggedAndForwardedKeysNamesTheRequestedKeys() throws {
        container.register { [unowned container] () throws -> A in
            _ = try container.resolve(tag: "b") as B
            return A()
        }
        container.register(tag: "b") { [unowned container] () throws -> B in
            _ = try container.resolve() as A
            return B()
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as A }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [key(A.self), DefinitionKey(type: B.self, typeOfArguments: Void.self, tag: "b"), key(A.self)])
    }

    @Test(arguments: ComponentScope.allCases, ComponentScope.allCases)
    func containerIsUsableAfterConstructorCycle(a aScope: ComponentScope, b bScope: ComponentScope) throws {
        let aCalls = Counter()
        container.register(aScope) { [unowned container] () throws -> A in
            aCalls.increment()
            _ = try container.resolve() as B
            return A()
        }
        container.register(bScope) { [unowned container] () throws -> B in
            _ = try container.resolve() as A
            return B()
        }
        container.register { C() }

        // The same cycle fails the same way again: nothing was left half-constructed.
        for _ in 0..<2 {
            let error = #expect(throws: ResolutionError.self) { try container.resolve() as A }
            guard case .circularDependency = error else {
                Issue.record("expected circularDependency, got \(String(describing: error))")
                return
            }
        }
        #expect(try container.resolve(C.self) is C)

        container.register(bScope) { B() }
        let a: A = try container.resolve()
        let b: B = try container.resolve()
        #expect(aCalls.count == 3)
        if aScope != .unique && aScope != .shared {
            #expect(try container.resolve() as A === a)
        }
        if bScope != .unique && bScope != .shared {
            #expect(try container.resolve() as B === b)
        }
    }

    // MARK: Depth

    @Test(arguments: ComponentScope.allCases)
    func deepChainResolvesWithoutDepthLimit(scope: ComponentScope) throws {
        // Under a sanitizer each level costs many times more (a singleton level creates a mutex ThreadSanitizer
        // tracks): 2,000 levels of six scopes at once took over a minute on a loaded 2-core machine there.
        let depth = isSanitized ? 400 : 2_000
        for index in 0..<depth {
            container.register(scope, tag: index) { [unowned container] () throws -> Node in
                Node(next: index + 1 < depth ? try container.resolve(tag: index + 1) : nil)
            }
        }
        // Each level is a factory that calls `resolve`: user recursion that needs several kilobytes of stack per
        // level in debug builds, more than the 8 MB of a default thread for 2,000 levels. Run it on a thread with
        // a large stack: what is tested is that Plexus sets no depth limit of its own.
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread(
            block: quiet { [container] in
                defer { done.signal() }
                outcome.result = Result { (try container.resolve(tag: 0) as Node).length }
            })
        thread.stackSize = 64 << 20
        thread.start()

        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(try outcome.result?.get() == depth)
    }
}
