/// A hash table from identities (a type's or an object's `ObjectIdentifier`) to values: what the engine keeps per
/// type (`TypeOps`, `TypeInfo`, `InjectionLayout`) and a registry's slots by definition.
///
/// Not a `Dictionary`: a dictionary's storage is generic over a `Hashable` key, and the Swift runtime instantiates it
/// with a check that the key conforms to `Hashable`, which on first use walks every protocol conformance the process
/// has loaded (about 330,000 instructions in `Benchmarks/launch`, paid by an app's first registration). Open
/// addressing with linear probing and backward-shift deletion, and a multiplicative hash of the identity's address;
/// it grows at three-quarters load.
struct IdentityTable<Value> {
    /// Each bucket's identity as an address; 0 (no object or type has it) marks an empty bucket. Both arrays have the
    /// same count, a power of two, or are empty until the first insertion.
    private var keys: [UInt] = []
    private var values: [Value?] = []
    private(set) var count = 0

    /// The value stored for `key`; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> Value? {
        get {
            guard !keys.isEmpty else { return nil }
            let address = Self.address(key)
            var index = home(of: address)
            while keys[index] != 0 {
                if keys[index] == address { return values[index] }
                index = (index + 1) & mask
            }
            return nil
        }
        set {
            if let newValue { insert(newValue, at: Self.address(key)) } else { remove(Self.address(key)) }
        }
    }

    /// The same table with each value transformed.
    func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> IdentityTable<T> {
        var result = IdentityTable<T>()
        result.keys = keys
        result.values = try values.map { try $0.map(transform) }
        result.count = count
        return result
    }

    private var mask: Int { keys.count - 1 }

    private static func address(_ key: ObjectIdentifier) -> UInt {
        UInt(bitPattern: Int(bitPattern: key))
    }

    /// Addresses are aligned, so their low bits say little: the high half of a multiplication by an odd constant
    /// mixes every bit in.
    private func home(of address: UInt) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func insert(_ value: Value, at address: UInt) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var index = home(of: address)
        while keys[index] != 0 {
            if keys[index] == address {
                values[index] = value
                return
            }
            index = (index + 1) & mask
        }
        keys[index] = address
        values[index] = value
        count += 1
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let capacity = Swift.max(8, keys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: nil, count: capacity)
        count = 0
        for index in oldKeys.indices where oldKeys[index] != 0 {
            if let value = oldValues[index] { insert(value, at: oldKeys[index]) }
        }
    }

    private mutating func remove(_ address: UInt) {
        guard !keys.isEmpty else { return }
        var hole = home(of: address)
        while keys[hole] != address {
            if keys[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        keys[hole] = 0
        values[hole] = nil
        count -= 1
        // Backward shift: an entry after the hole moves into it unless its home lies after the hole (cyclically), so
        // that every entry stays reachable from its home without tombstones.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let home = home(of: keys[next])
            if (next - home) & mask >= (next - hole) & mask {
                keys[hole] = keys[next]
                values[hole] = values[next]
                keys[next] = 0
                values[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
    }
}
