internal import PlexusCore

/// The declarations of a product that spells typed accessors another way (PlexusFactoryKit), found by the identity of
/// the type they make, the address of their `StaticString` name and, in a container that keeps the instances of
/// several owners' declarations (PlexusFactoryKit's singleton scope), their owner's number (never 0, never given to
/// two owners; 0 in a container of one owner), in the container that keeps their instances; lives in that
/// container's registry, behind its lock. Package access through `DependencyContainer.readDeclaration`.
///
/// It lets such a product's read be a typed accessor's read: one probe and one copy under this container's reader
/// bias, no record of its own looked up first. An item names the accessor entry that answers the declaration here
/// and what the product said about it when it published the item (`DependencyContainer.publishDeclaration`): the
/// product's generation then (`DeclarationRecordGeneration`: the item is current while it holds), which of the
/// product's read words it answers (`accepts`), and the container generation at which a unique instance is what the
/// declaration's own factory makes (`directGeneration`).
struct DeclarationIndex {
    /// A declaration's item: an object, so that a reader without the lock borrows one reference from the table.
    final class Item {
        let owner: UInt
        let type: ObjectIdentifier
        let name: UnsafeRawPointer
        /// The accessor entry of the declaration's site here, kept by `entryKeeper` as long as the item.
        let entry: Borrowed<AccessorKeys.Entry>
        let entryKeeper: AccessorKeys.Entry
        /// Written under the registry's lock for writing; read under it or under the reader bias.
        var recordGeneration = -1
        var accepts: UInt = 0
        var directGeneration = -1

        init(owner: UInt, type: ObjectIdentifier, name: UnsafeRawPointer, entry: AccessorKeys.Entry) {
            (self.owner, self.type, self.name) = (owner, type, name)
            self.entry = Borrowed(entry)
            entryKeeper = entry
        }
    }

    /// Empty until a declaration is published here; grows at half load.
    private var buckets: [Item?] = [] {
        didSet { bases = Bases(buckets: buckets.withUnsafeBufferPointer { $0.baseAddress }, count: buckets.count) }
    }
    private var count = 0
    /// Where `buckets` keeps its elements, for readers under the reader bias (as `AccessorKeys` keeps its own).
    private var bases = Bases()

    private struct Bases {
        var buckets: UnsafePointer<Item?>?
        var count = 0
    }

    /// More items than this means names made at run time or, in a container of several owners, the items of many owners
    /// no longer alive (they are not removed): start over rather than grow without bound.
    private static let limit = 4096

    private static func hash(_ owner: UInt, _ type: ObjectIdentifier, _ name: UnsafeRawPointer) -> Int {
        var hash = (UInt(bitPattern: type) ^ owner) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt(bitPattern: Int(bitPattern: name)) &* 0x1656_67B1_9E37_79F9
        return Int(bitPattern: hash ^ (hash >> 29))
    }

    /// Calls `body` with the item of the declaration (`owner`, `type`, `name`), borrowed from the table, if there is
    /// one. For readers under the reader bias or the lock; `body` must not change the table.
    @inline(__always)
    static func withItem<R>(
        in index: UnsafePointer<DeclarationIndex>, owner: UInt, type: ObjectIdentifier, name: UnsafeRawPointer,
        _ body: (Item) -> R
    ) -> R? {
        guard let bases = index.pointer(to: \.bases) else { return nil }
        return withItem(in: bases.pointee, owner: owner, type: type, name: name, body)
    }

    @inline(__always)
    private static func withItem<R>(
        in bases: Bases, owner: UInt, type: ObjectIdentifier, name: UnsafeRawPointer, _ body: (Item) -> R
    ) -> R? {
        guard let base = bases.buckets, bases.count > 0 else { return nil }
        let mask = bases.count - 1
        var position = hash(owner, type, name) & mask
        // An optional object reference is one pointer, null for `nil`.
        while let object = UnsafeRawPointer(base + position).load(as: UnsafeRawPointer?.self) {
            let found = Borrowed<Item>(address: object).with { item -> R? in
                guard item.type == type, item.name == name, item.owner == owner else { return nil }
                return body(item)
            }
            if let found { return found }
            position = (position + 1) & mask
        }
        return nil
    }

    /// The item of the declaration (`owner`, `type`, `name`), made for `entry` on first use, or again when the entry
    /// it names is no longer the site's (the accessor table started over).
    mutating func item(owner: UInt, type: ObjectIdentifier, name: UnsafeRawPointer, entry: AccessorKeys.Entry) -> Item {
        if let item = Self.withItem(in: bases, owner: owner, type: type, name: name, { $0 }), item.entryKeeper === entry
        {
            return item
        }
        let item = Item(owner: owner, type: type, name: name, entry: entry)
        insert(item)
        return item
    }

    private mutating func insert(_ item: Item) {
        if count >= Self.limit { (buckets, count) = ([], 0) }
        if (count + 1) * 2 > buckets.count {
            let old = buckets
            buckets = Array(repeating: nil, count: max(old.count * 2, 16))
            count = 0
            for case let kept? in old { insert(kept) }
        }
        let mask = buckets.count - 1
        var position = Self.hash(item.owner, item.type, item.name) & mask
        while let existing = buckets[position] {
            if existing.type == item.type, existing.name == item.name, existing.owner == item.owner {
                buckets[position] = item
                return
            }
            position = (position + 1) & mask
        }
        buckets[position] = item
        count += 1
    }

    /// Checks the table's structure (run by `Registry.checkInvariants()` in builds that check invariants): a
    /// power-of-two bucket array at most half full, `count` items, each reachable from its home bucket with no hole
    /// before it, no declaration listed twice, and the readers' base address that of the array.
    func checkInvariants() {
        guard !buckets.isEmpty else {
            Invariants.require(count == 0 && bases.count == 0, "declaration index: \(count) items in no buckets")
            return
        }
        let base = buckets.withUnsafeBufferPointer { $0.baseAddress }
        Invariants.require(
            bases.count == buckets.count && bases.buckets == base, "declaration index: bases out of date")
        let mask = buckets.count - 1
        Invariants.require(buckets.count & mask == 0, "declaration index: bucket count not a power of two")
        Invariants.require(count * 2 <= buckets.count, "declaration index: more than half full")
        var occupied = 0
        for (position, item) in buckets.enumerated() {
            guard let item else { continue }
            occupied += 1
            var probe = Self.hash(item.owner, item.type, item.name) & mask
            while probe != position {
                let before = buckets[probe]
                Invariants.require(before != nil, "declaration index: a hole before an item")
                let same = before?.type == item.type && before?.name == item.name && before?.owner == item.owner
                Invariants.require(!same, "declaration index: an item listed twice")
                probe = (probe + 1) & mask
            }
        }
        Invariants.require(occupied == count, "declaration index: \(occupied) items, \(count) counted")
    }
}
