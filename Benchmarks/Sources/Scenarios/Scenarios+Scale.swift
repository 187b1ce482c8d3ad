import Plexus
import Swinject

extension Scenario {
    /// The `unique` lookup in a container that holds `count` registrations of distinct types.
    static func registrations(_ count: Int) -> Scenario {
        Scenario(id: "registrations-\(count)", title: "unique among \(count) registrations") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .swinject:
                let container = Swinject.Container()
                var remaining = count - 1
                addFillers(Root.self, depth: fillerDepth, remaining: &remaining) { filler in
                    filler.register(in: container)
                }
                container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
                return Runner { count in
                    for _ in 0..<count { blackHole(container.resolve(Leaf.self)!) }
                }
            case .plexus:
                let container = DependencyContainer()
                var remaining = count - 1
                addFillers(Root.self, depth: fillerDepth, remaining: &remaining) { filler in
                    filler.register(in: container)
                }
                container.register(.unique) { Leaf() }
                return Runner { count in
                    for _ in 0..<count { blackHole(try container.resolve() as Leaf) }
                }
            }
        }
    }

    /// The `unique` lookup from a container whose definition sits 8 collaborators away (a chain
    /// c0 -> c1 -> … -> c8, definition in c8; Swinject: a chain of 8 parent containers).
    static var collaborators8: Scenario {
        Scenario(id: "collaborators-8", title: "unique through 8 collaborators") { contender in
            switch contender {
            case .dependencies: return nil  // attached by PeerScenarios where it applies
            case .hand:
                return Runner { count in
                    for _ in 0..<count { blackHole(Leaf()) }
                }
            case .swinject:
                var container = Swinject.Container()
                container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
                for _ in 0..<8 { container = Swinject.Container(parent: container) }
                let leafmost = container
                return Runner(note: "a chain of 8 parent containers") { count in
                    for _ in 0..<count { blackHole(leafmost.resolve(Leaf.self)!) }
                }
            case .plexus:
                let chain = (0...8).map { _ in DependencyContainer() }
                for (container, next) in zip(chain, chain.dropFirst()) {
                    container.collaborate(with: next)
                }
                chain[8].register(.unique) { Leaf() }
                let first = chain[0]
                return Runner(note: "c0 -> c1 -> ... -> c8, each collaborating with the next") { count in
                    withExtendedLifetime(chain) {}
                    for _ in 0..<count { blackHole(try first.resolve() as Leaf) }
                }
            }
        }
    }
}

/// 2^14 = 16,384 distinct filler types are reachable, enough for the 10,000-registration container.
private let fillerDepth = 14

/// A filler type to register, handed over as a value because the closure cannot be generic.
private struct FillerType {
    let registerPlexus: (DependencyContainer) -> Void
    let registerSwinject: (Swinject.Container) -> Void

    init<Path>(_: Path.Type) {
        registerPlexus = { $0.register(.unique) { Filler<Path>() } }
        registerSwinject = { $0.register(Filler<Path>.self) { _ in Filler<Path>() }.inObjectScope(.transient) }
    }

    func register(in container: DependencyContainer) { registerPlexus(container) }
    func register(in container: Swinject.Container) { registerSwinject(container) }
}

/// Visits up to `remaining` distinct `Filler<Path>` types by polymorphic recursion (each level doubles the types).
private func addFillers<Path>(_: Path.Type, depth: Int, remaining: inout Int, _ visit: (FillerType) -> Void) {
    guard remaining > 0 else { return }
    if depth == 0 {
        visit(FillerType(Path.self))
        remaining -= 1
        return
    }
    addFillers(Left<Path>.self, depth: depth - 1, remaining: &remaining, visit)
    addFillers(Right<Path>.self, depth: depth - 1, remaining: &remaining, visit)
}
