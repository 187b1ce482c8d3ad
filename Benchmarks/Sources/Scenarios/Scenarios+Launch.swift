import Plexus
import Swinject

// What an app pays for its first resolves in a fresh process: 50 distinct classes registered, and one graph of 20 of
// them (a binary tree, unique scope) resolved once. Each class is a type the process has never seen, as an app's are,
// so the runtime's first checks of each type are part of the cost. `Benchmarks/launch` runs `PlexusProfile --launch
// CONTENDER` under callgrind with `--count 1` and `--count 0` and reports the difference. The classes follow one
// pattern (node i depends on nodes 2i+1 and 2i+2 below 20); the 30 others are registered and never resolved.

final class Launch0 { let d0: Launch1; let d1: Launch2; init(_ d0: Launch1, _ d1: Launch2) { self.d0 = d0; self.d1 = d1; } }
final class Launch1 { let d0: Launch3; let d1: Launch4; init(_ d0: Launch3, _ d1: Launch4) { self.d0 = d0; self.d1 = d1; } }
final class Launch2 { let d0: Launch5; let d1: Launch6; init(_ d0: Launch5, _ d1: Launch6) { self.d0 = d0; self.d1 = d1; } }
final class Launch3 { let d0: Launch7; let d1: Launch8; init(_ d0: Launch7, _ d1: Launch8) { self.d0 = d0; self.d1 = d1; } }
final class Launch4 { let d0: Launch9; let d1: Launch10; init(_ d0: Launch9, _ d1: Launch10) { self.d0 = d0; self.d1 = d1; } }
final class Launch5 { let d0: Launch11; let d1: Launch12; init(_ d0: Launch11, _ d1: Launch12) { self.d0 = d0; self.d1 = d1; } }
final class Launch6 { let d0: Launch13; let d1: Launch14; init(_ d0: Launch13, _ d1: Launch14) { self.d0 = d0; self.d1 = d1; } }
final class Launch7 { let d0: Launch15; let d1: Launch16; init(_ d0: Launch15, _ d1: Launch16) { self.d0 = d0; self.d1 = d1; } }
final class Launch8 { let d0: Launch17; let d1: Launch18; init(_ d0: Launch17, _ d1: Launch18) { self.d0 = d0; self.d1 = d1; } }
final class Launch9 { let d0: Launch19; init(_ d0: Launch19) { self.d0 = d0; } }
final class Launch10 { init() {  } }
final class Launch11 { init() {  } }
final class Launch12 { init() {  } }
final class Launch13 { init() {  } }
final class Launch14 { init() {  } }
final class Launch15 { init() {  } }
final class Launch16 { init() {  } }
final class Launch17 { init() {  } }
final class Launch18 { init() {  } }
final class Launch19 { init() {  } }
final class Launch20 { init() {  } }
final class Launch21 { init() {  } }
final class Launch22 { init() {  } }
final class Launch23 { init() {  } }
final class Launch24 { init() {  } }
final class Launch25 { init() {  } }
final class Launch26 { init() {  } }
final class Launch27 { init() {  } }
final class Launch28 { init() {  } }
final class Launch29 { init() {  } }
final class Launch30 { init() {  } }
final class Launch31 { init() {  } }
final class Launch32 { init() {  } }
final class Launch33 { init() {  } }
final class Launch34 { init() {  } }
final class Launch35 { init() {  } }
final class Launch36 { init() {  } }
final class Launch37 { init() {  } }
final class Launch38 { init() {  } }
final class Launch39 { init() {  } }
final class Launch40 { init() {  } }
final class Launch41 { init() {  } }
final class Launch42 { init() {  } }
final class Launch43 { init() {  } }
final class Launch44 { init() {  } }
final class Launch45 { init() {  } }
final class Launch46 { init() {  } }
final class Launch47 { init() {  } }
final class Launch48 { init() {  } }
final class Launch49 { init() {  } }

/// Registers the 50 launch classes in a new container of `contender` and resolves the 20-node graph once; returns
/// what it resolved (nil for a contender without this row). `optedOut`: a Plexus container that neither
/// auto-injects properties nor calls `Resolvable`.
public func launch(_ contender: Contender, optedOut: Bool = false) -> AnyObject? {
    switch contender {
    case .hand:
        return Launch0(Launch1(Launch3(Launch7(Launch15(), Launch16()), Launch8(Launch17(), Launch18())), Launch4(Launch9(Launch19()), Launch10())), Launch2(Launch5(Launch11(), Launch12()), Launch6(Launch13(), Launch14())))
    case .swinject:
        let container = Swinject.Container()
        container.register(Launch0.self) { r in Launch0(r.resolve(Launch1.self)!, r.resolve(Launch2.self)!) }
        container.register(Launch1.self) { r in Launch1(r.resolve(Launch3.self)!, r.resolve(Launch4.self)!) }
        container.register(Launch2.self) { r in Launch2(r.resolve(Launch5.self)!, r.resolve(Launch6.self)!) }
        container.register(Launch3.self) { r in Launch3(r.resolve(Launch7.self)!, r.resolve(Launch8.self)!) }
        container.register(Launch4.self) { r in Launch4(r.resolve(Launch9.self)!, r.resolve(Launch10.self)!) }
        container.register(Launch5.self) { r in Launch5(r.resolve(Launch11.self)!, r.resolve(Launch12.self)!) }
        container.register(Launch6.self) { r in Launch6(r.resolve(Launch13.self)!, r.resolve(Launch14.self)!) }
        container.register(Launch7.self) { r in Launch7(r.resolve(Launch15.self)!, r.resolve(Launch16.self)!) }
        container.register(Launch8.self) { r in Launch8(r.resolve(Launch17.self)!, r.resolve(Launch18.self)!) }
        container.register(Launch9.self) { r in Launch9(r.resolve(Launch19.self)!) }
        container.register(Launch10.self) { _ in Launch10() }
        container.register(Launch11.self) { _ in Launch11() }
        container.register(Launch12.self) { _ in Launch12() }
        container.register(Launch13.self) { _ in Launch13() }
        container.register(Launch14.self) { _ in Launch14() }
        container.register(Launch15.self) { _ in Launch15() }
        container.register(Launch16.self) { _ in Launch16() }
        container.register(Launch17.self) { _ in Launch17() }
        container.register(Launch18.self) { _ in Launch18() }
        container.register(Launch19.self) { _ in Launch19() }
        container.register(Launch20.self) { _ in Launch20() }
        container.register(Launch21.self) { _ in Launch21() }
        container.register(Launch22.self) { _ in Launch22() }
        container.register(Launch23.self) { _ in Launch23() }
        container.register(Launch24.self) { _ in Launch24() }
        container.register(Launch25.self) { _ in Launch25() }
        container.register(Launch26.self) { _ in Launch26() }
        container.register(Launch27.self) { _ in Launch27() }
        container.register(Launch28.self) { _ in Launch28() }
        container.register(Launch29.self) { _ in Launch29() }
        container.register(Launch30.self) { _ in Launch30() }
        container.register(Launch31.self) { _ in Launch31() }
        container.register(Launch32.self) { _ in Launch32() }
        container.register(Launch33.self) { _ in Launch33() }
        container.register(Launch34.self) { _ in Launch34() }
        container.register(Launch35.self) { _ in Launch35() }
        container.register(Launch36.self) { _ in Launch36() }
        container.register(Launch37.self) { _ in Launch37() }
        container.register(Launch38.self) { _ in Launch38() }
        container.register(Launch39.self) { _ in Launch39() }
        container.register(Launch40.self) { _ in Launch40() }
        container.register(Launch41.self) { _ in Launch41() }
        container.register(Launch42.self) { _ in Launch42() }
        container.register(Launch43.self) { _ in Launch43() }
        container.register(Launch44.self) { _ in Launch44() }
        container.register(Launch45.self) { _ in Launch45() }
        container.register(Launch46.self) { _ in Launch46() }
        container.register(Launch47.self) { _ in Launch47() }
        container.register(Launch48.self) { _ in Launch48() }
        container.register(Launch49.self) { _ in Launch49() }
        return container.resolve(Launch0.self)
    case .plexus:
        let container = DependencyContainer(autoInjectProperties: !optedOut, callsResolvable: !optedOut)
        container.register(.unique) { [unowned container] in Launch0(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch1(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch2(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch3(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch4(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch5(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch6(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch7(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch8(try container.resolve(), try container.resolve()) }
        container.register(.unique) { [unowned container] in Launch9(try container.resolve()) }
        container.register(.unique) { Launch10() }
        container.register(.unique) { Launch11() }
        container.register(.unique) { Launch12() }
        container.register(.unique) { Launch13() }
        container.register(.unique) { Launch14() }
        container.register(.unique) { Launch15() }
        container.register(.unique) { Launch16() }
        container.register(.unique) { Launch17() }
        container.register(.unique) { Launch18() }
        container.register(.unique) { Launch19() }
        container.register(.unique) { Launch20() }
        container.register(.unique) { Launch21() }
        container.register(.unique) { Launch22() }
        container.register(.unique) { Launch23() }
        container.register(.unique) { Launch24() }
        container.register(.unique) { Launch25() }
        container.register(.unique) { Launch26() }
        container.register(.unique) { Launch27() }
        container.register(.unique) { Launch28() }
        container.register(.unique) { Launch29() }
        container.register(.unique) { Launch30() }
        container.register(.unique) { Launch31() }
        container.register(.unique) { Launch32() }
        container.register(.unique) { Launch33() }
        container.register(.unique) { Launch34() }
        container.register(.unique) { Launch35() }
        container.register(.unique) { Launch36() }
        container.register(.unique) { Launch37() }
        container.register(.unique) { Launch38() }
        container.register(.unique) { Launch39() }
        container.register(.unique) { Launch40() }
        container.register(.unique) { Launch41() }
        container.register(.unique) { Launch42() }
        container.register(.unique) { Launch43() }
        container.register(.unique) { Launch44() }
        container.register(.unique) { Launch45() }
        container.register(.unique) { Launch46() }
        container.register(.unique) { Launch47() }
        container.register(.unique) { Launch48() }
        container.register(.unique) { Launch49() }
        return try? container.resolve() as Launch0
    case .dependencies:
        return nil
    }
}

// The same graph declared as typed accessors, which register nothing before their first use (as Factory's
// declarations): a new container pays only for the 20 it resolves.
extension DependencyContainer {
    fileprivate var launchAccessor0: Factory<Launch0> { self { Launch0(self.launchAccessor1(), self.launchAccessor2()) } }
    fileprivate var launchAccessor1: Factory<Launch1> { self { Launch1(self.launchAccessor3(), self.launchAccessor4()) } }
    fileprivate var launchAccessor2: Factory<Launch2> { self { Launch2(self.launchAccessor5(), self.launchAccessor6()) } }
    fileprivate var launchAccessor3: Factory<Launch3> { self { Launch3(self.launchAccessor7(), self.launchAccessor8()) } }
    fileprivate var launchAccessor4: Factory<Launch4> { self { Launch4(self.launchAccessor9(), self.launchAccessor10()) } }
    fileprivate var launchAccessor5: Factory<Launch5> { self { Launch5(self.launchAccessor11(), self.launchAccessor12()) } }
    fileprivate var launchAccessor6: Factory<Launch6> { self { Launch6(self.launchAccessor13(), self.launchAccessor14()) } }
    fileprivate var launchAccessor7: Factory<Launch7> { self { Launch7(self.launchAccessor15(), self.launchAccessor16()) } }
    fileprivate var launchAccessor8: Factory<Launch8> { self { Launch8(self.launchAccessor17(), self.launchAccessor18()) } }
    fileprivate var launchAccessor9: Factory<Launch9> { self { Launch9(self.launchAccessor19()) } }
    fileprivate var launchAccessor10: Factory<Launch10> { self { Launch10() } }
    fileprivate var launchAccessor11: Factory<Launch11> { self { Launch11() } }
    fileprivate var launchAccessor12: Factory<Launch12> { self { Launch12() } }
    fileprivate var launchAccessor13: Factory<Launch13> { self { Launch13() } }
    fileprivate var launchAccessor14: Factory<Launch14> { self { Launch14() } }
    fileprivate var launchAccessor15: Factory<Launch15> { self { Launch15() } }
    fileprivate var launchAccessor16: Factory<Launch16> { self { Launch16() } }
    fileprivate var launchAccessor17: Factory<Launch17> { self { Launch17() } }
    fileprivate var launchAccessor18: Factory<Launch18> { self { Launch18() } }
    fileprivate var launchAccessor19: Factory<Launch19> { self { Launch19() } }
}

extension Scenario {
    /// The launch row in a warm process: each operation makes a new container, registers the 50 classes and resolves
    /// the 20-node graph once, with every type already seen by the runtime (what a second container, a test's fresh
    /// container or a reopened scene pays).
    static var launchWarm: Scenario {
        Scenario(id: "launch-warm", title: "new container, 50 registered, a 20-node graph once") { contender in
            Runner { count in
                for _ in 0..<count { blackHole(launch(contender)) }
            }
        }
    }

    /// `launch-warm` in the accessor form: each operation makes a new container and resolves the 20-node graph through
    /// its typed accessors, used there for the first time (Factory's row: 112,980 instructions, measured 2026-11-28).
    static var launchWarmAccessors: Scenario {
        Scenario(
            id: "launch-warm-accessors", title: "new container, a 20-node graph of typed accessors once",
            contenders: [.plexus]
        ) { contender in
            guard contender == .plexus else { return nil }
            return Runner { count in
                for _ in 0..<count { blackHole(DependencyContainer().launchAccessor0()) }
            }
        }
    }
}
