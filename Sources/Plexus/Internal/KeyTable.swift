/// A hash table from definition keys to values, with a hash that costs a few multiplications instead of SipHash.
///
/// Keys are type identities (pointers) plus a tag, so a cheap multiplicative hash spreads them well; the table
/// is private to a container and never sees keys chosen to collide. Open addressing with linear probing and
/// backward-shift deletion; it grows at half load, so a lookup probes one or two buckets.
struct KeyTable<Value> {
    private struct Entry {
        let key: DefinitionKey
        var value: Value
    }

    /// Empty until the first insertion, so an unused table costs no allocation.
    private var buckets: [Entry?] = []
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    /// The table's hash of `key`; callers that look up the same key often may keep it (`subscript(_:hash:)`).
    static func hash(_ key: DefinitionKey) -> Int {
        var hash = UInt(bitPattern: ObjectIdentifier(key.type)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt(bitPattern: ObjectIdentifier(key.typeOfArguments)) &* 0xC2B2_AE3D_27D4_EB4F
        switch key.storedTag {
        case .none: break
        case .int(let value): hash ^= UInt(bitPattern: value) &* 0x1656_67B1_9E37_79F9
        case .string(let value): hash ^= UInt(bitPattern: value.hashValue)
        }
        return Int(bitPattern: hash ^ (hash >> 29))
    }

    private func index(of key: DefinitionKey, hash: Int? = nil) -> Int? {
        guard !buckets.isEmpty else { return nil }
        var index = (hash ?? Self.hash(key)) & mask
        while let entry = buckets[index] {
            if entry.key == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The value for `key`, whose hash (`KeyTable.hash(key)`) the caller kept: no tag string is hashed.
    subscript(key: DefinitionKey, hash hash: Int) -> Value? {
        index(of: key, hash: hash).flatMap { buckets[$0]?.value }
    }

    subscript(key: DefinitionKey, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    subscript(key: DefinitionKey) -> Value? {
        get { index(of: key).flatMap { buckets[$0]?.value } }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Changes the value for `key` in place (inserting `defaultValue()` first if there is none), so that a
    /// collection value is not copied.
    mutating func modify(
        _ key: DefinitionKey, default defaultValue: @autoclosure () -> Value, _ change: (inout Value) -> Void
    ) {
        if index(of: key) == nil { updateValue(defaultValue(), forKey: key) }
        guard let index = index(of: key), var entry = buckets[index] else { return }
        // Take the entry out first, so that its value is uniquely referenced while it changes.
        buckets[index] = nil
        change(&entry.value)
        buckets[index] = entry
    }

    /// Removes every entry, keeping no capacity.
    mutating func removeAll() {
        buckets = []
        count = 0
    }

    /// Inserts or replaces the value for `key`; returns the value replaced.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: DefinitionKey) -> Value? {
        if let index = index(of: key) {
            let old = buckets[index]?.value
            buckets[index]?.value = value
            return old
        }
        if (count + 1) * 2 > buckets.count { grow() }
        var index = Self.hash(key) & mask
        while buckets[index] != nil { index = (index + 1) & mask }
        buckets[index] = Entry(key: key, value: value)
        count += 1
        return nil
    }

    /// Removes the value for `key`, shifting back the entries probed past it; returns the value removed.
    @discardableResult
    mutating func removeValue(forKey key: DefinitionKey) -> Value? {
        guard var hole = index(of: key) else { return nil }
        let removed = buckets[hole]?.value
        buckets[hole] = nil
        count -= 1
        var index = (hole + 1) & mask
        while let entry = buckets[index] {
            let home = Self.hash(entry.key) & mask
            // Move the entry into the hole if its home bucket is not between the hole and its position.
            if (index - home) & mask >= (index - hole) & mask {
                buckets[hole] = entry
                buckets[index] = nil
                hole = index
            }
            index = (index + 1) & mask
        }
        return removed
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: nil, count: max(old.count * 2, 8))
        count = 0
        for case let entry? in old { updateValue(entry.value, forKey: entry.key) }
    }

    /// Every key and value, in no particular order.
    var entries: [(key: DefinitionKey, value: Value)] {
        buckets.compactMap { $0.map { ($0.key, $0.value) } }
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (Value) -> Bool) -> Bool {
        buckets.contains { $0.map { predicate($0.value) } ?? false }
    }
}

extension DefinitionKey {
    /// A key that stands for a type alone, to index what is registered for it.
    static func typeOnly(_ type: Any.Type) -> DefinitionKey {
        DefinitionKey(type: type, typeOfArguments: TypeOnly.self, tag: nil)
    }

    private enum TypeOnly {}
}
