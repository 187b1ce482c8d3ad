/// The process-wide resolution trace and cycle check, read and changed only under the resolution lock (which
/// every resolution holds, so one stack describes the one resolution running; see `Sendability.swift`).
final class Diagnostics: @unchecked Sendable {
    static let shared = Diagnostics()

    /// One declaration being resolved.
    struct Frame {
        let manager: ObjectIdentifier
        let key: FactoryKey
        let label: String
        let traceLine: Int?
    }

    var checksCycles = true
    var isTracing = false
    var logger: (String) -> Void = { print($0) }
    private var stack: [Frame] = []
    private var traceLines: [String] = []

    /// Records that `key` of `container` starts resolving; stops the process with the path when it is already
    /// being resolved (a cycle no Factory spelling can report by throwing).
    func enter(_ container: some ManagedContainer, key: FactoryKey, type: Any.Type) -> Frame {
        let label = "\(Swift.type(of: container)).\(key.name)"
        let manager = ObjectIdentifier(container.manager)
        if checksCycles, stack.contains(where: { $0.manager == manager && $0.key == key.declaration }) {
            let path = (stack.map(\.label) + [label]).joined(separator: " -> ")
            traceLines.forEach(logger)
            stack.removeAll()
            traceLines.removeAll()
            stop(
                "circular dependency: \(path). Break the cycle: resolve one side lazily (@LazyInjected).",
                file: #fileID, line: #line)
        }
        var traceLine: Int?
        if isTracing {
            let indent = String(repeating: "    ", count: stack.count)
            traceLine = traceLines.count
            traceLines.append("\(stack.count): \(indent)\(label)<\(type)>")
        }
        let frame = Frame(manager: manager, key: key.declaration, label: label, traceLine: traceLine)
        stack.append(frame)
        return frame
    }

    /// Records that `frame`'s resolution ended with `instance`, made by the factory of `kind` (`C` when cached).
    func leave(_ frame: Frame, instance: Any, kind: Character) {
        stack.removeLast()
        guard let line = frame.traceLine, line < traceLines.count else { return }
        let address = ObjectIdentifier(instance as AnyObject).hashValue
        traceLines[line] += " = \(kind):\(address) \(Swift.type(of: instance))"
        if stack.isEmpty {
            traceLines.forEach(logger)
            traceLines.removeAll()
        }
    }

    /// Stops the process with `message`, logged first.
    func stop(_ message: String, file: StaticString, line: UInt) -> Never {
        let text = "PlexusFactoryKit: \(message)"
        logger(text)
        fatalError(text, file: file, line: line)
    }
}

/// Whether a resolution that comes back to a declaration being resolved stops the process with its path; the
/// process-wide switch ``ContainerManager/circularDependencyTesting`` also sets. On by default in every build.
public var globalCircularDependencyTesting: Bool {
    get { ResolutionLock.withLock { Diagnostics.shared.checksCycles } }
    set { ResolutionLock.withLock { Diagnostics.shared.checksCycles = newValue } }
}
