import Foundation
import PlexusFactoryKit

// Fixture types and containers shared by the test files. Each test makes its own container (or runs under the
// `.container` trait), so tests running in parallel never share declarations or kept instances.

protocol Greeter: AnyObject {
    var greeting: String { get }
}

final class EnglishGreeter: Greeter {
    let greeting = "hello"
}

final class MockGreeter: Greeter {
    let greeting = "mock"
}

/// An argument whose values all hash alike: equal hashes must not make two arguments share an instance.
struct CollidingNumber: Hashable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

final class Ticket {
    let number: Int
    init(number: Int = 0) { self.number = number }
}

/// Built from two tickets, to see whether one resolution shares them.
final class Pair {
    let left: Ticket
    let right: Ticket
    init(left: Ticket, right: Ticket) {
        self.left = left
        self.right = right
    }
}

/// Counts from any thread.
// `@unchecked Sendable` is safe: `value` is only read or written while holding `lock`.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A container of its own per test.
final class Shop: ManagedContainer {
    let manager = ContainerManager()
    let made = Tally()

    var greeter: Factory<any Greeter> { self { EnglishGreeter() } }
    var ticket: Factory<Ticket> {
        self {
            Ticket(number: self.made.increment())
        }
    }
    var cachedTicket: Factory<Ticket> { self { Ticket(number: self.made.increment()) }.cached }
    var sharedTicket: Factory<Ticket> { self { Ticket(number: self.made.increment()) }.shared }
    var graphTicket: Factory<Ticket> { self { Ticket(number: self.made.increment()) }.graph }
    var pair: Factory<Pair> { self { Pair(left: self.graphTicket(), right: self.graphTicket()) } }
    var numbered: ParameterFactory<Int, Ticket> { self { Ticket(number: $0) }.cached }
    var perNumber: ParameterFactory<Int, Ticket> { self { Ticket(number: $0) }.cached.scopeOnParameters }
    var perCollidingNumber: ParameterFactory<CollidingNumber, Ticket> {
        self { Ticket(number: $0.value) }.cached.scopeOnParameters
    }
    var promisedGreeter: Factory<(any Greeter)?> { promised() }
}

/// A value several tests exchange from any thread.
// `@unchecked Sendable` is safe: `value` is only read or written while holding `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Stores `newValue` and returns the value it replaces.
    func exchange(_ newValue: Value) -> Value {
        lock.withLock {
            let old = value
            value = newValue
            return old
        }
    }

    /// Changes the value in place.
    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&value) }
    }
}
