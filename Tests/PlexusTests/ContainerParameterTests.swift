import Plexus
import PlexusTesting
import Testing

// A factory that takes a `DependencyContainer` parameter is handed the container it resolves from, so it needs no
// capture list: nothing keeps the container alive, and resolving from the parameter joins the graph in progress.

private final class Leaf {}

private final class Branch {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

private final class Trunk {
    let branch: Branch
    let leaf: Leaf
    init(branch: Branch, leaf: Leaf) {
        self.branch = branch
        self.leaf = leaf
    }
}

/// Remembers the container its factory was handed.
private final class Witness {
    weak var container: DependencyContainer?
    init(container: DependencyContainer) { self.container = container }
}

private final class Cell {
    let id: Int
    init(id: Int) { self.id = id }
}

private protocol Greeter {}
private final class EnglishGreeter: Greeter {}

private final class Chicken {
    init(egg: Egg) {}
}

private final class Egg {
    init(chicken: Chicken) {}
}

@Suite(.silencingPlexusLogs) struct ContainerParameterTests {
    let container = DependencyContainer()

    @Test(arguments: ComponentScope.allCases)
    func containerOfFactoriesTakingItAsAParameterIsFreed(scope: ComponentScope) throws {
        weak var weakContainer: DependencyContainer?
        weak var weakTrunk: Trunk?
        try {
            let container = DependencyContainer()
            container.register(scope) { c in Trunk(branch: try c.resolve(), leaf: try c.resolve()) }
            container.register(scope) { c in Branch(leaf: try c.resolve()) }
            container.register(scope) { Leaf() }
            try container.bootstrap()
            let trunk: Trunk = try container.resolve()
            weakContainer = container
            weakTrunk = trunk
        }()

        #expect(weakContainer == nil, "the container leaked")
        #expect(weakTrunk == nil, "an instance outlived its container")
    }

    @Test func sharedInstancesAreSharedThroughThePassedContainer() throws {
        container.register { c in Trunk(branch: try c.resolve(), leaf: try c.resolve()) }
        container.register { c in Branch(leaf: try c.resolve()) }
        container.register(.shared) { Leaf() }

        let trunk: Trunk = try container.resolve()
        let other: Trunk = try container.resolve()

        #expect(trunk.leaf === trunk.branch.leaf, "one .shared Leaf per resolution graph")
        #expect(trunk.leaf !== other.leaf, "a new graph, a new .shared Leaf")
    }

    @Test func aCycleThroughThePassedContainerThrowsWithItsPath() {
        container.register { c in Chicken(egg: try c.resolve()) }
        container.register { c in Egg(chicken: try c.resolve()) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Chicken }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected a circular dependency, got \(String(describing: error))")
            return
        }
        #expect(path.map { "\($0.type)" } == ["Chicken", "Egg", "Chicken"])
    }

    @Test func thePassedContainerIsTheOneRegisteredWithEvenWhenACollaboratorResolves() throws {
        let feature = DependencyContainer()
        feature.register(.unique) { c in Witness(container: c) }
        container.collaborate(with: feature)

        let witness: Witness = try container.resolve()

        #expect(witness.container === feature)
    }

    @Test func everyRegisterFormTakesTheContainerParameter() throws {
        container.register(.singleton, tag: "main") { c in Witness(container: c) }
        container.register { (c: DependencyContainer) -> Branch in Branch(leaf: try c.resolve()) }
        container.register(type: Greeter.self) { _ in EnglishGreeter() }
        container.register { Leaf() }

        let tagged = try container.resolve(tag: "main") as Witness
        #expect(tagged.container === container)
        #expect(try container.resolve(tag: "main") as Witness === tagged, "a tagged singleton")
        #expect(throws: Never.self) { try container.resolve() as Branch }
        #expect(try container.resolve() as Greeter is EnglishGreeter)
    }

    @Test func aParameterOfAnyOtherTypeIsStillARuntimeArgument() throws {
        container.register { (id: Int) in Cell(id: id) }

        let cell: Cell = try container.resolve(arguments: 7)
        #expect(cell.id == 7)
        let error = #expect(throws: ResolutionError.self) { try container.resolve() as Cell }
        guard case .autoWiringFailed = error else {
            Issue.record("expected auto-wiring to look for an Int, got \(String(describing: error))")
            return
        }
        container.register { 42 }
        #expect((try container.resolve() as Cell).id == 42, "auto-wired from the registered Int")
    }

    @Test func aFactoryCapturingTheContainerStillWorks() throws {
        container.register { [unowned container] in Branch(leaf: try container.resolve()) }
        container.register(.shared) { Leaf() }

        #expect(throws: Never.self) { try container.resolve() as Branch }
    }

    @Test(arguments: ComponentScope.allCases)
    func everyWayToReachTheDefinitionHandsItsOwnContainer(scope: ComponentScope) throws {
        let feature = DependencyContainer()
        feature.register(scope) { c in Witness(container: c) }
        feature.register(scope, tag: "tagged") { c in Witness(container: c) }
        container.collaborate(with: feature)
        for _ in 0..<3 {  // the first resolve takes the general path, later ones the remembered routes
            #expect((try container.resolve() as Witness).container === feature, "through a collaborator")
            #expect((try container.resolve() as Witness?)?.container === feature, "as an optional")
            #expect((try feature.resolve() as Witness?)?.container === feature, "an optional, locally")
            #expect((try feature.resolve(tag: "tagged") as Witness).container === feature, "under a tag")
            #expect((try feature.resolve(Witness.self) as? Witness)?.container === feature, "by a runtime type")
        }
    }

    @Test func aDefinitionRegisteredInTwoContainersGetsTheOneItRunsIn() throws {
        let other = DependencyContainer()
        weak var firstGone: DependencyContainer?
        try { () throws in
            let first = DependencyContainer()
            firstGone = first
            let definition = first.register(.unique) { c in Witness(container: c) }
            other.register(definition)
            #expect((try first.resolve() as Witness).container === first)
            #expect((try other.resolve() as Witness).container === other)
        }()

        #expect(firstGone == nil, "the definition kept the container it was registered with alive")
        #expect((try other.resolve() as Witness).container === other, "the definition outlived its first container")
    }
}
