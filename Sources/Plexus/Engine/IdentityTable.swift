/// A hash table from identities (a type's or an object's `ObjectIdentifier`) to values: what the engine keeps per
/// type (`TypeOps`, `TypeInfo`, `InjectionLayout`) and a registry's slots by definition.
///
/// Not a `Dictionary`: a dictionary's storage is generic over a `Hashable` key, and the Swift runtime instantiates it
/// with a check that the key conforms to `Hashable`, which on first use walks every protocol conformance the process
/// has loaded (about 330,000 instructions in `Benchmarks/launch`, paid by an app's first registration).
///
/// The values are kept dense, in insertion order (a removal moves the last one into the gap), and the buckets hold
/// only positions: growing rehashes integers and moves no value, and freeing the table destroys only the values there
/// are (an array of optionals would be destroyed bucket by bucket through `Optional`'s generic value witness, which
/// `Benchmarks/profile register/plexus` sees). Open addressing with linear probing and backward-shift deletion, a
/// multiplicative hash of the identity's address; the buckets (4 bytes each) grow at half load, which keeps the
/// runs that a lookup probes and a removal shifts short.
struct IdentityTable<Value> {
    /// Each bucket's position in `keys` and `values` plus one; 0 marks an empty bucket. A power of two, or empty until
    /// the first insertion.
    private var buckets: [Int32] = []
    /// The identities, as addresses, in the order of `values`.
    private var keys: [UInt] = []
    private var values: [Value] = []

    /// The number of values.
    var count: Int { values.count }

    /// The value stored for `key`; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> Value? {
        get {
            guard let bucket = bucket(of: Self.address(key)) else { return nil }
            return values[Int(buckets[bucket]) - 1]
        }
        set {
            if let newValue { insert(newValue, at: Self.address(key)) } else { remove(Self.address(key)) }
        }
    }

    /// The same table with each value transformed.
    func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> IdentityTable<T> {
        var result = IdentityTable<T>()
        result.buckets = buckets
        result.keys = keys
        result.values = try values.map(transform)
        return result
    }

    /// Every value, in the order the table keeps them.
    var allValues: [Value] { values }

    /// Checks the table's structure (run by `Registry.checkInvariants()` in builds that check invariants): as many
    /// identities as values, at most half of a power-of-two bucket array in use, every position in exactly one
    /// bucket, found from its identity's home with no empty bucket before it.
    func checkInvariants(_ name: String) {
        Invariants.require(keys.count == values.count, "\(name): \(keys.count) identities, \(values.count) values")
        guard !buckets.isEmpty else {
            Invariants.require(values.isEmpty, "\(name): values without buckets")
            return
        }
        Invariants.require(buckets.count & mask == 0, "\(name): \(buckets.count) buckets, not a power of two")
        Invariants.require(values.count * 2 <= buckets.count, "\(name): more than half full")
        var seen = Array(repeating: false, count: values.count)
        for (bucket, entry) in buckets.enumerated() where entry != 0 {
            let position = Int(entry) - 1
            Invariants.require(position < values.count && !seen[position], "\(name): a position in two buckets")
            seen[position] = true
            Invariants.require(self.bucket(of: keys[position]) == bucket, "\(name): an identity its probe misses")
        }
        Invariants.require(!seen.contains(false), "\(name): a value in no bucket")
    }

    private var mask: Int { buckets.count - 1 }

    private static func address(_ key: ObjectIdentifier) -> UInt {
        UInt(bitPattern: Int(bitPattern: key))
    }

    /// Addresses are aligned, so their low bits say little: the top bits of a multiplication by an odd constant mix
    /// every bit in, as many as the buckets need. Bits from the middle of the product do not: addresses a fixed
    /// stride apart (the metadata of a module's classes) then fall into long runs of neighbouring buckets (about 8
    /// probes a lookup for 300 classes, against 1 for the top bits).
    private func home(of address: UInt) -> Int {
        let shift = UInt.bitWidth - buckets.count.trailingZeroBitCount
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// The bucket that holds `address`, if any.
    private func bucket(of address: UInt) -> Int? {
        guard !buckets.isEmpty else { return nil }
        var bucket = home(of: address)
        while buckets[bucket] != 0 {
            if keys[Int(buckets[bucket]) - 1] == address { return bucket }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    /// The value stored for `key`, or the one `make` returns, stored first; and whether it is the new one. One probe.
    mutating func value(for key: ObjectIdentifier, orInsert make: () -> Value) -> (Value, isNew: Bool) {
        let address = Self.address(key)
        var bucket = buckets.isEmpty ? -1 : home(of: address)
        while bucket >= 0, buckets[bucket] != 0 {
            let position = Int(buckets[bucket]) - 1
            if keys[position] == address { return (values[position], false) }
            bucket = (bucket + 1) & mask
        }
        let value = make()
        append(value, at: address, bucket: bucket)
        return (value, true)
    }

    private mutating func insert(_ value: Value, at address: UInt) {
        // One probe finds the key or the empty bucket it goes to.
        var bucket = buckets.isEmpty ? -1 : home(of: address)
        while bucket >= 0, buckets[bucket] != 0 {
            let position = Int(buckets[bucket]) - 1
            if keys[position] == address {
                values[position] = value
                return
            }
            bucket = (bucket + 1) & mask
        }
        append(value, at: address, bucket: bucket)
    }

    /// Adds a value for a new key whose probe ended at the empty `bucket` (-1 while there are no buckets).
    private mutating func append(_ value: Value, at address: UInt, bucket: Int) {
        keys.append(address)
        values.append(value)
        if values.count * 2 > buckets.count {
            rehash(capacity: Swift.max(8, buckets.count * 2))
        } else {
            buckets[bucket] = Int32(values.count)
        }
    }

    /// Writes `position` (plus one) into the first empty bucket from `address`'s home.
    private mutating func place(_ position: Int, at address: UInt) {
        var bucket = home(of: address)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(position)
    }

    private mutating func rehash(capacity: Int) {
        buckets = Array(repeating: 0, count: capacity)
        for (index, address) in keys.enumerated() { place(index + 1, at: address) }
    }

    private mutating func remove(_ address: UInt) {
        guard var hole = bucket(of: address) else { return }
        let position = Int(buckets[hole]) - 1
        buckets[hole] = 0
        // Backward shift: a bucket after the hole moves into it unless its home lies after the hole (cyclically), so
        // that every key stays reachable from its home without tombstones.
        var next = (hole + 1) & mask
        while buckets[next] != 0 {
            let home = home(of: keys[Int(buckets[next]) - 1])
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                buckets[next] = 0
                hole = next
            }
            next = (next + 1) & mask
        }
        // The last value moves into the gap, and its bucket follows it.
        let last = keys.count - 1
        if position != last {
            let moved = keys[last]
            var bucket = home(of: moved)
            while buckets[bucket] != Int32(last + 1) { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(position + 1)
            keys[position] = moved
            values[position] = values.removeLast()
        } else {
            values.removeLast()
        }
        keys.removeLast()
    }
}
