/// The identity of a definition: the type it produces, the type of its runtime arguments and its tag.
///
/// Two keys are equal when their types are the same types (compared by identity, never by name) and their
/// tags are equal. Errors carry keys so that they can say what was asked for.
///
/// ```swift
/// let key = DefinitionKey(type: Service.self, typeOfArguments: (Int, String).self, tag: "prod")
/// ```
public struct DefinitionKey: Hashable, Sendable, CustomStringConvertible {
    /// The type the definition produces, or the type requested.
    public let type: Any.Type
    /// The type of the runtime arguments: `Void` for none, the argument's type for one, a tuple for several.
    public let typeOfArguments: Any.Type
    /// The tag, or `nil` for an untagged definition.
    public var tag: DependencyContainer.Tag? { storedTag.tag }
    /// The tag without an `Optional` around it, which keeps copies of keys cheap on the resolve path.
    let storedTag: StoredTag

    /// Explanations attached to a key carried by an error (near misses, the "required by" chain, the definition
    /// being validated); never part of equality or hashing.
    var diagnostics: KeyDiagnostics?

    /// Creates a key.
    /// - Parameters:
    ///   - type: The type produced or requested.
    ///   - typeOfArguments: The type of the runtime arguments (`Void.self` for none).
    ///   - tag: The tag, or `nil`.
    public init(type: Any.Type, typeOfArguments: Any.Type, tag: DependencyContainer.Tag? = nil) {
        self.type = type
        self.typeOfArguments = typeOfArguments
        self.storedTag = StoredTag(tag)
    }

    /// A key of these parts, without diagnostics.
    init(type: Any.Type, typeOfArguments: Any.Type, storedTag: StoredTag) {
        self.type = type
        self.typeOfArguments = typeOfArguments
        self.storedTag = storedTag
    }

    /// Whether two keys name the same types and tag.
    public static func == (lhs: DefinitionKey, rhs: DefinitionKey) -> Bool {
        lhs.type == rhs.type && lhs.typeOfArguments == rhs.typeOfArguments && lhs.storedTag == rhs.storedTag
    }

    /// Hashes the type identities and the tag.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(ObjectIdentifier(typeOfArguments))
        hasher.combine(storedTag)
    }

    /// The key in Swift spelling, for example `Service (tag: "prod", arguments: (Int, String))`.
    public var description: String {
        var text = typeName(type)
        var details: [String] = []
        if let tag { details.append("tag: \(tag)") }
        if typeOfArguments != Void.self { details.append("arguments: \(argumentsName(typeOfArguments))") }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        return text
    }

    /// The same key without a tag.
    var untagged: DefinitionKey {
        DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: nil)
    }

    /// The same key for another type.
    func with(type: Any.Type) -> DefinitionKey {
        DefinitionKey(type: type, typeOfArguments: typeOfArguments, tag: tag)
    }
}

/// A tag or none, as one enum.
enum StoredTag: Hashable, Sendable {
    case none
    case string(String)
    case int(Int)

    init(_ tag: DependencyContainer.Tag?) {
        switch tag {
        case nil: self = .none
        case .string(let value)?: self = .string(value)
        case .int(let value)?: self = .int(value)
        }
    }

    var tag: DependencyContainer.Tag? {
        switch self {
        case .none: nil
        case .string(let value): .string(value)
        case .int(let value): .int(value)
        }
    }
}

/// What an error knows beyond its key: near misses found when a lookup failed, the factories that were running
/// (innermost first: the "required by" chain), and the definition `validate` was checking.
final class KeyDiagnostics: Sendable {
    let hints: [String]
    let requiredBy: [DefinitionKey]
    let validating: DefinitionKey?
    /// Sentences saying where the definitions involved are registered: `Presenter is registered in Checkout
    /// (Checkout/Module.swift:12).`
    let whereRegistered: String?

    init(
        hints: [String] = [], requiredBy: [DefinitionKey] = [], validating: DefinitionKey? = nil,
        whereRegistered: String? = nil
    ) {
        self.hints = hints
        self.requiredBy = requiredBy
        self.validating = validating
        self.whereRegistered = whereRegistered
    }
}

/// The Swift spelling of a type: `Service`, `Optional<Service>`, `(Int, String)`.
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// The Swift spelling of an argument list: `()`, `(Int)`, `(Int, String)`.
func argumentsName(_ type: Any.Type) -> String {
    let name = typeName(type)
    // A tuple's name is already in parentheses; a closure's (`() -> Int`) starts with one but is not.
    return isParenthesized(name) ? name : "(\(name))"
}

/// Whether `name` is one parenthesized group: its first character opens the parenthesis its last one closes.
private func isParenthesized(_ name: String) -> Bool {
    guard name.first == "(", name.last == ")" else { return false }
    var depth = 0
    for (offset, character) in name.enumerated() {
        if character == "(" { depth += 1 }
        if character == ")" { depth -= 1 }
        if depth == 0 { return offset == name.count - 1 }
    }
    return false
}
