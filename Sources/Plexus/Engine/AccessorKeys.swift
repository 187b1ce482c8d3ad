internal import PlexusCore

/// The keys of the typed accessors used with one container, by declaration site; lives in the container's registry,
/// behind its lock.
///
/// A lookup hashes the site's identity metatype and the length of the property's name, then compares the name, which for
/// `#function` (a literal) is the same string every time, so the comparison stops at its first word. Each entry also
/// keeps the key's `KeyTable` hash, so that finding the accessor's definition hashes no string either.
struct AccessorKeys {
    /// A class, so that handing one out of the table copies one reference, not a key and a site.
    final class Entry {
        /// The key. The first stored property, so that `pinnedKey` finds it: keep it first.
        let key: DefinitionKey
        let site: AccessorSite
        let hash: Int
        /// The slot that answered the accessor here last time, valid while the container's `Epoch` equals
        /// `generation`: every change that could make another slot answer (a registration, a removal, a reset, a
        /// restored snapshot, a collaboration) advances it, and the registry holds the slot until then. Written
        /// under the registry's lock for writing; read under it or under the reader bias.
        var answering: Borrowed<Slot>?
        var generation = -1
        /// Whether `answering` was registered under exactly this entry's key: a resolve then points its factory's
        /// frame at the key inside the slot (`Slot.pinnedKey`) and need not keep the entry alive.
        var answeringHasKey = false
        /// The collaborator's slot that answered the accessor here last time, in place of `answering` (see
        /// `CollaboratorAnswer`): an object of its own, made only for such an answer, so that every other entry keeps
        /// one word for it.
        var collaboratorAnswer: CollaboratorAnswer?

        /// The slot of a collaborator that answered the accessor here last time (`collaboratorAnswer`).
        var routed: Borrowed<Slot>? { collaboratorAnswer?.slot }

        /// `answering` while it is still current at `now`, the container's `Epoch`; `nil` when the accessor's answer
        /// must be found again, or is a collaborator's (`routed`).
        func currentAnswer(at now: Int) -> Borrowed<Slot>? {
            generation == now ? answering : nil
        }

        /// Remembers `slot`, this container's, as the answer at `generation`.
        func answer(with slot: Borrowed<Slot>, at generation: Int, hasKey: Bool) {
            (answering, self.generation, answeringHasKey) = (slot, generation, hasKey)
            if collaboratorAnswer != nil { collaboratorAnswer = nil }
        }

        /// Remembers `slot`, registered in `owner` (a collaborator) under exactly this entry's key, as the answer at
        /// `generation`.
        func answer(with slot: Borrowed<Slot>, of owner: DependencyContainer, at generation: Int) {
            (answering, self.generation, answeringHasKey) = (nil, generation, true)
            collaboratorAnswer = CollaboratorAnswer(slot: slot, owner: owner)
        }

        /// `routedOwner`, retained once for the caller to release, or `nil` when it is gone. Out of line, as
        /// `RememberedRoute.retainedOwner()`: the caller borrows the entry, and an inlined weak load would retain it.
        @inline(never)
        func retainedRoutedOwner() -> Owned<DependencyContainer>? {
            guard let owner = collaboratorAnswer?.owner else { return nil }
            return Owned(retaining: owner)
        }

        init(site: AccessorSite, key: DefinitionKey, hash: Int) {
            self.key = key
            self.site = site
            self.hash = hash
            Pinned.checkFirstStoredProperty(of: self, is: key)
        }

        /// `key` where it lies inside the entry, valid as long as the entry lives: the engine's frames point at it,
        /// so resolving copies no key (as `Slot.pinnedKey`).
        var pinnedKey: Pinned<DefinitionKey> { .firstStoredProperty(of: self) }
    }

    /// Empty until the first accessor is used; grows at half load.
    private var buckets: [Entry?] = [] {
        didSet { bases = Bases(buckets: buckets.withUnsafeBufferPointer { $0.baseAddress }, count: buckets.count) }
    }
    private var count = 0
    /// Where `buckets` keeps its elements, refreshed after every change: readers without the registry's lock (its
    /// reader bias) probe through it, because reaching the array through a pointer copied it (a retain and a release
    /// on memory every reader shares). Valid while the table is not changed, which is all such readers need.
    private var bases = Bases()

    private struct Bases {
        var buckets: UnsafePointer<Entry?>?
        var count = 0
    }

    /// More sites than this means property names made at run time: start over rather than grow without bound.
    private static let limit = 4096

    static func hash(_ site: AccessorSite) -> Int {
        var hash = UInt(bitPattern: ObjectIdentifier(site.identity)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= nameHash(site.property) &* 0x1656_67B1_9E37_79F9
        return Int(bitPattern: hash ^ (hash >> 29))
    }

    /// A hash of an accessor's name from the two words of its `String`, read without touching its bytes (hashing
    /// them costs more than the rest of a typed accessor's resolve): a name of up to 15 UTF-8 bytes (most, and
    /// all that tell `leaf0` from `leaf9999`) is stored in those words whole, always the same way for the same
    /// characters; a longer one is a `#function` literal in practice, whose words are the same at every call of its
    /// accessor. Equal names stored differently (a long name built at run time) only start their probes in
    /// different places: the lookup misses and `entry(for:)` adds an entry with the same key, which is correct, and
    /// bounded by `limit`. Same-typed accessors of one namespace differ only in their names, so the hash must read
    /// all of it, not its length.
    private static func nameHash(_ name: String) -> UInt {
        guard let (low, high) = representationWords(of: name) else { return UInt(bitPattern: name.utf8.count) }
        let mixed = low ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
        return mixed ^ (mixed >> 32)
    }

    /// The key of `site`, if it was used here before.
    func existingEntry(for site: AccessorSite) -> Entry? {
        withExistingEntry(for: site) { $0 }
    }

    /// Calls `body` with the entry of `site`, borrowed from the table (no reference counting), if `site` was used
    /// here before. `body` must not change the table.
    @inline(__always)
    func withExistingEntry<R>(for site: AccessorSite, _ body: (Entry) -> R) -> R? {
        Self.withExistingEntry(in: bases, for: site, body)
    }

    /// `withExistingEntry(for:_:)` on a table only read, through a pointer: for reads that run while other threads
    /// read the table too (`Protected.withBiasedRead`).
    @inline(__always)
    static func withExistingEntry<R>(
        in keys: UnsafePointer<AccessorKeys>, for site: AccessorSite, _ body: (Entry) -> R
    ) -> R? {
        guard let bases = keys.pointer(to: \.bases) else { return nil }
        return withExistingEntry(in: bases.pointee, for: site, body)
    }

    @inline(__always)
    private static func withExistingEntry<R>(in bases: Bases, for site: AccessorSite, _ body: (Entry) -> R) -> R? {
        guard let base = bases.buckets, bases.count > 0 else { return nil }
        let mask = bases.count - 1
        var index = Self.hash(site) & mask
        // An optional object reference is one pointer, null for `nil`.
        while let object = UnsafeRawPointer(base + index).load(as: UnsafeRawPointer?.self) {
            let found = Borrowed<Entry>(address: object).with { entry -> R? in
                guard entry.site.identity == site.identity, entry.site.property == site.property else { return nil }
                return body(entry)
            }
            if let found { return found }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The key of `site`, built and remembered on first use.
    mutating func entry(for site: AccessorSite) -> Entry {
        if let entry = existingEntry(for: site) { return entry }
        let (key, hash) = SiteKeys.key(for: site)
        let entry = Entry(site: site, key: key, hash: hash)
        insert(entry)
        return entry
    }

    private mutating func insert(_ entry: Entry) {
        if count >= Self.limit { (buckets, count) = ([], 0) }
        if (count + 1) * 2 > buckets.count {
            let old = buckets
            // Room for 32 sites from the first (a new container's first graph moves none), then doubled.
            buckets = Array(repeating: nil, count: max(old.count * 2, 64))
            count = 0
            for case let entry? in old { insert(entry) }
        }
        let mask = buckets.count - 1
        var index = Self.hash(entry.site) & mask
        while buckets[index] != nil { index = (index + 1) & mask }
        buckets[index] = entry
        count += 1
    }

    /// Checks the table's structure (run by `Registry.checkInvariants()` in builds that check invariants): a
    /// power-of-two bucket array at most half full (one quarter beyond its limit, which starts over), `count` entries,
    /// each reachable from its site's home bucket with no hole before it and found as its site's entry, and the
    /// readers' base address that of the array.
    func checkInvariants() {
        guard !buckets.isEmpty else {
            Invariants.require(count == 0 && bases.count == 0, "accessor keys: \(count) entries in no buckets")
            return
        }
        let base = buckets.withUnsafeBufferPointer { $0.baseAddress }
        Invariants.require(bases.count == buckets.count && bases.buckets == base, "accessor keys: bases out of date")
        let mask = buckets.count - 1
        Invariants.require(buckets.count & mask == 0, "accessor keys: \(buckets.count) buckets, not a power of two")
        Invariants.require(count * 2 <= buckets.count, "accessor keys: more than half full")
        var occupied = 0
        for (index, entry) in buckets.enumerated() {
            guard let entry else { continue }
            occupied += 1
            var probe = Self.hash(entry.site) & mask
            while probe != index {
                Invariants.require(buckets[probe] != nil, "accessor keys: a hole before \(entry.key)'s entry")
                probe = (probe + 1) & mask
            }
            Invariants.require(existingEntry(for: entry.site) === entry, "accessor keys: \(entry.key) listed twice")
            Invariants.require(entry.key == entry.site.key, "accessor keys: an entry whose key is not its site's")
        }
        Invariants.require(occupied == count, "accessor keys: count \(count), \(occupied) occupied buckets")
    }
}

/// The key of every accessor site used in the process and its `KeyTable` hash, built once per site and shared by
/// every container: building a key spells the marker type's name (`String(describing:)`), appends the property and
/// hashes the result, and finds the site's types through a dynamic cast, which together cost several times the rest
/// of an accessor's first use in a container (`Benchmarks/profile --product PlexusProfile
/// launch-warm-accessors/plexus`). Containers share the tag's storage too.
///
/// Property names made at run time could make sites without bound: past `limit` sites, a key is built for each
/// container as it is used there, and not kept here. The limit also bounds the memory kept here, which
/// `Benchmarks/heap --count 4000 plexus-accessors` (names made at run time) counts per declared default.
enum SiteKeys {
    private struct Stored {
        let site: AccessorSite
        let key: DefinitionKey
        let hash: Int
    }

    private struct Table {
        /// Empty until the first site; grows at half load.
        var buckets: [Stored?] = []
        var count = 0
    }

    private static let table = Protected(Table())
    private static let limit = 128

    /// The key of `site` and its `KeyTable` hash: built on the site's first use in the process, then found.
    static func key(for site: AccessorSite) -> (key: DefinitionKey, hash: Int) {
        let home = AccessorKeys.hash(site)
        if let found = table.withLock({ find(site, home: home, in: $0) }) { return found }
        // Built outside the lock: the type's name is looked up by the runtime, which has locks of its own.
        let key = site.key
        let hash = KeyTable<Slot>.hash(key)
        return table.withLock { table in
            // Another thread may have built it meanwhile: keep one, so that containers share its tag.
            if let found = find(site, home: home, in: table) { return found }
            guard table.count < limit else { return (key, hash) }
            insert(Stored(site: site, key: key, hash: hash), home: home, into: &table)
            return (key, hash)
        }
    }

    private static func find(_ site: AccessorSite, home: Int, in table: borrowing Table) -> (DefinitionKey, Int)? {
        guard !table.buckets.isEmpty else { return nil }
        let mask = table.buckets.count - 1
        var index = home & mask
        while let stored = table.buckets[index] {
            if stored.site.identity == site.identity, stored.site.property == site.property {
                return (stored.key, stored.hash)
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private static func insert(_ stored: Stored, home: Int, into table: inout Table) {
        if (table.count + 1) * 2 > table.buckets.count {
            let old = table.buckets
            table.buckets = Array(repeating: nil, count: max(old.count * 2, 32))
            table.count = 0
            for case let moved? in old { insert(moved, home: AccessorKeys.hash(moved.site), into: &table) }
        }
        let mask = table.buckets.count - 1
        var index = home & mask
        while table.buckets[index] != nil { index = (index + 1) & mask }
        table.buckets[index] = stored
        table.count += 1
    }
}

/// The slot of a collaborator that answered a typed accessor (an override registered there under exactly the
/// accessor's key), kept by the accessor's entry in place of its own answer, valid while the entry's `generation` is
/// current, as a remembered route is (`Route`): a change that could remove the slot from `owner`'s registry advances
/// the entry's container's `Epoch` too, under that registry's lock. The slot is only touched under `owner`'s lock or
/// reader bias, once the generation is checked there.
final class CollaboratorAnswer {
    let slot: Borrowed<Slot>
    /// The container that owns `slot`, held weakly, as a route holds it: a collaborator released is gone.
    weak var owner: DependencyContainer?

    init(slot: Borrowed<Slot>, owner: DependencyContainer) {
        self.slot = slot
        self.owner = owner
    }
}
