import Plexus

/// The process-wide resolution trace and cycle check, read and changed only under the resolution lock (which
/// every resolution holds, so one stack describes the one resolution running; see `Sendability.swift`), and that lock
/// itself (`resolutionLock`).
@usableFromInline
final class Diagnostics: @unchecked Sendable {
    @usableFromInline static let shared = Diagnostics()

    /// The resolution lock (`ResolutionLock`), kept beside the frames it guards: a unique instance made directly
    /// (`FactoryRegistration.makeOwnDirectly`, `makeDirectly`) takes it and enters its frame through this one object,
    /// where each global of its own is checked for its lazy initialization on every access
    /// (`Benchmarks/profile factorykit-unique/plexus`).
    let resolutionLock = RecursiveLock()

    /// Takes the resolution lock (`ResolutionLock.acquire()`, from the object a resolve holds already).
    @usableFromInline
    func lockResolution() { resolutionLock.lock() }

    /// Gives back the resolution lock `lockResolution()` took.
    @usableFromInline
    func unlockResolution() { resolutionLock.unlock() }

    /// One declaration being resolved.
    @usableFromInline
    struct Frame {
        let manager: ObjectIdentifier
        let key: FactoryKey
        let containerType: Any.Type
        @usableFromInline let traceLine: Int?

        /// `Container.api`, built only for a message: naming a type costs more than a whole resolve.
        var label: String { "\(containerType).\(key.name)" }
    }

    /// Whether the product checks cycles itself; a unique declaration is made directly only while it does, so a
    /// change forgets the records that say it may be.
    @exclusivity(unchecked) @usableFromInline var checksCycles = true { didSet { ContainerManager.forgetRecords() } }
    @exclusivity(unchecked) @usableFromInline var isTracing = false { didSet { ContainerManager.forgetRecords() } }
    var logger: (String) -> Void = { print($0) }
    /// The declarations being resolved are the first `active` frames: the outermost in `first`, the others in
    /// `frames`, whose elements past them are storage kept for the next ones, so that entering and leaving a frame
    /// changes no array's length. The outermost is kept apart because a unique instance made directly, the commonest
    /// resolve, then writes one stored property rather than an array element (a write that first checks that the
    /// array is not shared: about 30 instructions, `Benchmarks/profile factorykit-unique/plexus`).
    @exclusivity(unchecked) private var first: Frame?
    /// The frames inside the outermost one, and storage past them (see `first`).
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// How many declarations are being resolved (see `first`).
    @exclusivity(unchecked) private var active = 0

    /// The first `count` frames of the running resolve, outermost first.
    private func runningPath(_ count: Int) -> [Frame] {
        guard count > 0, let first else { return [] }
        return [first] + frames[..<(count - 1)]
    }

    /// Whether one of the first `count` frames of the running resolve matches.
    private func pathContains(_ count: Int, where matches: (Frame) -> Bool) -> Bool {
        guard count > 0, let first else { return false }
        return matches(first) || frames[..<(count - 1)].contains(where: matches)
    }
    private var traceLines: [String] = []

    /// Records that `key` of the container of type `containerType` whose manager is `manager` starts resolving;
    /// stops the process with the path when it is already being resolved (a cycle no Factory spelling can report by
    /// throwing).
    @usableFromInline
    func enter(_ manager: ContainerManager, _ containerType: Any.Type, key: FactoryKey, type: Any.Type) -> Frame {
        let manager = ObjectIdentifier(manager)
        let frame = Frame(
            manager: manager, key: key, containerType: containerType, traceLine: isTracing ? traceLines.count : nil)
        if checksCycles, pathContains(active, where: { $0.manager == manager && $0.key == frame.key }) {
            let path = (runningPath(active) + [frame]).map(\.label).joined(separator: " -> ")
            traceLines.forEach(logger)
            (first, frames, active) = (nil, [], 0)
            traceLines.removeAll()
            stop(
                "circular dependency: \(path). Break the cycle: resolve one side lazily (@LazyInjected).",
                file: #fileID, line: #line)
        }
        if isTracing {
            let indent = String(repeating: "    ", count: active)
            traceLines.append("\(active): \(indent)\(frame.label)<\(type)>")
        }
        if active == 0 {
            first = frame
        } else if active - 1 < frames.count {
            frames[active - 1] = frame
        } else {
            frames.append(frame)
        }
        active += 1
        return frame
    }

    /// `enter` for a resolve that starts no trace line (tracing off, as for a unique instance made directly:
    /// `FactoryRegistration.makeDirectly`); `leave()` ends it. The outermost one checks no path and writes only
    /// `first`.
    @usableFromInline
    func enterUntraced(_ manager: ContainerManager, _ containerType: Any.Type, key: FactoryKey) {
        guard active == 0 else {
            _ = enter(manager, containerType, key: key, type: Void.self)
            return
        }
        first = Frame(manager: ObjectIdentifier(manager), key: key, containerType: containerType, traceLine: nil)
        active = 1
    }

    /// Records that the resolution `enterUntraced` began ended.
    @usableFromInline
    func leave() {
        active -= 1
    }

    /// Records that `frame`'s resolution ended with `instance`, made by its factory or kept by its scope.
    @usableFromInline
    func leave<T>(_ frame: Frame, instance: T, made: Bool, _ options: ContainerManager.Options) {
        active -= 1
        guard let line = frame.traceLine, line < traceLines.count else { return }
        // The trace letter: `C` kept by the scope; else `O` a context alternative, `R` an override, `F` the
        // declaration's own factory.
        let kind =
            !made ? "C" : options.alternativeForCurrentContext() != nil ? "O" : options.registration != nil ? "R" : "F"
        let address = ObjectIdentifier(instance as AnyObject).hashValue
        traceLines[line] += " = \(kind):\(address) \(Swift.type(of: instance as Any))"
        if active == 0 {
            traceLines.forEach(logger)
            traceLines.removeAll()
        }
    }

    /// How many declarations the running resolve is inside.
    var depth: Int { active }

    /// Whether `key` is being resolved already on this resolve's path while the cycle check is off: a declaration
    /// that calls itself, which Factory lets run.
    @usableFromInline
    func reentersUnchecked(_ key: FactoryKey) -> Bool {
        !checksCycles && pathContains(active - 1) { $0.key == key }
    }

    /// Stops the process for a declaration Plexus could not make: a cycle with its path and the way to break it in
    /// Factory's spellings, or the error.
    @usableFromInline
    func stop(couldNotMake type: Any.Type, _ error: any Error) -> Never {
        if case ResolutionError.circularDependency(let path) = error {
            let chain = path.map { $0.tag.map { "\($0)" } ?? "\($0.type)" }.joined(separator: " -> ")
            stop(
                "circular dependency: \(chain). Break the cycle: resolve one side lazily (@LazyInjected).",
                file: #fileID, line: #line)
        }
        stop("\(type) could not be made: \(error)", file: #fileID, line: #line)
    }

    /// Stops the process with `message`, logged first.
    @usableFromInline
    func stop(_ message: String, file: StaticString, line: UInt) -> Never {
        let text = "PlexusFactoryKit: \(message)"
        logger(text)
        fatalError(text, file: file, line: line)
    }

    /// Logs `message` with the logger set now.
    static func log(_ message: String) {
        let logger = ResolutionLock.withLock { shared.logger }
        logger(message)
    }
}

/// Whether a resolution that comes back to a declaration being resolved stops the process with its path; the
/// process-wide switch ``ContainerManager/circularDependencyTesting`` also sets. On by default in every build.
public var globalCircularDependencyTesting: Bool {
    get { ResolutionLock.withLock { Diagnostics.shared.checksCycles } }
    set { ResolutionLock.withLock { Diagnostics.shared.checksCycles = newValue } }
}

/// How the factory a resolve chose reaches the declaration's slot in Plexus. The slot is registered once, with a
/// factory of its own that calls whichever factory the resolve running now handed over (`making`): the same slot
/// serves the declaration's own factory, an override and a context's. Read and changed only under the resolution
/// lock, like `Diagnostics`.
@usableFromInline
final class FactoryHandOver: @unchecked Sendable {
    @usableFromInline static let shared = FactoryHandOver()

    /// The factory the resolve running on this thread chose, for its declaration's slot to call (see `making`), and
    /// whether that slot called it.
    @exclusivity(unchecked) @usableFromInline var pending: AnyObject?
    @exclusivity(unchecked) @usableFromInline var made = false
    /// A box no resolve uses now, kept for the next one of its type.
    @exclusivity(unchecked) @usableFromInline var spare: AnyObject?

    /// Resolves through `resolve`, handing it the factory Plexus registers for the declaration on first use and
    /// calls whenever the scope keeps no instance: that factory calls `make`, the factory this resolve chose. The
    /// factory a slot keeps is the same for every resolve; which of the declaration's factories it runs is decided
    /// each time. Returns the instance and whether `make` made it. Call under the resolution lock.
    @inlinable
    func making<T>(_ resolve: (@escaping @Sendable () throws -> T) -> T, make: @escaping () -> T) -> (T, Bool) {
        let outer = (pending, made)
        // The box of the last resolve of the same type is used again: one allocation less per instance made.
        let factory: PendingFactory<T>
        if let reused = spare as? PendingFactory<T> {
            spare = nil
            reused.make = make
            factory = reused
        } else {
            factory = PendingFactory(make: make)
        }
        (pending, made) = (factory, false)
        defer {
            factory.make = nil
            spare = factory
            (pending, made) = outer
        }
        let instance = resolve {
            let instance = try ResolutionLock.withLockIfAvailable { try FactoryHandOver.shared.runPending(T.self) }
            guard let instance else { throw DeclarationResolvedElsewhere(type: T.self) }
            return instance
        }
        return (instance, made)
    }

    /// Runs the factory the current resolve chose, once.
    @inlinable
    func runPending<T>(_: T.Type) throws -> T {
        guard let factory = pending as? PendingFactory<T>, let make = factory.make else {
            throw DeclarationResolvedElsewhere(type: T.self)
        }
        pending = nil
        let instance = make()
        made = true
        return instance
    }

}

/// A factory chosen for one resolve (`FactoryHandOver.making`).
@usableFromInline
final class PendingFactory<T> {
    /// The factory; nil between two resolves.
    @exclusivity(unchecked) @usableFromInline var make: (() -> T)?
    @usableFromInline init(make: @escaping () -> T) { self.make = make }
}

/// What a declaration's slot throws when Plexus asks it for an instance outside a resolve of the declaration (a
/// Plexus `validate` walking every definition, a lookup of its key from another container): the declaration's
/// factory is chosen by its container's manager, at a resolve through the declaration.
@usableFromInline
struct DeclarationResolvedElsewhere: Error, CustomStringConvertible {
    let type: Any.Type

    @usableFromInline init(type: Any.Type) { self.type = type }

    @usableFromInline var description: String {
        "a Factory-style declaration of \(type) is made only when resolved through the declaration "
            + "(`container.service()`), not by its key in Plexus"
    }
}
