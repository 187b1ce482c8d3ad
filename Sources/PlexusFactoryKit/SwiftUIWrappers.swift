#if canImport(SwiftUI)
    import Combine
    import Observation
    import SwiftUI

    /// Resolves an `ObservableObject` declaration once per view identity and observes it, as `@StateObject` does:
    /// `@InjectedObject(\.model) var model: ContentViewModel`.
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    @MainActor @propertyWrapper public struct InjectedObject<T: ObservableObject>: DynamicProperty {
        @StateObject private var dependency: T

        /// Resolves `keyPath` of ``Container/shared`` the first time the view appears.
        /// - Parameter keyPath: The declaration.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            _dependency = StateObject(wrappedValue: Container.shared[keyPath: keyPath]())
        }

        /// Resolves `keyPath` of `C.shared` the first time the view appears.
        /// - Parameter keyPath: The declaration.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            _dependency = StateObject(wrappedValue: C.shared[keyPath: keyPath]())
        }

        /// Uses `wrappedValue` instead of resolving (for previews).
        /// - Parameter wrappedValue: The object.
        public init(_ wrappedValue: T) {
            _dependency = StateObject(wrappedValue: wrappedValue)
        }

        /// The object.
        public var wrappedValue: T { dependency }

        /// Bindings to the object's properties.
        public var projectedValue: ObservedObject<T>.Wrapper { $dependency }
    }

    /// Resolves an `@Observable` declaration once per view identity: `@InjectedObservable(\.model) var model`.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor @propertyWrapper public struct InjectedObservable<T: Observable>: DynamicProperty {
        /// Resolves on first read, so that a view made again (and given a new holder SwiftUI drops) resolves nothing.
        private final class Holder {
            private let make: () -> T
            lazy var value: T = make()
            init(_ make: @escaping () -> T) { self.make = make }
        }

        @State private var holder: Holder

        /// Resolves `keyPath` of ``Container/shared`` on first read.
        /// - Parameter keyPath: The declaration.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            _holder = State(wrappedValue: Holder { Container.shared[keyPath: keyPath]() })
        }

        /// Resolves `keyPath` of `C.shared` on first read.
        /// - Parameter keyPath: The declaration.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            _holder = State(wrappedValue: Holder { C.shared[keyPath: keyPath]() })
        }

        /// Uses `wrappedValue` instead of resolving (for previews).
        /// - Parameter wrappedValue: The object.
        public init(_ wrappedValue: @autoclosure @escaping () -> T) {
            _holder = State(wrappedValue: Holder(wrappedValue))
        }

        /// The object.
        public var wrappedValue: T { holder.value }

        /// A binding to the object, for views that take one (the object itself is never replaced).
        public var projectedValue: Binding<T> { .constant(holder.value) }
    }
#endif
