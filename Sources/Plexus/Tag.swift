extension DependencyContainer {
    /// A tag that tells apart several definitions of the same type.
    ///
    /// Write tags as literals (`"prod"`, `2`), as `.string(_)` / `.int(_)`, or through any
    /// ``DependencyTagConvertible`` value such as an enum. Dip's `.String(_)` and `.Int(_)` spellings compile too.
    ///
    /// ```swift
    /// container.register(tag: "prod") { ProductionApi() as Api }
    /// let api = try container.resolve(tag: "prod") as Api
    /// ```
    public enum Tag: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByIntegerLiteral
    {
        /// A string tag.
        case string(Swift.String)
        /// An integer tag.
        case int(Swift.Int)

        // swift-format-ignore: AlwaysUseLowerCamelCase

        /// Dip's spelling of ``string(_:)``.
        public static func String(_ value: Swift.String) -> Tag { .string(value) }

        // swift-format-ignore: AlwaysUseLowerCamelCase

        /// Dip's spelling of ``int(_:)``.
        public static func Int(_ value: Swift.Int) -> Tag { .int(value) }

        /// Creates a string tag from a literal.
        public init(stringLiteral value: Swift.String) { self = .string(value) }

        /// Creates an integer tag from a literal.
        public init(integerLiteral value: Swift.Int) { self = .int(value) }

        /// The tag as it would be written in Swift: `"prod"` or `2`.
        public var description: Swift.String {
            switch self {
            case .string(let value): "\"\(value)\""
            case .int(let value): "\(value)"
            }
        }
    }
}

/// A value that can be used as a tag: `String`, `Int`, ``DependencyContainer/Tag`` and any `RawRepresentable`
/// type with a `String` or `Int` raw value that declares the conformance.
///
/// ```swift
/// enum Environment: String, DependencyTagConvertible { case prod, staging }
/// container.register(tag: Environment.prod) { ProductionApi() as Api }
/// ```
public protocol DependencyTagConvertible {
    /// The tag this value stands for.
    var dependencyTag: DependencyContainer.Tag { get }
}

extension DependencyContainer.Tag: DependencyTagConvertible {
    /// The tag itself.
    public var dependencyTag: DependencyContainer.Tag { self }
}

extension String: DependencyTagConvertible {
    /// The string as a ``DependencyContainer/Tag/string(_:)`` tag.
    public var dependencyTag: DependencyContainer.Tag { .string(self) }
}

extension Int: DependencyTagConvertible {
    /// The integer as a ``DependencyContainer/Tag/int(_:)`` tag.
    public var dependencyTag: DependencyContainer.Tag { .int(self) }
}

extension DependencyTagConvertible where Self: RawRepresentable, RawValue == String {
    /// The raw value as a ``DependencyContainer/Tag/string(_:)`` tag.
    public var dependencyTag: DependencyContainer.Tag { .string(rawValue) }
}

extension DependencyTagConvertible where Self: RawRepresentable, RawValue == Int {
    /// The raw value as a ``DependencyContainer/Tag/int(_:)`` tag.
    public var dependencyTag: DependencyContainer.Tag { .int(rawValue) }
}
