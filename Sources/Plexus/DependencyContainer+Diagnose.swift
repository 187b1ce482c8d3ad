// Diagnostics of a failed lookup (`definitionNotFound`): the near misses in every reachable container, the
// "required by" chain, and suggestions for arguments passed with the wrong static type.

extension DependencyContainer {
    /// How many near misses a message names before it counts the rest.
    private static let shownNearMisses = 8

    /// `key` with hints about what the searched containers do have for its type, and the factories that needed it
    /// (`requiredBy`, innermost first).
    func diagnose(_ key: DefinitionKey, requiredBy: [DefinitionKey] = []) -> DefinitionKey {
        // A lookup that finds nothing has searched every reachable container.
        let containers = reachable()
        var hints: [String] = []
        var seen = Set<DefinitionKey>()
        var unshown = 0
        let type = (key.type as? any OptionalType.Type)?.wrappedType ?? key.type
        for container in containers {
            let (candidates, fallsBack) = container.nearMissCandidates(for: type)
            for candidate in candidates where seen.insert(candidate).inserted {
                // a near miss says which container has it, and where it was registered; a type registered under
                // many tags gets a few, and a count, rather than a message that grows with the registry.
                if let hint = nearMiss(candidate, for: key, untaggedAnswersTags: fallsBack) {
                    if hints.count < Self.shownNearMisses {
                        hints.append(hint + container.nearMissLocation(candidate))
                    } else {
                        unshown += 1
                    }
                }
            }
        }
        if seen.isEmpty {
            hints += similarlyNamedTypes(to: type, in: containers)
        }
        if unshown > 0 {
            hints.append("\(unshown) more near \(unshown == 1 ? "miss" : "misses") of \(typeName(type)) not shown.")
        }
        let released = containers.reduce(0) { $0 + $1.releasedCollaboratorCount() }
        if released > 0 {
            hints.append(
                "\(released == 1 ? "A collaborator" : "\(released) collaborators") of the searched containers "
                    + "\(released == 1 ? "has" : "have") been released (collaborators are held weakly), and what "
                    + "\(released == 1 ? "it" : "they") registered went with \(released == 1 ? "it" : "them"): keep a "
                    + "strong reference to each container you collaborate with for as long as it is needed.")
        }
        if type != key.type {
            hints.insert(
                "\(typeName(key.type)) resolves through the definition of \(typeName(type)), which has none.", at: 0)
        }
        if key.typeOfArguments != Void.self {
            hints.append(
                "Resolving with arguments never auto-wires; arguments must match a definition's types, count and order exactly."
            )
        }
        guard !hints.isEmpty || !requiredBy.isEmpty else { return key }
        var result = key
        result.diagnostics = KeyDiagnostics(hints: hints, requiredBy: requiredBy)
        return result
    }

    /// Near misses of another type whose name contains the one asked for (`HTTPApi` or `ApiImpl` for `Api`): the
    /// usual cause is a factory whose result was not cast to the protocol it is resolved as.
    private func similarlyNamedTypes(to type: Any.Type, in containers: [DependencyContainer]) -> [String] {
        let wanted = typeName(type)
        // Shorter names (`A`, `Id`) are contained in too many others to point at anything.
        guard wanted.count >= 3 else { return [] }
        var hints: [String] = []
        var named = Set<ObjectIdentifier>()
        for container in containers {
            let keys = container.entriesInOrder().map(\.key)
            for candidate in keys where candidate.type != type {
                let name = typeName(candidate.type)
                guard name.contains(wanted), named.insert(ObjectIdentifier(candidate.type)).inserted else { continue }
                hints.append(
                    "Near miss: \(name) is registered, a type other than \(wanted): register its factory's result as "
                        + "\(wanted) (`{ \(name)(…) as \(wanted) }` or `.implements(\(wanted).self)`), or resolve "
                        + "\(name)." + container.nearMissLocation(candidate))
                if hints.count == 3 { return hints }
            }
        }
        return hints
    }

    private func nearMiss(_ candidate: DefinitionKey, for key: DefinitionKey, untaggedAnswersTags: Bool) -> String? {
        var differences: [String] = []
        // An untagged definition answers every tag, unless its container is strict: then its missing tag is a
        // difference too.
        var strictness: String?
        if let tag = candidate.tag, tag != key.tag {
            differences.append("for tag \(tag)")
        } else if candidate.tag == nil, key.tag != nil, !untaggedAnswersTags {
            differences.append("without a tag")
            strictness =
                "Its container does not answer a tag with the untagged definition (`fallsBackToUntaggedDefinitions` "
                + "is false): register it for the tag, or resolve it without one."
        }
        if candidate.typeOfArguments != key.typeOfArguments {
            var registered = argumentsName(candidate.typeOfArguments)
            if registered == argumentsName(key.typeOfArguments) {
                // Different types with the same name (`Config` of two modules): name them with their modules.
                registered =
                    "\(String(reflecting: candidate.typeOfArguments)), not the passed "
                    + String(reflecting: key.typeOfArguments)
            }
            differences.append(
                candidate.typeOfArguments == Void.self ? "without arguments" : "with arguments \(registered)")
        }
        guard !differences.isEmpty else { return nil }
        var hint = "Near miss: \(typeName(candidate.type)) is registered \(differences.joined(separator: " and "))."
        if let strictness { hint += " " + strictness }
        if let suggestion = argumentCastSuggestion(registered: candidate.typeOfArguments, passed: key.typeOfArguments) {
            hint += " " + suggestion
        }
        return hint
    }

    /// For arguments of the same count whose types differ, how to pass them as the registered types: runtime
    /// arguments match by static type, so an `HTTPApiClient` does not match a definition taking `(ApiClient)`.
    private func argumentCastSuggestion(registered: Any.Type, passed: Any.Type) -> String? {
        guard registered != Void.self, passed != Void.self else { return nil }
        let expected = argumentTypeNames(registered)
        let given = argumentTypeNames(passed)
        guard expected.count == given.count else { return nil }
        let casts = zip(given, expected).filter { passedName, registeredName in
            guard passedName != registeredName else { return false }
            // One argument: ask the type itself whether something else can be passed as it (a protocol or a class).
            if expected.count == 1 { return isExistentialOrClass(registered) }
            // Several: the names are all there is; leave out plain values, which never convert.
            return !plainValueTypeNames.contains(registeredName) && !plainValueTypeNames.contains(passedName)
        }.map { "pass \($0) as \($1) (`value as \($1)`)" }
        guard !casts.isEmpty else { return nil }
        return "Runtime arguments match by their static types: if the types convert, "
            + casts.joined(separator: ", ") + "."
    }
}

extension ResolutionError {
    /// `error` from auto-wiring `definition`, with the advice it needs when one of the definition's own argument
    /// types has no definition: the likely mistake is a runtime argument left out of `resolve`, so the error says to
    /// pass it instead of advising to register, say, an `Int`. Any other error is returned as it is.
    static func notingRuntimeArguments(_ error: any Error, of definition: DefinitionKey) -> any Error {
        guard case .definitionNotFound(var missing)? = error as? ResolutionError,
            missing.diagnostics?.requiredBy.first?.type == definition.type,
            argumentTypeNames(definition.typeOfArguments).contains(typeName(missing.type))
        else { return error }
        let names = argumentTypeNames(definition.typeOfArguments)
        let example = names.map(exampleValue).joined(separator: ", ")
        let hint =
            "\(typeName(definition.type))'s definition takes \(argumentsName(definition.typeOfArguments)) at runtime, "
            + "and auto-wiring found no definition of \(typeName(missing.type)) to resolve it from: pass "
            + (names.count == 1 ? "it" : "them") + " when resolving, `try container.resolve(arguments: \(example))`, "
            + "and to `validate` when checking the graph (`try container.validate(\(example))`); or register "
            + "\(typeName(missing.type)) if it should be auto-wired."
        missing.diagnostics = KeyDiagnostics(
            hints: [hint] + (missing.diagnostics?.hints ?? []), requiredBy: missing.diagnostics?.requiredBy ?? [],
            validating: missing.diagnostics?.validating, whereRegistered: missing.diagnostics?.whereRegistered)
        return ResolutionError.definitionNotFound(key: missing)
    }
}

/// A value to show in an example call for an argument of the type named `name`.
private func exampleValue(_ name: String) -> String {
    switch name {
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": "42"
    case "Double", "Float", "CGFloat": "1.5"
    case "String", "Substring": "\"text\""
    case "Bool": "true"
    default: "<\(name)>"
    }
}

extension DependencyContainer {
    /// This container and every collaborator reachable from it, depth-first in order.
    func reachable() -> [DependencyContainer] {
        var found: [DependencyContainer] = []
        var stack = [self]
        while let container = stack.popLast() {
            guard !found.contains(where: { $0 === container }) else { continue }
            found.append(container)
            let collaborators = container.liveCollaborators()
            stack.append(contentsOf: collaborators.reversed())
        }
        return found
    }
}

/// Lets the container see through `Optional` to the wrapped type, and through an `Optional` value held as `Any` to
/// what it wraps. `package`: the Factory product's scopes look through optionals the same way.
@usableFromInline
package protocol OptionalType {
    static var wrappedType: Any.Type { get }
    var wrappedValue: Any? { get }
}

extension Optional: OptionalType {
    @usableFromInline package static var wrappedType: Any.Type { Wrapped.self }
    @usableFromInline package var wrappedValue: Any? { self.map { $0 as Any } }
}

/// The names of the types in an argument list, split at its top-level commas: `(Int, Array<(A, B)>)` gives `Int` and
/// `Array<(A, B)>`.
func argumentTypeNames(_ type: Any.Type) -> [String] {
    var name = typeName(type)
    if name.hasPrefix("("), name.hasSuffix(")") {
        name = String(name.dropFirst().dropLast())
    } else {
        return [name]
    }
    var names: [String] = []
    var depth = 0
    var current = ""
    var previous: Character = " "
    for character in name {
        defer { previous = character }
        switch character {
        case "(", "<", "[": depth += 1
        case ">" where previous == "-": break  // the arrow of a function type
        case ")", ">", "]": depth -= 1
        case "," where depth == 0:
            names.append(current)
            current = ""
            continue
        case " " where current.isEmpty: continue
        default: break
        }
        current.append(character)
    }
    names.append(current)
    return names
}

/// Standard value types that no other argument type converts to.
private let plainValueTypeNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
    "Bool", "String", "Character",
]

/// Whether values of other types can be passed as `type`: a protocol (existential) or a class.
private func isExistentialOrClass(_ type: Any.Type) -> Bool {
    type is AnyClass || String(describing: Swift.type(of: type)).hasSuffix(".Protocol")
}
