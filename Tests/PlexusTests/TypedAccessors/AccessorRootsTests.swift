import Plexus
import PlexusTesting
import Testing

private final class Clock: Sendable {}
private final class Feed: Sendable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}
private final class Screen: Sendable {
    let feed: Feed
    init(feed: Feed) { self.feed = feed }
}
private final class Cache: Sendable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

extension DependencyContainer {
    fileprivate enum NamespaceRootScreens {}
    fileprivate typealias RootScreens = Namespace<NamespaceRootScreens>
    fileprivate var rootScreens: RootScreens { namespace() }

    fileprivate var rootClock: Factory<Clock> { self { Clock() } }
    fileprivate var rootFeed: Factory<Feed> { self { Feed(clock: self.rootClock()) } }
    fileprivate var rootCache: Factory<Cache> { self { Cache(clock: self.rootClock()) }.singleton }
    fileprivate var rootDetail: ParameterFactory<Int, Feed> { self { _ in Feed(clock: self.rootClock()) } }
    fileprivate var rootStore: AsyncFactory<Cache> {
        self {
            await Task.yield()
            return Cache(clock: self.rootClock())
        }
        .singleton
    }
    /// A synchronous accessor, whose key the tests answer with an `async` or `@MainActor` definition.
    fileprivate var rootTicker: Factory<Clock> { self { Clock() } }
    fileprivate var rootScreen: MainActorFactory<Screen> {
        self { @MainActor in Screen(feed: self.rootFeed()) }
    }
}

extension DependencyContainer.RootScreens {
    fileprivate var screen: Factory<Screen> {
        get { resolve { Screen(feed: self.container.rootFeed()) } }
        set { inject(newValue) }
    }
}

@Suite(.silencingPlexusLogs) struct AccessorRootsTests {
    let container = DependencyContainer()

    @Test func rootsAreValidatedWithoutHavingBeenCalled() throws {
        let report = try container.validate(roots: \.rootScreens.screen)
        let types = Set(report.nodes.map(\.key.type))
        #expect(types.isSuperset(of: ["Screen", "Feed", "Clock"]))
        #expect(report.edges.count >= 2)
    }

    @Test func aRootIsNeverUnused() throws {
        let report = try container.validate(roots: \.rootScreens.screen, \.rootCache)
        let unused = report.findings.filter { $0.kind == .unused }.flatMap(\.path).map(\.type)
        #expect(!unused.contains("Screen"))
        #expect(!unused.contains("Cache"))
    }

    @Test func aRootsCaptiveDependencyIsReported() throws {
        let report = try container.validate(roots: \.rootCache)
        let captive = report.findings.filter { $0.kind == .captiveDependency }
        #expect(captive.count == 1)
        #expect(captive.first?.path.map(\.type) == ["Cache", "Clock"])
    }

    @Test func diagramsLabelTheEdgeOfACaptiveDependencyAndCarryALegend() throws {
        let report = try container.validate(roots: \.rootCache)
        let dot = report.dot
        let captiveEdge = dot.split(separator: "\n").first {
            $0.contains("->") && $0.contains("captive") && !$0.contains("legend")
        }
        #expect(captiveEdge?.contains("#e67e22") == true)
        #expect(dot.contains("subgraph cluster_legend {"))
        let mermaid = report.mermaid
        #expect(mermaid.contains("captive|"))
        #expect(mermaid.contains("subgraph legend[\"Legend\"]"))
        #expect(mermaid.contains("stroke:#e67e22"))
    }

    @Test func aKeyPathThatIsNotAnAccessorIsSkipped() throws {
        let report = try container.validate(roots: \.name)
        #expect(report.nodes.isEmpty)
    }

    @Test func aRootTakingAnArgumentIsBuiltWithAnArgumentSetOfItsType() throws {
        let report = try container.validate(roots: \.rootDetail, arguments: ["not an Int", 42])
        let types = Set(report.nodes.map(\.key.type))
        #expect(types.isSuperset(of: ["Feed", "Clock"]))
        let unused = report.findings.filter { $0.kind == .unused }.flatMap(\.path).map(\.type)
        #expect(!unused.contains("Feed"))
    }

    @Test func aRootTakingAnArgumentWithoutOneIsReportedAsNeedingOne() throws {
        let messages = Log()
        let report = try Plexus.withLogging(level: .errors, logger: messages.logger) {
            try container.validate(roots: \.rootDetail, \.rootCache)
        }
        #expect(messages.entries.contains { $0.contains("rootDetail") && $0.contains("needs an argument") })
        #expect(!report.nodes.contains { $0.key.type == "Feed" })
        #expect(report.nodes.contains { $0.key.type == "Cache" })
    }

    @Test func theSynchronousFormReportsRootsThatNeedAwait() throws {
        let messages = Log()
        try Plexus.withLogging(level: .errors, logger: messages.logger) {
            try container.validate(roots: \.rootStore)
        }
        #expect(messages.entries.contains { $0.contains("rootStore") && $0.contains("validateAsync(roots:)") })
    }

    @Test func bothFormsThrowForASynchronousRootWhoseKeyIsAnsweredByAnAsyncDefinition() async throws {
        container.register(tag: "DependencyContainer.rootTicker") { () async -> Clock in
            await Task.yield()
            return Clock()
        }
        // The root is built as its callers resolve it, synchronously: the async form does not await for it either.
        let synchronous = #expect(throws: ResolutionError.self) { try container.validate(roots: \.rootTicker) }
        let awaited = await #expect(throws: ResolutionError.self) {
            try await container.validateAsync(roots: \.rootTicker)
        }
        for error in [synchronous, awaited] {
            guard case .requiresAwait(let key) = error else {
                Issue.record("expected requiresAwait, got \(String(describing: error))")
                continue
            }
            #expect(key.tag == "DependencyContainer.rootTicker")
        }
    }

    @Test func bothFormsThrowForASynchronousRootWhoseKeyIsAnsweredByAMainActorDefinition() async throws {
        container.register(tag: "DependencyContainer.rootTicker") { @MainActor in Clock() }
        let synchronous = #expect(throws: ResolutionError.self) { try container.validate(roots: \.rootTicker) }
        let awaited = await #expect(throws: ResolutionError.self) {
            try await container.validateAsync(roots: \.rootTicker)
        }
        for error in [synchronous, awaited] {
            guard case .requiresMainActor(let key) = error else {
                Issue.record("expected requiresMainActor, got \(String(describing: error))")
                continue
            }
            #expect(key.tag == "DependencyContainer.rootTicker")
        }
    }

    @Test func theAsyncFormBuildsAsyncAndMainActorRoots() async throws {
        let report = try await container.validateAsync(roots: \.rootStore, \.rootScreen, \.rootDetail, arguments: [7])
        let types = Set(report.nodes.map(\.key.type))
        #expect(types.isSuperset(of: ["Cache", "Screen", "Feed", "Clock"]))
        let unused = report.findings.filter { $0.kind == .unused }.flatMap(\.path).map(\.type)
        #expect(!unused.contains("Cache"))
        #expect(!unused.contains("Screen"))
    }
}
