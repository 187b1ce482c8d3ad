package import PlexusCore

// The core target's types that the package's products use, named here so that a product keeps importing `Plexus`
// alone: the core is the engine's, and reached through it.

/// A recursive lock for a product that holds one process-wide lock over whole resolutions (`PlexusCore`).
package typealias RecursiveLock = PlexusCore.RecursiveLock

/// The generation of every table of declaration records (`RecordGeneration`, in the core, says how it is kept): a
/// type of this module's own, because products read it in inlinable code, which may reference no declaration of the
/// core. Package access.
@usableFromInline
package enum DeclarationRecordGeneration {
    /// The generation now; read without a lock.
    @usableFromInline package static var current: Int { RecordGeneration.current }

    /// Advances the generation: every record published before is stale.
    package static func advance() { RecordGeneration.advance() }
}

/// Numbers for the owners of declarations (`PlexusCore`).
package typealias DeclarationOwnerNumbers = PlexusCore.DeclarationOwnerNumbers

/// Stands for runtime arguments of zero size (the core's `zeroSizedArgumentsAddress`, which says why): a name of this
/// module's own, because the public inlinable entries pass it and may reference no declaration of the core.
@usableFromInline
var zeroSizedArguments: UnsafeRawPointer { zeroSizedArgumentsAddress }
