/// The keys registered in one registry for one type (definitions and forwarding registrations), in registration
/// order: for auto-wiring, near-miss hints and decorator checks.
///
/// A removal only counts the key as stale; once stale keys are half the list, one pass drops them (and a key listed
/// twice, registered again after its removal). So removing a key is O(1) amortized, where a scan per removal made
/// removing every key of a type registered thousands of times (tags from runtime data) quadratic, and registering
/// costs an append, with no index to build or keep in memory. Readers see stale keys until that pass: they check
/// each key against the registry's tables (`Registry.keys(for:)`).
struct TypeKeys {
    /// The keys, stale ones included.
    private(set) var keys: [DefinitionKey] = []
    /// How many entries of `keys` are stale (removed, or listed again later).
    private(set) var staleCount = 0

    /// Adds `key`, registered anew.
    mutating func insert(_ key: DefinitionKey) {
        keys.append(key)
    }

    /// Counts `key` as removed; drops the stale keys when they are half the list. `isLive` says whether a key is
    /// still registered. Returns whether no key is left.
    mutating func remove(_ key: DefinitionKey, isLive: (DefinitionKey) -> Bool) -> Bool {
        staleCount += 1
        guard staleCount * 2 >= keys.count else { return false }
        var seen = Set<DefinitionKey>()
        keys.removeAll { !isLive($0) || !seen.insert($0).inserted }
        staleCount = 0
        return keys.isEmpty
    }
}
