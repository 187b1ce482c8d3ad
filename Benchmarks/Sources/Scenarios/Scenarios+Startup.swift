import Plexus
import Swinject

// What an app pays before its first screen: registering definitions, the memory they keep, and overriding one in a
// test. A registration row's operation is one registration among `startupDefinitions` distinct ones (a new
// container every `startupDefinitions` operations, so the table grows as at a launch); its time times
// `startupDefinitions` is the time to register them all.

/// How many distinct definitions a startup row registers into one container.
public let startupDefinitions = 10_000

/// The Swinject names of the distinct definitions (a `String` each; Plexus and the hand-written table use the `Int`).
private let startupNames = (0..<startupDefinitions).map { "\($0)" }

extension DependencyContainer {
    /// The accessor the override rows replace.
    var benchmarkOverridden: Factory<Leaf> { self { Leaf() } }

    enum BenchmarkAccessors {}
    /// The namespace of the accessor the assignment row assigns.
    var benchmarkAccessors: Namespace<BenchmarkAccessors> { namespace() }
}

extension Namespace where Marker == DependencyContainer.BenchmarkAccessors {
    /// The accessor the assignment row assigns `.single { … }` to.
    var assigned: SingletonFactory<Leaf> {
        get { resolve { Leaf() } }
        set { inject(newValue) }
    }
}

extension Scenario {
    /// Registering one definition among 10,000 distinct ones (distinct by tag).
    static var register: Scenario {
        Scenario(id: "register", title: "register 1 of 10,000 distinct") { contender in
            switch contender {
            case .dependencies: return nil
            case .hand:
                var table: [Int: () -> Leaf] = [:]
                var next = 0
                return Runner(note: "a dictionary of closures") { count in
                    for _ in 0..<count {
                        if next == startupDefinitions { (table, next) = ([:], 0) }
                        table[next] = { Leaf() }
                        next += 1
                    }
                    blackHole(table)
                }
            case .swinject:
                var container = Swinject.Container()
                var next = 0
                return Runner(note: "tags are names: String(i), made before") { count in
                    for _ in 0..<count {
                        if next == startupDefinitions { (container, next) = (Swinject.Container(), 0) }
                        container.register(Leaf.self, name: startupNames[next]) { _ in Leaf() }
                        next += 1
                    }
                }
            case .plexus:
                var container = DependencyContainer()
                var next = 0
                return Runner(note: "register(tag: i) { Leaf() }") { count in
                    for _ in 0..<count {
                        if next == startupDefinitions { (container, next) = (DependencyContainer(), 0) }
                        container.register(tag: next) { Leaf() }
                        next += 1
                    }
                }
            }
        }
    }

    /// Registering one of the 300 distinct types of `RegisteredTypes.swift`, as an app registers its types: each
    /// operation registers the next type, a new container every 300 operations. The types are known to the process
    /// before the first operation (each registered once while the runner is made), so this is a registration's own
    /// cost; `./registration` counts a type's first registration in a process.
    static var registerTypes: Scenario {
        Scenario(id: "register-types", title: "register 1 of 300 distinct types") { contender in
            blackHole(holdTypes(contender, count: registeredTypeCount))
            switch contender {
            case .dependencies: return nil
            case .hand:
                var table: [ObjectIdentifier: () -> AnyObject] = [:]
                var next = 0
                return Runner(note: "[ObjectIdentifier: closure] insert") { count in
                    for _ in 0..<count {
                        if next == registeredTypeCount { (table, next) = ([:], 0) }
                        handTypeRegistrations[next](&table)
                        next += 1
                    }
                    blackHole(table)
                }
            case .swinject:
                var container = Swinject.Container()
                var next = 0
                return Runner(note: "register(RegisteredN.self) { _ in RegisteredN() }") { count in
                    for _ in 0..<count {
                        if next == registeredTypeCount { (container, next) = (Swinject.Container(), 0) }
                        swinjectTypeRegistrations[next](container)
                        next += 1
                    }
                }
            case .plexus:
                var container = DependencyContainer()
                var next = 0
                return Runner(note: "register { RegisteredN() }") { count in
                    for _ in 0..<count {
                        if next == registeredTypeCount { (container, next) = (DependencyContainer(), 0) }
                        plexusTypeRegistrations[next](container)
                        next += 1
                    }
                }
            }
        }
    }

    /// Removing one definition among 10,000 of one type (distinct by tag), and registering it again so that the
    /// table stays full: a removal must not scan the other keys of its type.
    static var removeAndRegister: Scenario {
        Scenario(
            id: "remove", title: "remove 1 of 10,000 of a type, register again", contenders: [.hand, .plexus]
        ) { contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                var table = Dictionary(uniqueKeysWithValues: (0..<startupDefinitions).map { ($0, { Leaf() }) })
                var next = 0
                return Runner(note: "a dictionary of closures") { count in
                    for _ in 0..<count {
                        let removed = table.removeValue(forKey: next)
                        table[next] = removed
                        next = (next + 1) % startupDefinitions
                    }
                    blackHole(table)
                }
            case .plexus:
                let container = DependencyContainer()
                let definitions = (0..<startupDefinitions).map { container.register(tag: $0) { Leaf() } }
                var next = 0
                return Runner(note: "remove(definition, tag: i); register(definition, tag: i)") { count in
                    for _ in 0..<count {
                        container.remove(definitions[next], tag: next)
                        container.register(definitions[next], tag: next)
                        next = (next + 1) % startupDefinitions
                    }
                }
            }
        }
    }

    /// Replacing one of 10,000 typed accessors of one type in one namespace, named `leaf0` to `leaf9999` (names of
    /// a few lengths): finding an accessor's key must not probe through the others of its type.
    static var accessorReplaceAmongMany: Scenario {
        Scenario(
            id: "accessor-replace-many", title: "accessor replace, 1 of 10,000 of a type", contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            let container = DependencyContainer()
            let names = (0..<startupDefinitions).map { "leaf\($0)" }
            for name in names { blackHole(container(property: name) { Leaf() }()) }
            var next = 0
            return Runner(note: "container(property: \"leaf<i>\") { Leaf() }.replace { Leaf() }") { count in
                for _ in 0..<count {
                    container(property: names[next]) { Leaf() }.replace { Leaf() }
                    next = (next + 1) % startupDefinitions
                }
            }
        }
    }

    /// Registering one definition among 8,000 whose integer tags differ only in their high bits (`i << 40`).
    static var registerHighBitTags: Scenario {
        Scenario(id: "register-high-tags", title: "register 1 of 8,000, tags i << 40", contenders: [.plexus]) {
            contender in
            guard contender == .plexus else { return nil }
            var container = DependencyContainer()
            var next = 0
            return Runner(note: "register(tag: i << 40) { Leaf() }") { count in
                for _ in 0..<count {
                    if next == 8_000 { (container, next) = (DependencyContainer(), 0) }
                    container.register(tag: next << 40) { Leaf() }
                    next += 1
                }
            }
        }
    }

    /// Registering again under the key of a definition already resolved (`replace` for a typed accessor), without
    /// (`resolves: false`) or with the first resolve after it.
    static func override(accessor: Bool, resolves: Bool) -> Scenario {
        let id = (accessor ? "accessor-override" : "override") + (resolves ? "-resolve" : "")
        let action = accessor ? "accessor replace" : "register again"
        let title = action + (resolves ? " + first resolve" : " (a used definition)")
        return Scenario(id: id, title: title, contenders: [.hand, .plexus, .swinject]) { contender in
            switch contender {
            case .dependencies: return nil
            case .hand:
                var table: [Int: () -> Leaf] = [:]
                table[0] = { Leaf() }
                return Runner(note: "a dictionary of closures") { count in
                    for _ in 0..<count {
                        table[0] = { Leaf() }
                        if resolves { blackHole(table[0]!()) }
                    }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
                blackHole(container.resolve(Leaf.self)!)
                return Runner(note: accessor ? "register again (Swinject has no typed accessors)" : nil) { count in
                    for _ in 0..<count {
                        container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
                        if resolves { blackHole(container.resolve(Leaf.self)!) }
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                if accessor {
                    blackHole(container.benchmarkOverridden())
                    container.benchmarkOverridden.replace { Leaf() }
                    blackHole(container.benchmarkOverridden())
                    return Runner(note: "accessor.replace { Leaf() }") { count in
                        for _ in 0..<count {
                            container.benchmarkOverridden.replace { Leaf() }
                            if resolves { blackHole(container.benchmarkOverridden()) }
                        }
                    }
                }
                container.register(.unique) { Leaf() }
                blackHole(try? container.resolve() as Leaf)
                return Runner { count in
                    for _ in 0..<count {
                        container.register(.unique) { Leaf() }
                        if resolves { blackHole(try container.resolve() as Leaf) }
                    }
                }
            }
        }
    }

    /// Assigning `.single { … }` to a typed accessor already resolved: the third way to override one.
    static var accessorAssign: Scenario {
        Scenario(id: "accessor-assign", title: "accessor = .single (a used accessor)") { contender in
            switch contender {
            case .dependencies: return nil
            case .hand:
                var table: [Int: () -> Leaf] = [:]
                table[0] = { Leaf() }
                return Runner(note: "a dictionary of closures") { count in
                    for _ in 0..<count { table[0] = { Leaf() } }
                }
            case .swinject:
                let container = Swinject.Container()
                container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.container)
                blackHole(container.resolve(Leaf.self)!)
                return Runner(note: "register again (Swinject has no typed accessors)") { count in
                    for _ in 0..<count { container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.container) }
                }
            case .plexus:
                let accessors = DependencyContainer().benchmarkAccessors
                blackHole(accessors.assigned())
                accessors.assigned = .single { Leaf() }
                blackHole(accessors.assigned())
                return Runner(note: "namespace.accessor = .single { Leaf() }") { count in
                    for _ in 0..<count { accessors.assigned = .single { Leaf() } }
                }
            }
        }
    }

    /// A `.weakSingleton` hit (kept alive by the caller) and a `.unique` resolve: a read path that must make no
    /// system call (./guard counts them).
    static var weakSingletonAndUnique: Scenario {
        Scenario(id: "weak-and-unique", title: "weak singleton hit + unique", contenders: [.hand, .plexus]) {
            contender in
            switch contender {
            case .dependencies, .swinject: return nil
            case .hand:
                let shared = LazyShared()
                blackHole(shared.instance())
                return Runner { count in
                    for _ in 0..<count {
                        blackHole(shared.instance())
                        blackHole(Leaf())
                    }
                }
            case .plexus:
                let container = DependencyContainer()
                container.register(.weakSingleton) { ApiClient() }
                container.register(.unique) { Leaf() }
                let kept = try? container.resolve() as ApiClient
                return Runner { count in
                    withExtendedLifetime(kept) {}
                    for _ in 0..<count {
                        blackHole(try container.resolve() as ApiClient)
                        blackHole(try container.resolve() as Leaf)
                    }
                }
            }
        }
    }
}

/// Registers `count` distinct definitions with `contender` and returns what keeps them (the container), for a heap
/// profile (`Benchmarks/heap`): what the process still holds at its end, minus the same run with `count` 0, over
/// `count`, is the memory one definition keeps.
public func holdDefinitions(_ contender: Contender, count: Int) -> Any? {
    switch contender {
    case .hand:
        var table: [Int: () -> Leaf] = [:]
        for index in 0..<count { table[index] = { Leaf() } }
        return table
    case .swinject:
        let container = Swinject.Container()
        let names = (0..<count).map { "\($0)" }
        for name in names { container.register(Leaf.self, name: name) { _ in Leaf() } }
        return container
    case .plexus:
        let container = DependencyContainer()
        for index in 0..<count { container.register(tag: index) { Leaf() } }
        return container
    case .dependencies:
        return nil
    }
}

/// Registers the first `count` (at most ``registeredTypeCount``) of the distinct types of `RegisteredTypes.swift` with
/// `contender`, one definition each, and returns what keeps them: `./heap --count 300 hand-types plexus-types
/// swinject-types` measures what a distinct type's definition keeps, and `./registration` what its first registration
/// in the process costs. The registration tables are made in every run, `count` 0 too, so they cancel out.
public func holdTypes(_ contender: Contender, count: Int) -> Any? {
    precondition(count <= registeredTypeCount, "at most \(registeredTypeCount) distinct types")
    switch contender {
    case .hand:
        var table: [ObjectIdentifier: () -> AnyObject] = [:]
        for register in handTypeRegistrations.prefix(count) { register(&table) }
        return table
    case .swinject:
        let container = Swinject.Container()
        for register in swinjectTypeRegistrations.prefix(count) { register(container) }
        return container
    case .plexus:
        let container = DependencyContainer()
        for register in plexusTypeRegistrations.prefix(count) { register(container) }
        return container
    case .dependencies:
        return nil
    }
}

/// An object made from a value its factory captures.
public final class Numbered: Sendable {
    let number: Int

    /// Creates it.
    public init(_ number: Int) { self.number = number }
}

/// Registers `count` definitions of one type, distinct by tag, whose factories capture a value (`{ Numbered(i) }`),
/// and returns what keeps them: what `./heap hand-capturing plexus-capturing swinject-capturing` measures.
public func holdCapturing(_ contender: Contender, count: Int) -> Any? {
    switch contender {
    case .hand:
        var table: [Int: () -> Numbered] = [:]
        for index in 0..<count { table[index] = { Numbered(index) } }
        return table
    case .swinject:
        let container = Swinject.Container()
        let names = (0..<count).map { "\($0)" }
        for (index, name) in names.enumerated() { container.register(Numbered.self, name: name) { _ in Numbered(index) } }
        return container
    case .plexus:
        let container = DependencyContainer()
        for index in 0..<count { container.register(tag: index) { Numbered(index) } }
        return container
    case .dependencies:
        return nil
    }
}

extension DependencyContainer {
    fileprivate enum NamespaceHeld {}
    fileprivate typealias Held = Namespace<NamespaceHeld>
    fileprivate var held: Held { namespace() }
}

extension DependencyContainer.Held {
    /// The accessor `leaf<index>` of this namespace: a new name per index, as distinct accessors have.
    fileprivate func leaf(_ index: Int) -> Factory<Leaf> {
        resolve(property: "leaf\(index)") { Leaf() }
    }
}

/// A container in which `count` distinct typed accessors were used once, so that each declared default is
/// registered: what `./heap plexus-accessors` measures per accessor. Keep `count` under 4,096, the number of
/// declaration sites a container remembers before it starts over.
public func holdAccessorDefaults(count: Int) -> Any? {
    let container = DependencyContainer()
    for index in 0..<count { blackHole(container.held.leaf(index)()) }
    return container
}

/// A container with `count` keyed definitions tagged as typed accessors' keys are (`"<Namespace>.<property>"`): the
/// keyed counterpart of `holdAccessorDefaults`, which `./heap plexus-string-tags` measures.
public func holdStringTaggedDefinitions(count: Int) -> Any? {
    let container = DependencyContainer()
    for index in 0..<count { container.register(tag: "NamespaceHeld.leaf\(index)") { Leaf() } }
    return container
}

/// What a lookup that finds nothing throws: the 404 of `missingCell`.
struct CellNotFound: Error {}

extension DependencyContainer {
    /// One ``Cell`` per id, kept by the container, for ids that are never found: its factory always throws.
    fileprivate var missingCell: ParameterFactory<Int, Cell> { self { _ in throw CellNotFound() }.singleton }
}

/// A container whose singleton `ParameterFactory` threw for `count` distinct ids: what `./heap
/// plexus-parameter-failures` measures per failed id, which a failed construction should not keep. The logger is
/// off, so that only the container's memory is counted.
public func holdParameterFailures(count: Int) -> Any? {
    Plexus.logLevel = .none
    let container = DependencyContainer()
    for id in 0..<count { _ = try? container.missingCell.resolve(id) }
    return container
}
