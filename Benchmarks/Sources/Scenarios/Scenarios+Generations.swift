import Plexus

// What a change in one container costs the others: a container made and given a definition (a screen's module
// container, say) while an app container reads a module's singleton through collaboration. Routes and typed
// accessors' answers are valid while nothing that could change them changed.

/// An app container that collaborates with a module's, whose singleton it has read once.
private func appReadingAModule() -> (app: DependencyContainer, module: DependencyContainer) {
    let (app, module) = (DependencyContainer(), DependencyContainer())
    module.register(.singleton) { ApiClient() }
    app.collaborate(with: module)
    _ = try? app.resolve() as ApiClient
    return (app, module)
}

extension Scenario {
    /// Per operation: a new container with one definition, then four reads of a module's singleton through the app
    /// container. `singleton-through-collaborator` is the four reads alone.
    static var readsAfterAnotherContainersRegistration: Scenario {
        Scenario(
            id: "reads-after-another-registration", title: "new container + 1 registration, 4 reads via collaborator",
            contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            let (app, module) = appReadingAModule()
            return Runner { count in
                withExtendedLifetime(module) {}
                for _ in 0..<count {
                    let screen = DependencyContainer()
                    screen.register(.unique) { Leaf() }
                    blackHole(screen)
                    for _ in 0..<4 { blackHole(try app.resolve() as ApiClient) }
                }
            }
        }
    }

    /// Per operation: four reads of a module's singleton through the app container, with nothing changing between
    /// them.
    static var readsThroughCollaborator: Scenario {
        Scenario(
            id: "singleton-through-collaborator", title: "4 reads of a singleton via collaborator",
            contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            let (app, module) = appReadingAModule()
            return Runner { count in
                withExtendedLifetime(module) {}
                for _ in 0..<count {
                    for _ in 0..<4 { blackHole(try app.resolve() as ApiClient) }
                }
            }
        }
    }

    /// Per operation: a singleton typed accessor read through an app container that collaborates with a module's (no
    /// override anywhere), against `accessor-singleton` (a container without collaborators).
    static var accessorThroughCollaboratingContainer: Scenario {
        Scenario(
            id: "accessor-singleton-collaborating", title: "typed accessor, singleton, container with a collaborator",
            contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            let (app, module) = appReadingAModule()
            blackHole(app.benchmarkApiClient())
            return Runner { count in
                withExtendedLifetime(module) {}
                for _ in 0..<count { blackHole(app.benchmarkApiClient()) }
            }
        }
    }

    /// Per operation: the same singleton typed accessor read through the app container, whose module container
    /// overrides it (`replace`): the module's singleton answers, against `accessor-singleton-collaborating` (no
    /// override anywhere).
    static var accessorOverriddenInCollaborator: Scenario {
        Scenario(
            id: "accessor-singleton-collaborator-override",
            title: "typed accessor, singleton, overridden in a collaborator", contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            let (app, module) = appReadingAModule()
            module.benchmarkApiClient.replace { ApiClient() }
            blackHole(app.benchmarkApiClient())
            return Runner { count in
                withExtendedLifetime(module) {}
                for _ in 0..<count { blackHole(app.benchmarkApiClient()) }
            }
        }
    }

    /// Per operation: a new container with one definition, nothing read.
    static var newContainerWithOneRegistration: Scenario {
        Scenario(id: "new-container-1", title: "new container + 1 registration", contenders: [.plexus]) {
            contender in
            guard contender == .plexus else { return nil }
            return Runner { count in
                for _ in 0..<count {
                    let screen = DependencyContainer()
                    screen.register(.unique) { Leaf() }
                    blackHole(screen)
                }
            }
        }
    }
}
