import Plexus
import PlexusTesting
import Testing

private final class Clock {}
private final class Formatter {}
private final class Screen {
    init(clock: Clock) {}
    init(clock: Clock, formatter: Formatter) {}
}
private final class Widget {}

extension DependencyContainer {
    fileprivate var widget: Factory<Widget> { self { Widget() } }
}

@Suite(.silencingPlexusLogs) struct GraphReportNodeTests {
    let container = DependencyContainer(name: "Checkout")

    @Test func everyDefinitionIsANodeWithItsScopeAndContainer() throws {
        container.register(.singleton) { Clock() }
        container.register(.unique, tag: "short") { Formatter() }
        let report = try container.validate()
        #expect(report.containers == [GraphReport.Container(name: "Checkout", validated: true)])
        let clock = try #require(report.nodes(of: Clock.self).first)
        #expect(clock.scope == .singleton)
        #expect(clock.container == "Checkout")
        #expect(clock.kind == .definition)
        #expect(clock.id == "Checkout/Clock")
        let formatter = try #require(report.nodes(of: Formatter.self).first)
        #expect(formatter.key.tag == "\"short\"")
        #expect(
            formatter.key
                == GraphReport.Key(DefinitionKey(type: Formatter.self, typeOfArguments: Void.self, tag: "short")))
        #expect(report.node(formatter.id) == formatter)
    }

    @Test func registerRecordsTheFileAndLineOfItsCall() throws {
        let line = #line + 1
        container.register(.singleton) { Clock() }
        container.register(.unique, type: Formatter.self, tag: 7, factory: { Formatter() })
        let report = try container.validate()
        let clock = try #require(report.nodes(of: Clock.self).first)
        #expect(clock.site == GraphReport.Site(file: #fileID, line: line))
        #expect(report.nodes(of: Formatter.self).first?.site?.line == line + 1)
        #expect(clock.site?.description == "\(#fileID):\(line)")
    }

    @Test func theDefaultNameIsTheFileThatCreatedTheContainer() throws {
        let unnamed = DependencyContainer()
        unnamed.register { Widget() }
        let report = try unnamed.validate()
        #expect(report.containers.first?.name == #fileID)
        #expect(report.nodes.first?.container == #fileID)
    }

    @Test func aDefinitionWithArgumentsIsOneNodeWithItsArgumentTypes() throws {
        container.register(.unique) { (count: Int, name: String) in "\(name)\(count)" }
        let report = try container.validate((2, "x"))
        #expect(report.nodes.map(\.key.arguments) == ["(Int, String)"])
    }

    @Test func aSingletonMadeBeforeValidateHasKnownDependencies() throws {
        container.register(.singleton) { [unowned container] in Screen(clock: try container.resolve()) }
        container.register(.unique) { Clock() }
        _ = try container.resolve() as Screen
        let report = try container.validate()
        // `validate` runs its factory again for an instance of its own, so what it resolves is seen.
        #expect(report.nodes.allSatisfy { $0.dependenciesKnown })
        #expect(report.edges.count == 1)
    }

    @Test func aFreshContainerKnowsEveryDependency() throws {
        container.register(.singleton) { [unowned container] in Screen(clock: try container.resolve()) }
        container.register(.unique) { Clock() }
        let report = try container.validate()
        #expect(report.nodes.allSatisfy { $0.dependenciesKnown })
        #expect(report.edges.count == 1)
    }

    @Test func aTypedAccessorIsANodeOfItsOwnKind() throws {
        _ = container.widget()
        let report = try container.validate()
        let widget = try #require(report.nodes(of: Widget.self).first)
        #expect(widget.kind == .typedAccessor)
        #expect(widget.key.tag == "\"DependencyContainer.widget\"")
        #expect(widget.site == nil)
    }

    @Test func aTypedAccessorReplacedBeforeItsFirstUseIsANodeOfTheAccessorKind() throws {
        container.widget.replace { Widget() }
        let report = try container.validate()
        let widget = try #require(report.nodes(of: Widget.self).first)
        #expect(widget.kind == .typedAccessor)
        #expect(widget.site == nil)
    }

    @Test func twoContainersWithOneNameAreToldApart() throws {
        let other = DependencyContainer(name: "Checkout")
        other.register { Clock() }
        container.register { [unowned container] in Screen(clock: try container.resolve()) }
        container.collaborate(with: other)
        let report = try container.validate()
        #expect(report.containers.map(\.name) == ["Checkout", "Checkout #2"])
        #expect(report.nodes(of: Clock.self).first?.id == "Checkout #2/Clock")
    }

    /// A name the numbering would give is skipped when a container already has it.
    @Test func aContainerNamedLikeANumberedOneKeepsNamesApart() throws {
        let validated = DependencyContainer(name: "Root #2")
        let first = DependencyContainer(name: "Root")
        let second = DependencyContainer(name: "Root")
        first.register { Clock() }
        second.register { Formatter() }
        validated.register { [unowned validated] in
            Screen(clock: try validated.resolve(), formatter: try validated.resolve())
        }
        validated.collaborate(with: first, second)
        let names = try validated.validate().containers.map(\.name)
        #expect(names == ["Root #2", "Root", "Root #3"])
    }
}
