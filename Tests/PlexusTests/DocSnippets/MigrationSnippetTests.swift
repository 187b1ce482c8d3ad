import Plexus
import PlexusTesting
import Testing

// The snippets of the DocC article MigratingFromDip.md that capture the container or show how to fix code that
// does not compile unchanged, kept here verbatim (wrapped in tests, with the fixture types they assume) so that
// they cannot rot. Each test checks what the article says.

private protocol Client: AnyObject { var server: Server { get } }
private protocol Server: AnyObject { var client: Client? { get set } }

private final class ClientImp: Client {
    let server: Server
    init(server: Server) { self.server = server }
}
private final class ServerImp: Server {
    weak var client: Client?
}

private final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
}
private final class Child {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

private final class Node {
    let child: Node?
    init(child: Node?) { self.child = child }

    static func chain(depth: Int) -> Node {
        var node = Node(child: nil)
        for _ in 0..<depth { node = Node(child: node) }
        return node
    }

    var depth: Int { child.map { $0.depth + 1 } ?? 0 }
}

private final class ListView {}
private final class ListPresenter {
    var view: ListView?
}

// Internal, not private: release builds spell a private type's name with its context ("(Report in _C1…)").
final class MigrationReport {
    let parts: [String]
    init(parts: [String]) { self.parts = parts }
}

private protocol Service: AnyObject, Sendable {}
private final class ServiceImp: Service {}

// The article's switch over the six scopes, in a function of the fixture's.
private func isLongLived(_ scope: ComponentScope) -> Bool {
    switch scope {
    case .singleton, .eagerSingleton, .weakSingleton, .cached: return true
    case .unique, .shared: return false
    }
}

// The exhaustive switch of the article, verbatim.
private func advice(for error: DipError) -> String {
    switch error {
    case .definitionNotFound(let key): return "register \(key.type)"
    case .autoInjectionFailed(let label, _, _): return "check the property \(label ?? "?")"
    case .autoWiringFailed(let type, _): return "register an explicit factory for \(type)"
    case .ambiguousDefinitions(let type, let definitions): return "\(definitions.count) ways to make \(type)"
    case .invalidType(let resolved, let key): return "\(resolved.map { "\($0)" } ?? "nil") is not a \(key.type)"
    case .circularDependency(let path): return "inject one of \(path.map(\.type)) in a hook"  // new in Plexus
    case .resolutionTooDeep(let depth, _): return "\(depth) nested factories: build the chain in one"  // new
    case .requiresAwait(let key): return "resolve \(key.type) with await"  // new
    case .requiresMainActor(let key): return "resolve \(key.type) on the main actor"  // new
    }
}

@Suite(.silencingPlexusLogs) struct MigrationSnippetTests {
    @Test func noFactoryRunsTwiceInACycle() throws {
        let container = DependencyContainer()
        container.register { [unowned container] in ClientImp(server: try container.resolve()) as Client }
        container.register { ServerImp() as Server }
            .resolvingProperties { container, server in server.client = try container.resolve() }
        let client: Client = try container.resolve()
        #expect(client.server.client === client)
    }

    @Test func constructorCycleThrowsInsteadOfOverflowingTheStack() throws {
        let container = DependencyContainer()
        container.register { [unowned container] in Parent(child: try container.resolve()) }
        container.register { [unowned container] in Child(parent: try container.resolve()) }
        let error = #expect(throws: ResolutionError.self) {
            let parent: Parent = try container.resolve()
            _ = parent
        }
        guard case .circularDependency = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect("\(error!)".hasPrefix("Circular dependency: Parent -> Child -> Parent"))
        #expect(advice(for: error!).hasPrefix("inject one of"))
    }

    @Test func recursionThroughTheContainerThrowsAndTheChainInOneFactoryWorks() throws {
        let container = DependencyContainer()
        // Dip: allowed
        container.register { [unowned container] (depth: Int) in
            Node(child: depth == 0 ? nil : try container.resolve(arguments: depth - 1))
        }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(arguments: 3) as Node }
        guard case .circularDependency = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        // Plexus: build the chain in the factory
        container.register { (depth: Int) in Node.chain(depth: depth) }
        #expect((try container.resolve(arguments: 3) as Node).depth == 3)
    }

    @Test func exhaustiveSwitchAdvisesOnEveryCase() throws {
        let key = DefinitionKey(type: MigrationReport.self, typeOfArguments: Void.self, tag: "prod")
        #expect(advice(for: .definitionNotFound(key: key)).hasPrefix("register MigrationReport"))
        #expect(advice(for: .invalidType(resolved: Int.self, key: key)) == "Int is not a MigrationReport")
        #expect(advice(for: .resolutionTooDeep(depth: 9000, path: [key])).hasPrefix("9000 nested factories"))
        #expect(
            advice(for: .ambiguousDefinitions(type: MigrationReport.self, definitions: [key, key]))
                == "2 ways to make MigrationReport")
    }

    @Test func oneLineFixesCompileAndWork() throws {
        let container = DependencyContainer()
        // Dip's key-path hook compiles as it is
        container.register { ListPresenter() }
            .resolvingProperty(\.view)
        container.register { ListView() }
        #expect((try container.resolve() as ListPresenter).view != nil)

        // `case .String(let name)` → `case .string(let name)`
        let prod: DependencyContainer.Tag = .String("prod")
        guard case .string(let name) = prod else {
            Issue.record("expected a string tag")
            return
        }
        #expect(name == "prod")

        // an exhaustive switch over `LogLevel`
        let level: LogLevel = .Verbose
        switch level {
        case .none: Issue.record("expected verbose")
        case .errors: Issue.record("expected verbose")
        case .verbose: break
        }

        // `ambiguousDefinitions` carries keys; `invalidType` carries the instance's type
        let keys = [DefinitionKey(type: MigrationReport.self, typeOfArguments: Void.self, tag: "a")]
        #expect(keys.map(\.tag) == ["a"])
        let resolved: Any.Type? = Int.self
        #expect(resolved.map { "\($0)" } == "Int")

        // `resolve(tag:builder:)` → any number of arguments
        container.register(tag: "weekly") {
            (a: String, b: String, c: String, d: String, e: String, f: String, g: String) in
            MigrationReport(parts: [a, b, c, d, e, f, g])
        }
        let (tag, a, b, c, d, e, f, g) = ("weekly", "a", "b", "c", "d", "e", "f", "g")
        let report: MigrationReport = try container.resolve(tag: tag, arguments: a, b, c, d, e, f, g)
        #expect(report.parts.joined() == "abcdefg")

        // `Dip.logLevel` → `Plexus.logLevel`
        #expect(Plexus.logLevel >= .none)
    }

    @Test func capturedMutableStateMovesIntoASendableCounter() throws {
        let container = DependencyContainer()
        // Plexus: a captured `var` is not Sendable
        let created = Counter()  // your own Sendable counter (a lock or an atomic inside)
        container.register { () -> Service in
            created.increment()
            return ServiceImp()
        }

        _ = try container.resolve() as Service
        _ = try container.resolve() as Service
        #expect(created.count == 2)
    }

    @Test(arguments: ComponentScope.allCases) func switchOverTheSixScopesCompiles(scope: ComponentScope) {
        #expect(isLongLived(scope) == (scope != .unique && scope != .shared))
    }
}
