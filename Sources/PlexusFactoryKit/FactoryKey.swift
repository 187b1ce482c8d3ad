/// Identifies a declaration inside a container: the type it makes and the name of the property that declares
/// it (`#function` at the declaration).
///
/// The name stays the `StaticString` the declaration passed: comparing and hashing its bytes costs a few
/// instructions per character, where making a `String` of it and hashing that cost hundreds on every resolve.
@usableFromInline
struct FactoryKey: Hashable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: StaticString

    @inlinable
    init(type: Any.Type, name: StaticString) {
        self.type = ObjectIdentifier(type)
        self.name = name
    }

    /// The name as a `String`, for messages and the declaration's key in Plexus.
    var text: String { name.description }

    @usableFromInline
    static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        guard lhs.type == rhs.type else { return false }
        return lhs.name.withUTF8Buffer { left in
            rhs.name.withUTF8Buffer { right in
                left.count == right.count && (left.baseAddress == right.baseAddress || left.elementsEqual(right))
            }
        }
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    @usableFromInline
    func _rawHashValue(seed: Int) -> Int {
        // FNV-1a over the name, mixed with the type's address: the names are a program's own property names.
        var hash = UInt(bitPattern: type) ^ UInt(bitPattern: seed) ^ 0xcbf2_9ce4_8422_2325
        name.withUTF8Buffer { bytes in
            for byte in bytes { hash = (hash ^ UInt(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return Int(bitPattern: hash ^ (hash >> 29))
    }
}
