internal import PlexusCore

/// A table of immutable records, one per declaration site, that readers find without a lock: what a product spelling
/// declarations another way (PlexusFactoryKit) keeps about each declaration so that a read whose answer needs no
/// user code (a kept instance, a scope modifier already applied) takes no lock. Package access.
///
/// A record is found by its owner's identity (a manager object, alive while its records are), the identity of the
/// type it makes and the address of its `StaticString` name (`#function` at the declaration: the same address at
/// every read of one property). Two sites with equal names at different addresses get a record each, both valid.
///
/// Readers probe the table under the lock's reader bias (`Protected.withBiasedRead`) and retain the record they
/// find before the read ends; every change (`insert`, `removeAll`) takes the lock, which first waits for those
/// readers, so a reader never sees a change in progress nor a record being released. What a change removes is
/// released after the table's lock: a record may hold the last reference to a container whose instances' `deinit`s
/// run user code. A caller may still hold a lock of its own then (PlexusFactoryKit forgets records under its
/// process-wide resolution lock, which is recursive and is where such `deinit`s run anyway).
package final class DeclarationRecords<Record: AnyObject & Sendable>: Sendable {
    private let table = Protected(Table(), readerBiased: true)

    /// Makes an empty table.
    package init() {}

    deinit {
        table.withLock { $0.deallocate() }
    }

    /// The record of the declaration `name` of `type` owned by `owner`, if one was inserted since the last removal
    /// that reached it. Takes no lock while the reader bias is on.
    package func record(owner: ObjectIdentifier, type: ObjectIdentifier, name: StaticString) -> Record? {
        guard name.hasPointerRepresentation else { return nil }
        let site = Site(owner: owner, type: type, name: UnsafeRawPointer(name.utf8Start))
        if let found = table.withBiasedRead({ Table.find(site, in: $0) }) { return found }
        return table.withLockKeepingReaders { Table.find(site, in: $0) }
    }

    /// The tag the record of the declaration `name` of `type` owned by `owner` was inserted with, if there is one:
    /// a word the product reads without touching the record (no reference counting). Takes no lock while the reader
    /// bias is on.
    package func tag(owner: ObjectIdentifier, type: ObjectIdentifier, name: StaticString) -> UInt? {
        guard name.hasPointerRepresentation else { return nil }
        let site = Site(owner: owner, type: type, name: UnsafeRawPointer(name.utf8Start))
        if let found = table.withBiasedRead({ Table.findTag(site, in: $0) }) { return found }
        return table.withLockKeepingReaders { Table.findTag(site, in: $0) }
    }

    /// Inserts `record` for the declaration `name` of `type` owned by `owner`, replacing the one there, with `tag`
    /// (see `tag(owner:type:name:)`).
    package func insert(
        _ record: Record, tag: UInt = 0, owner: ObjectIdentifier, type: ObjectIdentifier, name: StaticString
    ) {
        guard name.hasPointerRepresentation else { return }
        let site = Site(owner: owner, type: type, name: UnsafeRawPointer(name.utf8Start), tag: tag)
        let dropped = table.withLock { $0.insert(record, at: site) }
        withExtendedLifetime(dropped) {}
    }

    /// Removes every record of `owner`, or of every owner when `owner` is nil. An empty table stays as it is without
    /// turning the reader bias off.
    package func removeAll(owner: ObjectIdentifier? = nil) {
        if table.withLockKeepingReaders({ $0.pointee.isEmpty }) { return }
        let dropped = table.withLock { $0.removeAll(owner: owner) }
        withExtendedLifetime(dropped) {}
    }

    /// Where a record is: its owner, its type, its name's address; and the record's tag, which is no part of where.
    private struct Site: Equatable {
        let owner: ObjectIdentifier
        let type: ObjectIdentifier
        let name: UnsafeRawPointer
        var tag: UInt = 0

        static func == (lhs: Site, rhs: Site) -> Bool {
            lhs.owner == rhs.owner && lhs.type == rhs.type && lhs.name == rhs.name
        }

        var hash: Int {
            var hash = UInt(bitPattern: owner) &* 0x9E37_79B9_7F4A_7C15
            hash ^= UInt(bitPattern: type) &* 0xC2B2_AE3D_27D4_EB4F
            hash ^= UInt(bitPattern: name) &* 0x1656_67B1_9E37_79F9
            return Int(bitPattern: hash ^ (hash >> 29))
        }
    }

    /// Open addressing with linear probes over memory of its own, so that a reader through a pointer copies no
    /// array (a retain and a release on memory every reader shares).
    private struct Table {
        private var sites: UnsafeMutablePointer<Site>?
        private var records: UnsafeMutablePointer<Owned<Record>?>?
        private var capacity = 0
        private var count = 0

        var isEmpty: Bool { count == 0 }

        /// More records than this means names made at run time: start over rather than grow without bound.
        private static var limit: Int { 4096 }

        static func findTag(_ site: Site, in table: UnsafePointer<Table>) -> UInt? {
            let table = table.pointee
            guard let sites = table.sites, let records = table.records, table.capacity > 0 else { return nil }
            let mask = table.capacity - 1
            var index = site.hash & mask
            while records[index] != nil {
                if sites[index] == site { return sites[index].tag }
                index = (index + 1) & mask
            }
            return nil
        }

        static func find(_ site: Site, in table: UnsafePointer<Table>) -> Record? {
            let table = table.pointee
            guard let sites = table.sites, let records = table.records, table.capacity > 0 else { return nil }
            let mask = table.capacity - 1
            var index = site.hash & mask
            while let record = records[index] {
                if sites[index] == site { return record.object }
                index = (index + 1) & mask
            }
            return nil
        }

        /// Inserts `record` at `site`; returns what it replaced or dropped, to be released after the lock.
        mutating func insert(_ record: Record, at site: Site) -> [Record] {
            var dropped: [Record] = []
            if count >= Self.limit { dropped = removeAll(owner: nil) }
            if (count + 1) * 2 > capacity { grow() }
            if let replaced = place(Owned(retaining: record), at: site) {
                dropped.append(replaced.take())
            }
            return dropped
        }

        /// Puts `record` (a reference the table owns) at `site`; returns the one it replaced, whose reference the
        /// caller now owns. There must be room.
        private mutating func place(_ record: Owned<Record>, at site: Site) -> Owned<Record>? {
            guard let sites, let records, capacity > 0 else {
                record.release()
                return nil
            }
            let mask = capacity - 1
            var index = site.hash & mask
            while let existing = records[index] {
                if sites[index] == site {
                    sites[index] = site
                    records[index] = record
                    return existing
                }
                index = (index + 1) & mask
            }
            (sites + index).initialize(to: site)
            records[index] = record
            count += 1
            return nil
        }

        /// Removes the records of `owner` (every record for nil); returns them, to be released after the lock.
        mutating func removeAll(owner: ObjectIdentifier?) -> [Record] {
            guard let sites, let records, count > 0 else { return [] }
            var dropped: [Record] = []
            var kept: [(Site, Owned<Record>)] = []
            for index in 0..<capacity {
                guard let record = records[index] else { continue }
                if owner == nil || sites[index].owner == owner {
                    dropped.append(record.take())
                } else {
                    kept.append((sites[index], record))
                }
                records[index] = nil
            }
            count = 0
            for (site, record) in kept { _ = place(record, at: site) }
            return dropped
        }

        private mutating func grow() {
            let old = (sites: sites, records: records, capacity: capacity)
            capacity = max(capacity * 2, 16)
            sites = .allocate(capacity: capacity)
            let newRecords = UnsafeMutablePointer<Owned<Record>?>.allocate(capacity: capacity)
            newRecords.initialize(repeating: nil, count: capacity)
            records = newRecords
            count = 0
            guard let oldSites = old.sites, let oldRecords = old.records else { return }
            for index in 0..<old.capacity {
                if let record = oldRecords[index] { _ = place(record, at: oldSites[index]) }
            }
            oldSites.deallocate()
            // Their references moved to the new memory; deinitializing the old copies releases nothing.
            oldRecords.deinitialize(count: old.capacity)
            oldRecords.deallocate()
        }

        /// Releases the records and frees the memory.
        mutating func deallocate() {
            if let records {
                for index in 0..<capacity { records[index]?.release() }
                records.deinitialize(count: capacity)
                records.deallocate()
            }
            sites?.deallocate()
            (sites, records, capacity, count) = (nil, nil, 0, 0)
        }
    }
}
