import Plexus
import Testing

// A container remembers where its lookups went (routes into collaborators, typed accessors' answers) for as long as
// its answer generation stays: every change that could move an answer in the container, or in a container it reaches
// through collaboration, moves it; a change anywhere else leaves it, so the remembered answers stay.

private protocol Service: AnyObject, Sendable {}
private final class Plain: Service {}
private final class Other: Service {}
private final class Nearer: Service {}
private final class Tally: Sendable {}

extension DependencyContainer {
    fileprivate var generationTally: Factory<Tally> { self { Tally() }.singleton }
}

@Suite struct GenerationTests {
    private func generation(_ container: DependencyContainer) -> Int {
        EngineTestHooks.answerGeneration(of: container)
    }

    @Test func aChangeInAContainerNobodyReachesLeavesTheOthersAlone() throws {
        let (app, module) = (DependencyContainer(), DependencyContainer())
        module.register(.singleton) { Plain() as Service }
        app.collaborate(with: module)
        _ = try app.resolve() as Service
        let before = (generation(app), generation(module))
        let screen = DependencyContainer()
        screen.register { Other() as Service }
        screen.collaborate(with: app)
        _ = try screen.resolve() as Service
        #expect(generation(app) == before.0)
        #expect(generation(module) == before.1)
    }

    @Test func aChangeReachesEveryContainerThatCollaboratesWithItDirectlyOrThroughOthers() {
        let (app, feature, module, unrelated) = (
            DependencyContainer(), DependencyContainer(), DependencyContainer(), DependencyContainer()
        )
        app.collaborate(with: feature)
        feature.collaborate(with: module)
        let before = (generation(app), generation(feature), generation(unrelated))
        module.register { Plain() as Service }
        #expect(generation(app) != before.0)
        #expect(generation(feature) != before.1)
        #expect(generation(unrelated) == before.2)
    }

    @Test func collaborationLoopsEndAndReachEveryContainerOfTheLoop() {
        let (first, second, third) = (DependencyContainer(), DependencyContainer(), DependencyContainer())
        first.collaborate(with: second)
        second.collaborate(with: third)
        third.collaborate(with: first)
        let before = [first, second, third].map(generation)
        second.register { Plain() as Service }
        #expect(zip([first, second, third].map(generation), before).allSatisfy { $0 != $1 })
    }

    @Test func aFreedCollaboratorMovesTheGenerationOfThoseThatReachedIt() throws {
        let app = DependencyContainer()
        var module: DependencyContainer? = DependencyContainer()
        module?.register(.singleton) { Plain() as Service }
        app.collaborate(with: module!)
        _ = try app.resolve() as Service
        let before = generation(app)
        module = nil
        #expect(generation(app) != before)
        #expect(throws: ResolutionError.self) { try app.resolve() as Service }
    }

    @Test func aRouteThroughTwoCollaboratorsFollowsAReRegistrationAtItsEnd() throws {
        let (app, feature, module) = (DependencyContainer(), DependencyContainer(), DependencyContainer())
        app.collaborate(with: feature)
        feature.collaborate(with: module)
        module.register(.singleton) { Plain() as Service }
        #expect(try app.resolve() as Service is Plain)
        #expect(try app.resolve() as Service is Plain)
        module.register(.singleton) { Other() as Service }
        #expect(try app.resolve() as Service is Other)
    }

    @Test func aDefinitionAddedNearerOnTheWayAnswersInsteadOfTheRemembered() throws {
        let (app, feature, module) = (DependencyContainer(), DependencyContainer(), DependencyContainer())
        app.collaborate(with: feature)
        feature.collaborate(with: module)
        module.register(.unique) { Plain() as Service }
        #expect(try app.resolve() as Service is Plain)
        #expect(try app.resolve() as Service is Plain)
        feature.register(.unique) { Nearer() as Service }
        #expect(try app.resolve() as Service is Nearer)
        feature.reset()
        #expect(try app.resolve() as Service is Plain)
    }

    @Test func aSnapshotRestoredInACollaboratorMovesTheRoutesThroughIt() throws {
        let (app, module) = (DependencyContainer(), DependencyContainer())
        app.collaborate(with: module)
        module.register(.unique) { Plain() as Service }
        let snapshot = module.snapshot()
        module.register(.unique) { Other() as Service }
        #expect(try app.resolve() as Service is Other)
        module.restore(snapshot)
        #expect(try app.resolve() as Service is Plain)
    }

    @Test func aCopyAndItsOriginalAnswerAnAccessorFromTheirOwnSlotsOnManyThreads() {
        let original = DependencyContainer()
        let kept = original.generationTally()
        let copy = original.copyingInstances(name: "copy")
        copy.generationTally.reset()
        let made = copy.generationTally()
        let wrong = Collected<String>()
        let finished = runOnThreads(4) { thread in
            for _ in 0..<2_000 {
                let (container, expected) = thread % 2 == 0 ? (original, kept) : (copy, made)
                if container.generationTally() !== expected { wrong.append("thread \(thread)") }
            }
        }
        #expect(finished)
        #expect(made !== kept)
        #expect(wrong.values.isEmpty, "\(wrong.values.prefix(3))")
    }
}
