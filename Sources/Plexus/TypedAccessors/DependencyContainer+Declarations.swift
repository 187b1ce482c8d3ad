// What a product of this package that spells typed accessors another way (PlexusFactoryKit, Factory's spellings)
// reaches the accessor machinery through: a declaration named by a marker type and a property name, resolved,
// forgotten and inspected as a typed accessor of this container is. Package access: not part of the public API.

/// A declaration's site: the key of a typed accessor whose type, namespace marker type and property name are known
/// only at run time. Built once per declaration: building a site looks up the generic metadata that names it.
@usableFromInline
package struct DeclarationSite: Sendable {
    @usableFromInline let site: AccessorSite

    /// The site of the declaration `name` of `type` in the namespace `marker`.
    package init(_ type: Any.Type, marker: Any.Type, name: String) {
        site = Self.site(type, marker, name)
    }

    private static func site<T, Marker>(_: T.Type, _: Marker.Type, _ name: String) -> AccessorSite {
        AccessorSite(T.self, marker: Marker.self, property: name)
    }
}

extension DependencyContainer {
    /// The instance of the declaration at `site`, as a ``Factory`` accessor with `scope` and the declared default
    /// `make` resolves it: the default is registered on first use with `scope`, and what the scope keeps is kept in
    /// this container's slot for the key.
    /// - Throws: ``ResolutionError/circularDependency(path:)`` for a cycle, and what `make` throws.
    @inlinable
    package func resolveDeclaration<T>(
        at site: DeclarationSite, scope: ComponentScope, make: @escaping @Sendable () throws -> T
    ) throws -> T {
        try AccessorCore.resolve(self, site.site, DeclaredStorage(scope), make)
    }

    /// The instance the declaration at `site` keeps published here, if any; never runs a factory.
    @inlinable
    package func publishedDeclaration<T>(at site: DeclarationSite) -> T? {
        AsyncAccessorCore<T>.published(self, site.site)
    }

    /// The instance the declaration of `entry` keeps published here, if any, as `publishedDeclaration(at:)` for a site
    /// finds it, without hashing the site; never runs a factory.
    @inlinable
    package func publishedDeclaration<T>(at entry: DeclarationEntry) -> T? {
        AccessorStorage.instance(of: T.self) { copyPublishedDeclaration(entry, into: $0) }
    }

    /// Publishes the declaration at `site`, made by `type` and named `name`, for `readDeclaration(_:type:name:word:direct:)`
    /// (with `owner`, in a container that keeps several owners' declarations, for `readDeclaration(_:owner:type:name:word:)`):
    /// while the product's generation is `recordGeneration` (`DeclarationRecordGeneration`), a read with a word whose
    /// bit is set in `accepts` is answered here (no item is kept when `accepts` is 0). With `direct`, the result names
    /// the generation at which the declaration is answered here by its registered default alone, a plain one (no
    /// override, forward or collaborator that could answer instead; no hook or decorator); nil otherwise: while
    /// ``answerGeneration`` equals it, a unique instance of the declaration is what its own factory makes, so the
    /// product that declared it may call that factory itself. The result also gives the declaration's entry here, which
    /// `publishedDeclaration(at:)` reads without finding the site again. Takes the registry's lock for writing, once.
    package func publishDeclaration(
        at site: DeclarationSite, owner: UInt? = nil, type: ObjectIdentifier, name: StaticString,
        recordGeneration: Int, accepts: UInt, direct: Bool
    ) -> DeclarationPublication {
        publishDeclaration(
            site.site, owner: owner, type: type, name: name, recordGeneration: recordGeneration, accepts: accepts,
            direct: direct)
    }

    /// This container's answer generation now (advanced by each registration, removal, reset, collaboration or
    /// decorator here, and by each change in a container this one reaches): one atomic load (see
    /// ``publishDeclaration(at:owner:type:name:recordGeneration:accepts:direct:)``).
    @usableFromInline package var answerGeneration: Int { generation.current }

    /// Whether `validate` is recording a graph on some thread: every resolve must then reach a container, where the
    /// recorder sees it.
    @usableFromInline package static var isRecordingGraph: Bool { GraphRecorder.isActive }

    /// Forgets the declaration at `site`: its registered default (so that the next resolve registers it again, with
    /// the scope it then carries), an override under its key, and the instances kept for it, released after the lock.
    package func forgetDeclaration(at site: DeclarationSite) {
        forgetAccessor(at: site.site)
    }

    /// Releases what the declaration at `site` keeps (its singleton, cached or weak instance); the next resolve
    /// makes a new one.
    @usableFromInline
    package func dropDeclaredInstance(at site: DeclarationSite) {
        let key = accessorEntry(site.site).key
        resetAccessor(key, .scope)
    }

    /// Whether a declaration of this container keeps an instance (a published singleton, cached or weak instance).
    package var keepsDeclaredInstances: Bool {
        accessorDefaultsKeepInstances()
    }

    /// Releases every instance the declarations of this container keep; their registrations stay.
    package func dropDeclaredInstances() {
        dropAccessorDefaultInstances()
    }

    /// Forgets every declaration of this container (their defaults and kept instances); definitions registered
    /// with `register` stay.
    package func forgetDeclarations() {
        removeAccessorDefaults()
    }

    /// A new container named `name` with this one's registrations, the instances they keep now and its settings
    /// (auto-injection, `Resolvable` calls); what either makes afterwards stays its own. Collaborators are not copied.
    package func copyingInstances(name: String) -> DependencyContainer {
        let copy = DependencyContainer(
            name: name, autoInjectProperties: autoInjectProperties, callsResolvable: callsResolvable)
        copyRegistrations(into: copy)
        return copy
    }
}

extension DependencyContainer {
    /// Runs `build` (resolves of declarations) with the graph recorder on, and reports the graph it built, as
    /// `validate(roots:)` does for typed accessors; the definitions registered with `register` are not walked.
    package func validateDeclarations(_ build: () throws -> Void) rethrows -> GraphReport {
        let recorder = GraphRecorder()
        try recorder.recording(build)
        return recorder.report(validating: self)
    }
}
