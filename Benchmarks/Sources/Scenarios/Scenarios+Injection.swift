import Plexus
import Swinject

extension Scenario {
    /// A `.unique` object whose factory takes two arguments, resolved without arguments: Plexus resolves the
    /// arguments itself (both `.unique`). Swinject has no auto-wiring: an explicit factory does the same.
    static var autoWiring: Scenario {
        Scenario(id: "auto-wiring", title: "auto-wiring (2 dependencies)") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Wired(a: PartA(), b: PartB())) }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(PartA.self) { _ in PartA() }.inObjectScope(.transient)
                container.register(PartB.self) { _ in PartB() }.inObjectScope(.transient)
                container.register(Wired.self) { r in Wired(a: r.resolve(PartA.self)!, b: r.resolve(PartB.self)!) }
                    .inObjectScope(.transient)
                return Runner(note: "no auto-wiring in Swinject: an explicit factory resolving both") { count in
                    for _ in 0..<count { blackHole(container.resolve(Wired.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.unique) { PartA() }
                container.register(.unique) { PartB() }
                container.register(.unique) { (a: PartA, b: PartB) in Wired(a: a, b: b) }
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as Wired) }
                }
            }
        }
    }

    /// A `.unique` object with two `@Injected` properties (both singletons). Swinject has no auto-injection:
    /// an `initCompleted` hook sets the same two properties; by hand, two assignments.
    static var autoInjection: Scenario {
        Scenario(id: "auto-injection", title: "auto-injection, 2 @Injected") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                let api = ApiClient()
                let store = Store(api: api)
                return Runner { count in
                    for _ in 0..<count {
                        let client = PropertyClient()
                        client.api = api
                        client.store = store
                        blackHole(client)
                    }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(ApiClient.self) { _ in ApiClient() }.inObjectScope(.container)
                container.register(Store.self) { r in Store(api: r.resolve(ApiClient.self)!) }
                    .inObjectScope(.container)
                container.register(PropertyClient.self) { _ in PropertyClient() }
                    .initCompleted { r, client in
                        client.api = r.resolve(ApiClient.self)
                        client.store = r.resolve(Store.self)
                    }
                    .inObjectScope(.transient)
                precondition(container.resolve(PropertyClient.self)?.store != nil, "Swinject did not inject")
                return Runner(note: "no auto-injection in Swinject: `initCompleted` sets the properties") { count in
                    for _ in 0..<count { blackHole(container.resolve(PropertyClient.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                container.register(.singleton) { Store(api: try container.resolve()) }
                container.register(.unique) { InjectedClient() }
                precondition((try? container.resolve() as InjectedClient)?.store != nil, "Plexus did not inject")
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as InjectedClient) }
                }
            }
        }
    }

    /// A `.unique` object with three `@Injected` properties (all singletons), against three assignments by hand:
    /// the per-instance cost of auto-injection.
    static var injected3: Scenario {
        Scenario(id: "injected-3", title: "auto-injection, 3 @Injected", contenders: [.hand, .plexus]) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let api = ApiClient()
                let store = Store(api: api)
                let router = Router()
                return Runner { count in
                    for _ in 0..<count {
                        let client = PropertyClient3()
                        client.api = api
                        client.store = store
                        client.router = router
                        blackHole(client)
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.singleton) { ApiClient() }
                container.register(.singleton) { Store(api: try container.resolve()) }
                container.register(.singleton) { Router() }
                container.register(.unique) { InjectedClient3() }
                precondition((try? container.resolve() as InjectedClient3)?.router != nil, "Plexus did not inject")
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as InjectedClient3) }
                }
            }
        }
    }

    /// A `.unique` object without `@Injected` properties, from a Plexus container with auto-injection on
    /// (the default) or off: the difference is what auto-injection costs a type that has nothing to inject.
    static func noInjectedProperties(autoInject: Bool) -> Scenario {
        Scenario(
            id: autoInject ? "no-injected-on" : "no-injected-off",
            title: "no @Injected, autoInjectProperties: \(autoInject)"
        ) { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(PlainModel()) }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(PlainModel.self) { _ in PlainModel() }.inObjectScope(.transient)
                return Runner { count in
                    for _ in 0..<count { blackHole(container.resolve(PlainModel.self)!) }
                }
            case .plexus:
                let container = DependencyContainer(autoInjectProperties: autoInject)
                container.register(.unique) { PlainModel() }
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as PlainModel) }
                }
            }
        }
    }
}
