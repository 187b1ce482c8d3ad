/// Identifies a declaration inside a container: the type it makes and the name of the property that declares
/// it (`#function` at the declaration), plus, for an instance kept per argument (`scopeOnParameters`), that argument.
struct FactoryKey: Hashable {
    let type: ObjectIdentifier
    let name: String
    /// The argument an instance is kept for. Kept whole and compared with `==`: two arguments whose hashes collide
    /// still keep two instances.
    let argument: AnyHashable?

    init(type: Any.Type, name: StaticString) {
        self.init(type: ObjectIdentifier(type), name: name.description, argument: nil)
    }

    private init(type: ObjectIdentifier, name: String, argument: AnyHashable?) {
        self.type = type
        self.name = name
        self.argument = argument
    }

    /// The key of the instance kept for `argument`; an argument that is not `Hashable` shares the declaration's.
    func keeping(_ argument: Any) -> FactoryKey {
        guard let hashable = argument as? any Hashable else { return self }
        return FactoryKey(type: type, name: name, argument: AnyHashable(hashable))
    }

    /// The declaration's key, whatever argument this one was kept for.
    var declaration: FactoryKey { FactoryKey(type: type, name: name, argument: nil) }
}
