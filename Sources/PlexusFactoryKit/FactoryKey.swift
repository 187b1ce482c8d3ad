/// Identifies a declaration inside a container: the type it makes and the name of the property that declares
/// it (`#function` at the declaration), plus, for a `scopeOnParameters` instance, its argument's hash.
struct FactoryKey: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String
    var parameter: Int?

    init(type: Any.Type, name: StaticString) {
        self.type = ObjectIdentifier(type)
        self.name = name.description
        self.parameter = nil
    }

    /// The key of the instance kept for `argument` (the declaration's own key when it is not `Hashable`).
    func parameterized(by argument: Any) -> FactoryKey {
        guard let hashable = argument as? any Hashable else { return self }
        var copy = self
        copy.parameter = hashable.hashValue
        return copy
    }

    /// The declaration's key, without the argument part.
    var declaration: FactoryKey {
        var copy = self
        copy.parameter = nil
        return copy
    }
}
