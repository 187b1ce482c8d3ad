import PlexusFactoryKit
import PlexusFactoryTesting
import Testing

private final class Shelf {}

private final class Library: SharedContainer {
    @TaskLocal static var shared = Library()
    let manager = ContainerManager()
    var shelf: Factory<Shelf> { self { Shelf() }.singleton }
}

extension Trait where Self == ContainerTrait<Library> {
    fileprivate static var library: ContainerTrait<Library> { .init(shared: Library.$shared, container: Library()) }
}

/// Where the first test of the suite leaves its singleton, for the second to compare with.
private let firstShelf = Locked<Shelf?>(nil)

extension Container {
    fileprivate var greeterForTrait: Factory<any Greeter> { self { EnglishGreeter() } }
}

@Suite(.library) struct ContainerTraitTests {
    @Test func eachTestHasItsOwnContainer() {
        // The other tests of the suite register too; each starts from an empty container all the same.
        #expect(Library.shared.manager.isEmpty(.all))
        Library.shared.shelf.register { Shelf() }
        #expect(!Library.shared.manager.isEmpty(.registration))
    }

    @Test(arguments: 0..<2) func eachTestHasItsOwnSingletons(run: Int) {
        let shelf = Library.shared.shelf()
        #expect(Library.shared.shelf() === shelf)
        let earlier = firstShelf.exchange(shelf)
        #expect(earlier !== shelf)
    }

    @Test(.container { $0.greeterForTrait.register { MockGreeter() } })
    func configureClosureRunsBeforeTheTest() {
        #expect(!Container.shared.manager.isEmpty(.registration))
        #expect(Container.shared.greeterForTrait().greeting == "mock")
    }

    @Test(.container { @MainActor container async in container.greeterForTrait.register { MockGreeter() } })
    func mainActorConfigureClosureRunsBeforeTheTest() {
        #expect(Container.shared.greeterForTrait().greeting == "mock")
    }

    @Test(.container) func defaultContainerStartsEmpty() {
        #expect(Container.shared.manager.isEmpty(.all))
        #expect(Container.shared.greeterForTrait().greeting == "hello")
    }
}
