/// What a typed accessor's declaration says about its default besides the factory: the storage, and the property
/// hooks added with `resolvingProperties`.
///
/// One word, like the ``ComponentScope`` it replaces in the accessor value: the cases without hooks fit in the
/// spare values of the reference that the hooked case carries, so an accessor without hooks stays seven words and
/// copies no reference for it (see `AccessorCore`, "Resolving").
@usableFromInline
enum DeclaredStorage: Sendable {
    case unique
    case shared
    case singleton
    case eagerSingleton
    case weakSingleton
    case cached
    /// A storage with property hooks.
    case hooked(DeclaredHooks)

    @inlinable
    init(_ scope: ComponentScope) {
        switch scope {
        case .unique: self = .unique
        case .shared: self = .shared
        case .singleton: self = .singleton
        case .eagerSingleton: self = .eagerSingleton
        case .weakSingleton: self = .weakSingleton
        case .cached: self = .cached
        }
    }

    /// The storage.
    @usableFromInline
    var scope: ComponentScope {
        switch self {
        case .unique: .unique
        case .shared: .shared
        case .singleton: .singleton
        case .eagerSingleton: .eagerSingleton
        case .weakSingleton: .weakSingleton
        case .cached: .cached
        case .hooked(let hooked): hooked.scope
        }
    }

    /// The property hooks, in the order they were added.
    @usableFromInline
    var hooks: [Hook] {
        guard case .hooked(let hooked) = self else { return [] }
        return hooked.hooks
    }

    /// The same hooks with another storage. Inlinable, so that a storage modifier on a declaration without hooks
    /// (`self { … }.singleton`) folds to a constant where the accessor is declared.
    @inlinable
    func with(scope: ComponentScope) -> DeclaredStorage {
        guard case .hooked(let hooked) = self else { return DeclaredStorage(scope) }
        return .hooked(hooked.with(scope: scope))
    }

    /// The same storage with `hook` after the hooks it has.
    func adding(_ hook: @escaping Hook) -> DeclaredStorage {
        .hooked(DeclaredHooks(scope: scope, hooks: hooks + [hook]))
    }
}

/// A storage and the property hooks of a typed accessor's declaration (`DeclaredStorage.hooked`).
@usableFromInline
final class DeclaredHooks: Sendable {
    let scope: ComponentScope
    let hooks: [Hook]

    init(scope: ComponentScope, hooks: [Hook]) {
        self.scope = scope
        self.hooks = hooks
    }

    /// The same hooks with another storage.
    @usableFromInline
    func with(scope: ComponentScope) -> DeclaredHooks {
        DeclaredHooks(scope: scope, hooks: hooks)
    }
}

/// A typed accessor's declared default as the exact lookup registers it on first use: its blueprint and hooks.
@usableFromInline
struct DeclaredDefault {
    let blueprint: Blueprint
    let hooks: [Hook]

    @usableFromInline
    init(_ blueprint: Blueprint, hooks: [Hook] = []) {
        self.blueprint = blueprint
        self.hooks = hooks
    }
}
