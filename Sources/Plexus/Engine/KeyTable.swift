internal import PlexusCore

/// A hash table from definition keys to values, with a hash that costs a few multiplications instead of SipHash.
///
/// Keys are type identities (pointers) plus a tag, so a cheap multiplicative hash spreads them well; the table
/// is private to a container and never sees keys chosen to collide. Open addressing with linear probing and
/// backward-shift deletion; it grows at three-quarters load, so a lookup probes about two buckets, and a definition
/// keeps between 1.3 and 2.7 buckets (a bucket is 40 bytes without string tags) rather than between 2 and 4.
///
/// A key is not stored whole: its types and integer tag are in its stamp, and only a string tag beside it, so that a
/// bucket holds no second copy of what the stamp has (`Benchmarks/heap` measures what a definition keeps).
struct KeyTable<Value> {
    /// What a probe compares (`KeyStamp`), one per bucket.
    fileprivate typealias Stamp = KeyStamp

    /// Empty until the first insertion, so an unused table costs no allocation. The arrays have the same count (a
    /// power of two) and index the same buckets; `tags` holds the string tags (`nil` for other keys), and stays empty
    /// until the table holds a string-tagged key: most tables never do (types alone, integer tags), and so keep 16
    /// bytes less per bucket and have no array of optional strings to destroy element by element.
    private var stamps: [Stamp] = []
    private var tags: [String?] = []
    private var values: [Value?] = []
    private(set) var count = 0
    /// Where the three arrays keep their elements, refreshed after every change: readers that run while other
    /// threads read the table too (`withBorrowedValue(in:for:hash:_:)`) probe through these, because reaching the
    /// arrays themselves through a pointer copied them (a retain and a release of each, on memory every reader
    /// shares). Valid while the table is not changed, which is all such readers need.
    private var bases = Bases()

    private struct Bases {
        var stamps: UnsafePointer<Stamp>?
        var tags: UnsafePointer<String?>?
        var values: UnsafeRawPointer?
        var count = 0
    }

    private mutating func refreshBases() {
        bases = Bases(
            stamps: stamps.withUnsafeBufferPointer { $0.baseAddress },
            tags: tags.isEmpty ? nil : tags.withUnsafeBufferPointer { $0.baseAddress },
            values: values.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } },
            count: stamps.count)
    }

    private var mask: Int { stamps.count - 1 }

    /// The table's hash of `key`; callers that look up the same key often may keep it (`subscript(_:hash:)`).
    static func hash(_ key: DefinitionKey) -> Int {
        var hash = typesHash(key.type, key.typeOfArguments)
        switch key.storedTag {
        case .none: break
        case .int(let value): hash ^= intTagHash(value)
        case .string(let value): hash ^= stringHash(value)
        }
        return Int(bitPattern: hash ^ (hash >> 29))
    }

    /// The hash of the key `stamp` stands for, whose string tag (if it has one) is `tag`: what `hash(_:)` gives for
    /// that key, computed from the stamp, which keeps no hash of its own.
    fileprivate static func hash(of stamp: Stamp, tag: String?) -> Int {
        guard let type = stamp.type, let arguments = stamp.arguments else { return 0 }
        var hash = typesHash(type, arguments)
        switch stamp.tagKind {
        case 1: hash ^= intTagHash(Int(bitPattern: stamp.tag))
        case 2: hash ^= stringHash(tag ?? "")
        default: break
        }
        return Int(bitPattern: hash ^ (hash >> 29))
    }

    @inline(__always)
    private static func typesHash(_ type: Any.Type, _ arguments: Any.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type)) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt(bitPattern: ObjectIdentifier(arguments)) &* 0xC2B2_AE3D_27D4_EB4F
    }

    /// Folded before the multiplication, which carries bits only upwards: tags that differ only in their high bits
    /// (`id << 40`) still differ in the low bits that pick a bucket.
    @inline(__always)
    private static func intTagHash(_ value: Int) -> UInt {
        let bits = UInt(bitPattern: value)
        return (bits ^ (bits >> 32)) &* 0x1656_67B1_9E37_79F9
    }

    /// The hash of the key in bucket `index`, from its stamp.
    private func hash(at index: Int) -> Int {
        Self.hash(of: stamps[index], tag: tag(at: index))
    }

    /// A tag's hash: for an ASCII tag, a multiplicative hash of its bytes (a few instructions a byte, where the
    /// standard library's seeded SipHash cost about 200 per resolve); otherwise `slowStringHash`. Equal strings (Swift
    /// compares by canonical equivalence) get equal hashes.
    static func stringHash(_ value: String) -> UInt {
        let ascii = value.utf8.withContiguousStorageIfAvailable { bytes -> UInt? in
            var hash = fnvOffset
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt(byte)) &* fnvPrime
            }
            return hash
        }
        return (ascii ?? nil) ?? slowStringHash(value)
    }

    private static var fnvOffset: UInt { 0xCBF2_9CE4_8422_2325 }
    private static var fnvPrime: UInt { 0x0000_0100_0000_01B3 }

    /// The hash of a tag that is not ASCII (or not stored contiguously). Three characters outside ASCII are
    /// canonically equivalent to an ASCII one (KELVIN SIGN to `K`, GREEK QUESTION MARK to `;`, GREEK VARIA to a
    /// backtick: their canonical decompositions are single ASCII characters, and no other character's is), so a
    /// string made of ASCII and those three equals the ASCII string they map to, and is hashed as that string's
    /// bytes. Any other string is equal to no ASCII string, and takes the standard `hashValue`, which is the same
    /// for canonically equivalent strings.
    @inline(never)
    private static func slowStringHash(_ value: String) -> UInt {
        var hash = fnvOffset
        for scalar in value.unicodeScalars {
            let byte: UInt32
            switch scalar.value {
            case 0..<0x80: byte = scalar.value
            case 0x212A: byte = 0x4B  // KELVIN SIGN: K
            case 0x037E: byte = 0x3B  // GREEK QUESTION MARK: ;
            case 0x1FEF: byte = 0x60  // GREEK VARIA: `
            default: return UInt(bitPattern: value.hashValue)
            }
            hash = (hash ^ UInt(byte)) &* fnvPrime
        }
        return hash
    }

    private func index(of key: DefinitionKey, hash: Int? = nil) -> Int? {
        stamps.withUnsafeBufferPointer { stamps in
            tags.withUnsafeBufferPointer { tags in Self.index(of: key, hash: hash, stamps: stamps, tags: tags) }
        }
    }

    /// The bucket of `key` in the table whose arrays are `stamps` and `tags`, read in place.
    @inline(__always)
    private static func index(
        of key: DefinitionKey, hash: Int?, stamps: UnsafeBufferPointer<Stamp>, tags: UnsafeBufferPointer<String?>
    ) -> Int? {
        var end = 0
        return index(of: key, hash: hash, stamps: stamps, tags: tags, end: &end)
    }

    /// `index(of:hash:stamps:tags:)`, which also gives the empty bucket a miss ended at (`end`).
    @inline(__always)
    private static func index(
        of key: DefinitionKey, hash: Int?, stamps: UnsafeBufferPointer<Stamp>, tags: UnsafeBufferPointer<String?>,
        end: inout Int
    ) -> Int? {
        guard !stamps.isEmpty else { return nil }
        let mask = stamps.count - 1
        let hash = hash ?? Self.hash(key)
        let wanted = Stamp(key, hash: hash)
        var wantedString: String?
        if case .string(let tag) = key.storedTag { wantedString = tag }
        var index = hash & mask
        while true {
            let stamp = stamps[index]
            guard let type = stamp.type else {
                end = index
                return nil
            }
            if stamp.hashBits == wanted.hashBits, type == key.type, stamp.arguments == key.typeOfArguments,
                stamp.tagKind == wanted.tagKind, stamp.tag == wanted.tag,
                wanted.tagKind != 2 || tags[index] == wantedString
            {
                return index
            }
            index = (index + 1) & mask
        }
    }

    /// The value for `key`, whose hash (`KeyTable.hash(key)`) the caller kept: no tag string is hashed.
    subscript(key: DefinitionKey, hash hash: Int) -> Value? {
        index(of: key, hash: hash).flatMap { values[$0] }
    }

    subscript(key: DefinitionKey, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    subscript(key: DefinitionKey) -> Value? {
        get { index(of: key).flatMap { values[$0] } }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Changes the value for `key` in place (inserting `defaultValue()` first if there is none), so that a
    /// collection value is not copied.
    mutating func modify(
        _ key: DefinitionKey, default defaultValue: @autoclosure () -> Value, _ change: (inout Value) -> Void
    ) {
        var found = index(of: key)
        if found == nil {
            updateValue(defaultValue(), forKey: key)
            found = index(of: key)
        }
        guard let index = found, var value = values[index] else { return }
        // Take the value out first, so that it is uniquely referenced while it changes.
        values[index] = nil
        change(&value)
        values[index] = value
        refreshBases()
    }

    /// Makes room for `count` entries in an empty table, so that a table expected to fill soon is not grown on the
    /// way; a table with entries is left as it is.
    mutating func reserveCapacity(_ count: Int) {
        guard stamps.isEmpty else { return }
        var capacity = 8
        while count * 4 > capacity * 3 { capacity *= 2 }
        stamps = Array(repeating: Stamp(), count: capacity)
        values = Array(repeating: nil, count: capacity)
        refreshBases()
    }

    /// Removes every entry, keeping no capacity.
    mutating func removeAll() {
        stamps = []
        tags = []
        values = []
        count = 0
        refreshBases()
    }

    /// Inserts or replaces the value for `key` (whose hash the caller may have kept: a tag string is hashed once);
    /// returns the value replaced. A new key is stamped with `sequence`; a replaced one keeps its own.
    @discardableResult
    mutating func updateValue(
        _ value: Value, forKey key: DefinitionKey, hash: Int? = nil, sequence: UInt32 = 0
    ) -> Value? {
        let hash = hash ?? Self.hash(key)
        let bucket = bucket(for: key, hash: hash)
        return store(value, in: bucket, forKey: key, hash: hash, sequence: sequence)
    }

    /// Where a change of `key` (whose hash is `hash`) goes: the key's bucket (`found`), or the empty bucket a new entry
    /// for it takes, the table grown first when one more entry would fill it past three-quarters. One probe serves the
    /// lookup of what is there (`value(in:)`) and the change that follows (`store`), which must come before any other
    /// change of the table.
    mutating func bucket(for key: DefinitionKey, hash: Int) -> (index: Int, found: Bool) {
        if stamps.isEmpty { grow() }
        let found = probe(for: key, hash: hash)
        guard !found.found, (count + 1) * 4 > stamps.count * 3 else { return found }
        grow()
        return probe(for: key, hash: hash)
    }

    /// The value in `bucket` (from `bucket(for:hash:)`): the one stored for its key, `nil` when the key is new.
    func value(in bucket: (index: Int, found: Bool)) -> Value? {
        bucket.found ? values[bucket.index] : nil
    }

    /// Stores `value` in `bucket` (from `bucket(for:hash:)`, the table unchanged since) for `key`, whose hash is `hash`:
    /// replaces the value of a key found there, or makes a new entry stamped with `sequence`. Returns the value replaced.
    @discardableResult
    mutating func store(
        _ value: Value, in bucket: (index: Int, found: Bool), forKey key: DefinitionKey, hash: Int, sequence: UInt32
    ) -> Value? {
        let index = bucket.index
        if bucket.found {
            let old = values[index]
            values[index] = value
            refreshBases()
            return old
        }
        stamps[index] = Stamp(key, hash: hash)
        stamps[index].sequence = sequence
        // An empty bucket's tag is `nil` (`clear`, `grow`), so only a string tag is written.
        assert(tag(at: index) == nil, "an empty bucket with a tag")
        if case .string(let tag) = key.storedTag {
            if tags.isEmpty { tags = Array(repeating: nil, count: stamps.count) }
            tags[index] = tag
        }
        values[index] = value
        count += 1
        refreshBases()
        return nil
    }

    /// The bucket of `key` in a table with buckets, or the empty bucket its probe ended at.
    private func probe(for key: DefinitionKey, hash: Int) -> (index: Int, found: Bool) {
        stamps.withUnsafeBufferPointer { stamps in
            tags.withUnsafeBufferPointer { tags in
                var end = 0
                let found = Self.index(of: key, hash: hash, stamps: stamps, tags: tags, end: &end)
                return found.map { ($0, true) } ?? (end, false)
            }
        }
    }

    /// Removes the value for `key`, shifting back the entries probed past it; returns the value removed.
    @discardableResult
    mutating func removeValue(forKey key: DefinitionKey, hash: Int? = nil) -> Value? {
        guard var hole = index(of: key, hash: hash) else { return nil }
        let removed = values[hole]
        clear(hole)
        count -= 1
        var index = (hole + 1) & mask
        while stamps[index].type != nil {
            let home = self.hash(at: index) & mask
            // Move the entry into the hole if its home bucket is not between the hole and its position.
            if (index - home) & mask >= (index - hole) & mask {
                stamps[hole] = stamps[index]
                if !tags.isEmpty { tags[hole] = tags[index] }
                values[hole] = values[index]
                clear(index)
                hole = index
            }
            index = (index + 1) & mask
        }
        refreshBases()
        return removed
    }

    private mutating func clear(_ index: Int) {
        stamps[index] = Stamp()
        if !tags.isEmpty { tags[index] = nil }
        values[index] = nil
    }

    /// The string tag in bucket `index`; `nil` for another key, an empty bucket, or a table without string tags.
    private func tag(at index: Int) -> String? {
        tags.isEmpty ? nil : tags[index]
    }

    /// Grows the buckets, moving each entry by its hash, computed again from its stamp (a stamp keeps only a few bits
    /// of it): no key is compared again (the keys are distinct already). The values are moved, not copied: no
    /// reference is counted.
    private mutating func grow() {
        let (oldStamps, oldTags) = (stamps, tags)
        var oldValues: [Value?] = []
        swap(&oldValues, &values)
        // Quadrupled while small, so that a container's first few dozen definitions (a new container's first graph)
        // move twice rather than three or four times; doubled beyond, so that a large table keeps no more than twice
        // the buckets it needs.
        let capacity = stamps.count < 64 ? max(stamps.count * 4, 8) : stamps.count * 2
        stamps = Array(repeating: Stamp(), count: capacity)
        tags = oldTags.isEmpty ? [] : Array(repeating: nil, count: capacity)
        values = Array(repeating: nil, count: capacity)
        let mask = capacity - 1
        oldValues.withUnsafeMutableBufferPointer { oldValues in
            values.withUnsafeMutableBufferPointer { values in
                for old in oldStamps.indices where oldStamps[old].type != nil {
                    var index = Self.hash(of: oldStamps[old], tag: oldTags.isEmpty ? nil : oldTags[old]) & mask
                    while stamps[index].type != nil { index = (index + 1) & mask }
                    stamps[index] = oldStamps[old]
                    if !oldTags.isEmpty { tags[index] = oldTags[old] }
                    values[index] = oldValues.moveElement(from: old)
                    oldValues.initializeElement(at: old, to: nil)
                }
            }
        }
        refreshBases()
    }

    /// Every value, in no particular order.
    var allValues: [Value] {
        values.compactMap { $0 }
    }

    /// Every key and value, in no particular order. The keys are rebuilt from the buckets: a key carries no
    /// `diagnostics` here (keys in a table never do).
    var entries: [(key: DefinitionKey, value: Value)] {
        stamps.indices.compactMap { index in
            guard let key = stamps[index].key(string: tag(at: index)), let value = values[index] else { return nil }
            return (key, value)
        }
    }

    /// Every key with the sequence it was inserted with, in no particular order.
    var sequencedKeys: [(key: DefinitionKey, sequence: UInt32)] {
        stamps.indices.compactMap { index in
            stamps[index].key(string: tag(at: index)).map { ($0, stamps[index].sequence) }
        }
    }

    /// The same table, keys in the same buckets with the same sequences, each value transformed.
    func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> KeyTable<T> {
        var result = KeyTable<T>()
        result.stamps = stamps
        result.tags = tags
        result.values = try values.map { try $0.map(transform) }
        result.count = count
        result.refreshBases()
        return result
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (Value) -> Bool) -> Bool {
        values.contains { $0.map(predicate) ?? false }
    }
}

extension KeyTable {
    /// Checks the table's structure (run by `Registry.checkInvariants()` in builds that check invariants): three
    /// arrays of one power-of-two length at most three-quarters full, `count` occupied buckets, each stamp's hash its
    /// key's, a string tag exactly where the stamp says so, no hole between a key's home bucket and its bucket (linear
    /// probing finds every key), no key twice, and the readers' base addresses those of the arrays.
    func checkInvariants(_ name: String) {
        Invariants.require(
            (tags.isEmpty || stamps.count == tags.count) && stamps.count == values.count,
            "\(name): bucket arrays of different lengths")
        guard !stamps.isEmpty else {
            Invariants.require(count == 0 && bases.count == 0, "\(name): \(count) entries in no buckets")
            return
        }
        let baseOfStamps = stamps.withUnsafeBufferPointer { $0.baseAddress }
        Invariants.require(
            bases.count == stamps.count && bases.stamps == baseOfStamps, "\(name): readers' bases are out of date")
        Invariants.require(stamps.count & mask == 0, "\(name): \(stamps.count) buckets, not a power of two")
        Invariants.require(count * 4 <= stamps.count * 3, "\(name): more than three-quarters full")
        var occupied = 0
        for index in stamps.indices {
            let stamp = stamps[index]
            guard stamp.type != nil else {
                Invariants.require(
                    tag(at: index) == nil && values[index] == nil, "\(name): an empty bucket with a value")
                continue
            }
            occupied += 1
            Invariants.require(values[index] != nil, "\(name): a key without a value")
            Invariants.require((stamp.tagKind == 2) == (tag(at: index) != nil), "\(name): a string tag out of place")
            guard let key = stamp.key(string: tag(at: index)) else {
                Invariants.require(false, "\(name): a stamp without its argument types")
                continue
            }
            let keyHash = Self.hash(key)
            Invariants.require(
                keyHash == hash(at: index) && Stamp(key, hash: keyHash).hashBits == stamp.hashBits,
                "\(name): the stamp of \(key) keeps another hash")
            var probe = keyHash & mask
            while probe != index {
                Invariants.require(stamps[probe].type != nil, "\(name): a hole before \(key) in its probe chain")
                probe = (probe + 1) & mask
            }
            Invariants.require(self.index(of: key, hash: keyHash) == index, "\(name): \(key) is in two buckets")
        }
        Invariants.require(occupied == count, "\(name): count \(count), \(occupied) occupied buckets")
    }
}

extension KeyTable {
    /// The value stored for `key` in a table only read, through a pointer, copied out (see
    /// `withBorrowedValue(in:for:hash:_:)`, which borrows an object instead): nothing else of the table is copied.
    static func value(in table: UnsafePointer<KeyTable>, for key: DefinitionKey) -> Value? {
        let bases = table.pointee.bases
        guard let stamps = bases.stamps, let values = bases.values else { return nil }
        let index = Self.index(
            of: key, hash: nil, stamps: UnsafeBufferPointer(start: stamps, count: bases.count),
            tags: UnsafeBufferPointer(start: bases.tags, count: bases.tags == nil ? 0 : bases.count))
        return index.flatMap { (values + $0 * MemoryLayout<Value?>.stride).load(as: Value?.self) }
    }
}

extension KeyTable where Value: AnyObject {
    /// `withBorrowedValue(for:hash:_:)` on a table only read, through a pointer: for reads that run while other
    /// threads read the same table (the registry's reader bias, `Protected.withBiasedRead`). Nothing of the table is
    /// copied, so none of its arrays is retained (a write to memory that every reader shares).
    @inline(__always)
    static func withBorrowedValue<R>(
        in table: UnsafePointer<KeyTable>, for key: DefinitionKey, hash: Int? = nil, _ body: (Value) -> R
    ) -> R? {
        let bases = table.pointee.bases
        guard let stamps = bases.stamps, let values = bases.values else { return nil }
        let index = Self.index(
            of: key, hash: hash, stamps: UnsafeBufferPointer(start: stamps, count: bases.count),
            tags: UnsafeBufferPointer(start: bases.tags, count: bases.tags == nil ? 0 : bases.count))
        return index.flatMap { withObject(at: $0, in: values, body) }
    }

    /// Calls `body` with the object stored for `key`, borrowed from the table: no reference counting. `body` must
    /// not change the table; `nil` when there is no value for `key`.
    @inline(__always)
    func withBorrowedValue<R>(for key: DefinitionKey, hash: Int? = nil, _ body: (Value) -> R) -> R? {
        guard let index = index(of: key, hash: hash) else { return nil }
        return values.withUnsafeBufferPointer { buffer -> R? in
            buffer.baseAddress.flatMap { Self.withObject(at: index, in: UnsafeRawPointer($0), body) }
        }
    }

    /// Calls `body` with the object in bucket `index` of the values stored at `values`, borrowed; `nil` if the bucket
    /// is empty.
    @inline(__always)
    private static func withObject<R>(at index: Int, in values: UnsafeRawPointer, _ body: (Value) -> R) -> R? {
        // An optional object reference is one pointer, null for `nil`.
        guard let object = (values + index * MemoryLayout<Value?>.stride).load(as: UnsafeRawPointer?.self) else {
            return nil
        }
        return Borrowed<Value>(address: object).with(body)
    }
}

extension DefinitionKey {
    /// A key that stands for a type alone, to index what is registered for it.
    static func typeOnly(_ type: Any.Type) -> DefinitionKey {
        DefinitionKey(type: type, typeOfArguments: TypeOnly.self, tag: nil)
    }

    private enum TypeOnly {}
}

/// What a probe compares, kept apart from the string tags and values: it is trivially copyable, so probing a
/// bucket copies, retains and releases nothing (comparing whole `DefinitionKey`s in place goes through generic
/// value-witness calls: `Benchmarks/profile tagged/plexus`). Only string tags need a look at `tags`.
private struct KeyStamp {
    /// The key's type; `nil` marks an empty bucket.
    var type: Any.Type?
    var arguments: Any.Type?
    /// The integer tag; 0 for none and for a string tag.
    var tag: UInt = 0
    /// 0: no tag; 1: an integer tag; 2: a string tag.
    var tagKind: UInt8 = 0
    /// The top bits of the key's hash, compared first: a probe that passes a key of the same types compares no
    /// string tag unless these match. In the padding after `tagKind`, as is `sequence`: a bucket keeps no word for
    /// the hash, which `KeyTable.hash(of:tag:)` computes again when the table needs it (growing, removing).
    var hashBits: UInt16 = 0
    /// When the key was inserted, as its owner counts (`updateValue(_:forKey:hash:sequence:)`), so that the keys
    /// can be listed in that order (`sequencedKeys`).
    var sequence: UInt32 = 0

    init() {}

    init(_ key: DefinitionKey, hash: Int) {
        type = key.type
        arguments = key.typeOfArguments
        switch key.storedTag {
        case .none: break
        case .int(let value):
            tag = UInt(bitPattern: value)
            tagKind = 1
        case .string:
            // Compared on the stored string; its hash is part of `hash` already.
            tagKind = 2
        }
        hashBits = UInt16(truncatingIfNeeded: UInt(bitPattern: hash) >> 48)
    }

    /// The key this stamp stands for, with `string` as its tag if it has a string tag; `nil` for an empty bucket.
    func key(string: String?) -> DefinitionKey? {
        guard let type, let arguments else { return nil }
        let storedTag: DependencyContainer.Tag?
        switch tagKind {
        case 1: storedTag = .int(Int(bitPattern: tag))
        case 2:
            assert(string != nil, "a string-tagged bucket without its string")
            storedTag = string.map { .string($0) }
        default: storedTag = nil
        }
        return DefinitionKey(type: type, typeOfArguments: arguments, tag: storedTag)
    }
}
