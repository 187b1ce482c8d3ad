// Written by Scripts/registered-types.sh: edit that script, not this file.
// swift-format-ignore-file
import Plexus
import Swinject

/// How many distinct types `RegisteredTypes.swift` declares and registers.
public let registeredTypeCount = 300

final class Registered0 {}
final class Registered1 {}
final class Registered2 {}
final class Registered3 {}
final class Registered4 {}
final class Registered5 {}
final class Registered6 {}
final class Registered7 {}
final class Registered8 {}
final class Registered9 {}
final class Registered10 {}
final class Registered11 {}
final class Registered12 {}
final class Registered13 {}
final class Registered14 {}
final class Registered15 {}
final class Registered16 {}
final class Registered17 {}
final class Registered18 {}
final class Registered19 {}
final class Registered20 {}
final class Registered21 {}
final class Registered22 {}
final class Registered23 {}
final class Registered24 {}
final class Registered25 {}
final class Registered26 {}
final class Registered27 {}
final class Registered28 {}
final class Registered29 {}
final class Registered30 {}
final class Registered31 {}
final class Registered32 {}
final class Registered33 {}
final class Registered34 {}
final class Registered35 {}
final class Registered36 {}
final class Registered37 {}
final class Registered38 {}
final class Registered39 {}
final class Registered40 {}
final class Registered41 {}
final class Registered42 {}
final class Registered43 {}
final class Registered44 {}
final class Registered45 {}
final class Registered46 {}
final class Registered47 {}
final class Registered48 {}
final class Registered49 {}
final class Registered50 {}
final class Registered51 {}
final class Registered52 {}
final class Registered53 {}
final class Registered54 {}
final class Registered55 {}
final class Registered56 {}
final class Registered57 {}
final class Registered58 {}
final class Registered59 {}
final class Registered60 {}
final class Registered61 {}
final class Registered62 {}
final class Registered63 {}
final class Registered64 {}
final class Registered65 {}
final class Registered66 {}
final class Registered67 {}
final class Registered68 {}
final class Registered69 {}
final class Registered70 {}
final class Registered71 {}
final class Registered72 {}
final class Registered73 {}
final class Registered74 {}
final class Registered75 {}
final class Registered76 {}
final class Registered77 {}
final class Registered78 {}
final class Registered79 {}
final class Registered80 {}
final class Registered81 {}
final class Registered82 {}
final class Registered83 {}
final class Registered84 {}
final class Registered85 {}
final class Registered86 {}
final class Registered87 {}
final class Registered88 {}
final class Registered89 {}
final class Registered90 {}
final class Registered91 {}
final class Registered92 {}
final class Registered93 {}
final class Registered94 {}
final class Registered95 {}
final class Registered96 {}
final class Registered97 {}
final class Registered98 {}
final class Registered99 {}
final class Registered100 {}
final class Registered101 {}
final class Registered102 {}
final class Registered103 {}
final class Registered104 {}
final class Registered105 {}
final class Registered106 {}
final class Registered107 {}
final class Registered108 {}
final class Registered109 {}
final class Registered110 {}
final class Registered111 {}
final class Registered112 {}
final class Registered113 {}
final class Registered114 {}
final class Registered115 {}
final class Registered116 {}
final class Registered117 {}
final class Registered118 {}
final class Registered119 {}
final class Registered120 {}
final class Registered121 {}
final class Registered122 {}
final class Registered123 {}
final class Registered124 {}
final class Registered125 {}
final class Registered126 {}
final class Registered127 {}
final class Registered128 {}
final class Registered129 {}
final class Registered130 {}
final class Registered131 {}
final class Registered132 {}
final class Registered133 {}
final class Registered134 {}
final class Registered135 {}
final class Registered136 {}
final class Registered137 {}
final class Registered138 {}
final class Registered139 {}
final class Registered140 {}
final class Registered141 {}
final class Registered142 {}
final class Registered143 {}
final class Registered144 {}
final class Registered145 {}
final class Registered146 {}
final class Registered147 {}
final class Registered148 {}
final class Registered149 {}
final class Registered150 {}
final class Registered151 {}
final class Registered152 {}
final class Registered153 {}
final class Registered154 {}
final class Registered155 {}
final class Registered156 {}
final class Registered157 {}
final class Registered158 {}
final class Registered159 {}
final class Registered160 {}
final class Registered161 {}
final class Registered162 {}
final class Registered163 {}
final class Registered164 {}
final class Registered165 {}
final class Registered166 {}
final class Registered167 {}
final class Registered168 {}
final class Registered169 {}
final class Registered170 {}
final class Registered171 {}
final class Registered172 {}
final class Registered173 {}
final class Registered174 {}
final class Registered175 {}
final class Registered176 {}
final class Registered177 {}
final class Registered178 {}
final class Registered179 {}
final class Registered180 {}
final class Registered181 {}
final class Registered182 {}
final class Registered183 {}
final class Registered184 {}
final class Registered185 {}
final class Registered186 {}
final class Registered187 {}
final class Registered188 {}
final class Registered189 {}
final class Registered190 {}
final class Registered191 {}
final class Registered192 {}
final class Registered193 {}
final class Registered194 {}
final class Registered195 {}
final class Registered196 {}
final class Registered197 {}
final class Registered198 {}
final class Registered199 {}
final class Registered200 {}
final class Registered201 {}
final class Registered202 {}
final class Registered203 {}
final class Registered204 {}
final class Registered205 {}
final class Registered206 {}
final class Registered207 {}
final class Registered208 {}
final class Registered209 {}
final class Registered210 {}
final class Registered211 {}
final class Registered212 {}
final class Registered213 {}
final class Registered214 {}
final class Registered215 {}
final class Registered216 {}
final class Registered217 {}
final class Registered218 {}
final class Registered219 {}
final class Registered220 {}
final class Registered221 {}
final class Registered222 {}
final class Registered223 {}
final class Registered224 {}
final class Registered225 {}
final class Registered226 {}
final class Registered227 {}
final class Registered228 {}
final class Registered229 {}
final class Registered230 {}
final class Registered231 {}
final class Registered232 {}
final class Registered233 {}
final class Registered234 {}
final class Registered235 {}
final class Registered236 {}
final class Registered237 {}
final class Registered238 {}
final class Registered239 {}
final class Registered240 {}
final class Registered241 {}
final class Registered242 {}
final class Registered243 {}
final class Registered244 {}
final class Registered245 {}
final class Registered246 {}
final class Registered247 {}
final class Registered248 {}
final class Registered249 {}
final class Registered250 {}
final class Registered251 {}
final class Registered252 {}
final class Registered253 {}
final class Registered254 {}
final class Registered255 {}
final class Registered256 {}
final class Registered257 {}
final class Registered258 {}
final class Registered259 {}
final class Registered260 {}
final class Registered261 {}
final class Registered262 {}
final class Registered263 {}
final class Registered264 {}
final class Registered265 {}
final class Registered266 {}
final class Registered267 {}
final class Registered268 {}
final class Registered269 {}
final class Registered270 {}
final class Registered271 {}
final class Registered272 {}
final class Registered273 {}
final class Registered274 {}
final class Registered275 {}
final class Registered276 {}
final class Registered277 {}
final class Registered278 {}
final class Registered279 {}
final class Registered280 {}
final class Registered281 {}
final class Registered282 {}
final class Registered283 {}
final class Registered284 {}
final class Registered285 {}
final class Registered286 {}
final class Registered287 {}
final class Registered288 {}
final class Registered289 {}
final class Registered290 {}
final class Registered291 {}
final class Registered292 {}
final class Registered293 {}
final class Registered294 {}
final class Registered295 {}
final class Registered296 {}
final class Registered297 {}
final class Registered298 {}
final class Registered299 {}

/// One Plexus registration per type, in order: `register { RegisteredN() }`.
let plexusTypeRegistrations: [@Sendable (DependencyContainer) -> Void] = [
    { $0.register { Registered0() } },
    { $0.register { Registered1() } },
    { $0.register { Registered2() } },
    { $0.register { Registered3() } },
    { $0.register { Registered4() } },
    { $0.register { Registered5() } },
    { $0.register { Registered6() } },
    { $0.register { Registered7() } },
    { $0.register { Registered8() } },
    { $0.register { Registered9() } },
    { $0.register { Registered10() } },
    { $0.register { Registered11() } },
    { $0.register { Registered12() } },
    { $0.register { Registered13() } },
    { $0.register { Registered14() } },
    { $0.register { Registered15() } },
    { $0.register { Registered16() } },
    { $0.register { Registered17() } },
    { $0.register { Registered18() } },
    { $0.register { Registered19() } },
    { $0.register { Registered20() } },
    { $0.register { Registered21() } },
    { $0.register { Registered22() } },
    { $0.register { Registered23() } },
    { $0.register { Registered24() } },
    { $0.register { Registered25() } },
    { $0.register { Registered26() } },
    { $0.register { Registered27() } },
    { $0.register { Registered28() } },
    { $0.register { Registered29() } },
    { $0.register { Registered30() } },
    { $0.register { Registered31() } },
    { $0.register { Registered32() } },
    { $0.register { Registered33() } },
    { $0.register { Registered34() } },
    { $0.register { Registered35() } },
    { $0.register { Registered36() } },
    { $0.register { Registered37() } },
    { $0.register { Registered38() } },
    { $0.register { Registered39() } },
    { $0.register { Registered40() } },
    { $0.register { Registered41() } },
    { $0.register { Registered42() } },
    { $0.register { Registered43() } },
    { $0.register { Registered44() } },
    { $0.register { Registered45() } },
    { $0.register { Registered46() } },
    { $0.register { Registered47() } },
    { $0.register { Registered48() } },
    { $0.register { Registered49() } },
    { $0.register { Registered50() } },
    { $0.register { Registered51() } },
    { $0.register { Registered52() } },
    { $0.register { Registered53() } },
    { $0.register { Registered54() } },
    { $0.register { Registered55() } },
    { $0.register { Registered56() } },
    { $0.register { Registered57() } },
    { $0.register { Registered58() } },
    { $0.register { Registered59() } },
    { $0.register { Registered60() } },
    { $0.register { Registered61() } },
    { $0.register { Registered62() } },
    { $0.register { Registered63() } },
    { $0.register { Registered64() } },
    { $0.register { Registered65() } },
    { $0.register { Registered66() } },
    { $0.register { Registered67() } },
    { $0.register { Registered68() } },
    { $0.register { Registered69() } },
    { $0.register { Registered70() } },
    { $0.register { Registered71() } },
    { $0.register { Registered72() } },
    { $0.register { Registered73() } },
    { $0.register { Registered74() } },
    { $0.register { Registered75() } },
    { $0.register { Registered76() } },
    { $0.register { Registered77() } },
    { $0.register { Registered78() } },
    { $0.register { Registered79() } },
    { $0.register { Registered80() } },
    { $0.register { Registered81() } },
    { $0.register { Registered82() } },
    { $0.register { Registered83() } },
    { $0.register { Registered84() } },
    { $0.register { Registered85() } },
    { $0.register { Registered86() } },
    { $0.register { Registered87() } },
    { $0.register { Registered88() } },
    { $0.register { Registered89() } },
    { $0.register { Registered90() } },
    { $0.register { Registered91() } },
    { $0.register { Registered92() } },
    { $0.register { Registered93() } },
    { $0.register { Registered94() } },
    { $0.register { Registered95() } },
    { $0.register { Registered96() } },
    { $0.register { Registered97() } },
    { $0.register { Registered98() } },
    { $0.register { Registered99() } },
    { $0.register { Registered100() } },
    { $0.register { Registered101() } },
    { $0.register { Registered102() } },
    { $0.register { Registered103() } },
    { $0.register { Registered104() } },
    { $0.register { Registered105() } },
    { $0.register { Registered106() } },
    { $0.register { Registered107() } },
    { $0.register { Registered108() } },
    { $0.register { Registered109() } },
    { $0.register { Registered110() } },
    { $0.register { Registered111() } },
    { $0.register { Registered112() } },
    { $0.register { Registered113() } },
    { $0.register { Registered114() } },
    { $0.register { Registered115() } },
    { $0.register { Registered116() } },
    { $0.register { Registered117() } },
    { $0.register { Registered118() } },
    { $0.register { Registered119() } },
    { $0.register { Registered120() } },
    { $0.register { Registered121() } },
    { $0.register { Registered122() } },
    { $0.register { Registered123() } },
    { $0.register { Registered124() } },
    { $0.register { Registered125() } },
    { $0.register { Registered126() } },
    { $0.register { Registered127() } },
    { $0.register { Registered128() } },
    { $0.register { Registered129() } },
    { $0.register { Registered130() } },
    { $0.register { Registered131() } },
    { $0.register { Registered132() } },
    { $0.register { Registered133() } },
    { $0.register { Registered134() } },
    { $0.register { Registered135() } },
    { $0.register { Registered136() } },
    { $0.register { Registered137() } },
    { $0.register { Registered138() } },
    { $0.register { Registered139() } },
    { $0.register { Registered140() } },
    { $0.register { Registered141() } },
    { $0.register { Registered142() } },
    { $0.register { Registered143() } },
    { $0.register { Registered144() } },
    { $0.register { Registered145() } },
    { $0.register { Registered146() } },
    { $0.register { Registered147() } },
    { $0.register { Registered148() } },
    { $0.register { Registered149() } },
    { $0.register { Registered150() } },
    { $0.register { Registered151() } },
    { $0.register { Registered152() } },
    { $0.register { Registered153() } },
    { $0.register { Registered154() } },
    { $0.register { Registered155() } },
    { $0.register { Registered156() } },
    { $0.register { Registered157() } },
    { $0.register { Registered158() } },
    { $0.register { Registered159() } },
    { $0.register { Registered160() } },
    { $0.register { Registered161() } },
    { $0.register { Registered162() } },
    { $0.register { Registered163() } },
    { $0.register { Registered164() } },
    { $0.register { Registered165() } },
    { $0.register { Registered166() } },
    { $0.register { Registered167() } },
    { $0.register { Registered168() } },
    { $0.register { Registered169() } },
    { $0.register { Registered170() } },
    { $0.register { Registered171() } },
    { $0.register { Registered172() } },
    { $0.register { Registered173() } },
    { $0.register { Registered174() } },
    { $0.register { Registered175() } },
    { $0.register { Registered176() } },
    { $0.register { Registered177() } },
    { $0.register { Registered178() } },
    { $0.register { Registered179() } },
    { $0.register { Registered180() } },
    { $0.register { Registered181() } },
    { $0.register { Registered182() } },
    { $0.register { Registered183() } },
    { $0.register { Registered184() } },
    { $0.register { Registered185() } },
    { $0.register { Registered186() } },
    { $0.register { Registered187() } },
    { $0.register { Registered188() } },
    { $0.register { Registered189() } },
    { $0.register { Registered190() } },
    { $0.register { Registered191() } },
    { $0.register { Registered192() } },
    { $0.register { Registered193() } },
    { $0.register { Registered194() } },
    { $0.register { Registered195() } },
    { $0.register { Registered196() } },
    { $0.register { Registered197() } },
    { $0.register { Registered198() } },
    { $0.register { Registered199() } },
    { $0.register { Registered200() } },
    { $0.register { Registered201() } },
    { $0.register { Registered202() } },
    { $0.register { Registered203() } },
    { $0.register { Registered204() } },
    { $0.register { Registered205() } },
    { $0.register { Registered206() } },
    { $0.register { Registered207() } },
    { $0.register { Registered208() } },
    { $0.register { Registered209() } },
    { $0.register { Registered210() } },
    { $0.register { Registered211() } },
    { $0.register { Registered212() } },
    { $0.register { Registered213() } },
    { $0.register { Registered214() } },
    { $0.register { Registered215() } },
    { $0.register { Registered216() } },
    { $0.register { Registered217() } },
    { $0.register { Registered218() } },
    { $0.register { Registered219() } },
    { $0.register { Registered220() } },
    { $0.register { Registered221() } },
    { $0.register { Registered222() } },
    { $0.register { Registered223() } },
    { $0.register { Registered224() } },
    { $0.register { Registered225() } },
    { $0.register { Registered226() } },
    { $0.register { Registered227() } },
    { $0.register { Registered228() } },
    { $0.register { Registered229() } },
    { $0.register { Registered230() } },
    { $0.register { Registered231() } },
    { $0.register { Registered232() } },
    { $0.register { Registered233() } },
    { $0.register { Registered234() } },
    { $0.register { Registered235() } },
    { $0.register { Registered236() } },
    { $0.register { Registered237() } },
    { $0.register { Registered238() } },
    { $0.register { Registered239() } },
    { $0.register { Registered240() } },
    { $0.register { Registered241() } },
    { $0.register { Registered242() } },
    { $0.register { Registered243() } },
    { $0.register { Registered244() } },
    { $0.register { Registered245() } },
    { $0.register { Registered246() } },
    { $0.register { Registered247() } },
    { $0.register { Registered248() } },
    { $0.register { Registered249() } },
    { $0.register { Registered250() } },
    { $0.register { Registered251() } },
    { $0.register { Registered252() } },
    { $0.register { Registered253() } },
    { $0.register { Registered254() } },
    { $0.register { Registered255() } },
    { $0.register { Registered256() } },
    { $0.register { Registered257() } },
    { $0.register { Registered258() } },
    { $0.register { Registered259() } },
    { $0.register { Registered260() } },
    { $0.register { Registered261() } },
    { $0.register { Registered262() } },
    { $0.register { Registered263() } },
    { $0.register { Registered264() } },
    { $0.register { Registered265() } },
    { $0.register { Registered266() } },
    { $0.register { Registered267() } },
    { $0.register { Registered268() } },
    { $0.register { Registered269() } },
    { $0.register { Registered270() } },
    { $0.register { Registered271() } },
    { $0.register { Registered272() } },
    { $0.register { Registered273() } },
    { $0.register { Registered274() } },
    { $0.register { Registered275() } },
    { $0.register { Registered276() } },
    { $0.register { Registered277() } },
    { $0.register { Registered278() } },
    { $0.register { Registered279() } },
    { $0.register { Registered280() } },
    { $0.register { Registered281() } },
    { $0.register { Registered282() } },
    { $0.register { Registered283() } },
    { $0.register { Registered284() } },
    { $0.register { Registered285() } },
    { $0.register { Registered286() } },
    { $0.register { Registered287() } },
    { $0.register { Registered288() } },
    { $0.register { Registered289() } },
    { $0.register { Registered290() } },
    { $0.register { Registered291() } },
    { $0.register { Registered292() } },
    { $0.register { Registered293() } },
    { $0.register { Registered294() } },
    { $0.register { Registered295() } },
    { $0.register { Registered296() } },
    { $0.register { Registered297() } },
    { $0.register { Registered298() } },
    { $0.register { Registered299() } },
]

/// One Swinject registration per type, in order.
let swinjectTypeRegistrations: [@Sendable (Swinject.Container) -> Void] = [
    { $0.register(Registered0.self) { _ in Registered0() } },
    { $0.register(Registered1.self) { _ in Registered1() } },
    { $0.register(Registered2.self) { _ in Registered2() } },
    { $0.register(Registered3.self) { _ in Registered3() } },
    { $0.register(Registered4.self) { _ in Registered4() } },
    { $0.register(Registered5.self) { _ in Registered5() } },
    { $0.register(Registered6.self) { _ in Registered6() } },
    { $0.register(Registered7.self) { _ in Registered7() } },
    { $0.register(Registered8.self) { _ in Registered8() } },
    { $0.register(Registered9.self) { _ in Registered9() } },
    { $0.register(Registered10.self) { _ in Registered10() } },
    { $0.register(Registered11.self) { _ in Registered11() } },
    { $0.register(Registered12.self) { _ in Registered12() } },
    { $0.register(Registered13.self) { _ in Registered13() } },
    { $0.register(Registered14.self) { _ in Registered14() } },
    { $0.register(Registered15.self) { _ in Registered15() } },
    { $0.register(Registered16.self) { _ in Registered16() } },
    { $0.register(Registered17.self) { _ in Registered17() } },
    { $0.register(Registered18.self) { _ in Registered18() } },
    { $0.register(Registered19.self) { _ in Registered19() } },
    { $0.register(Registered20.self) { _ in Registered20() } },
    { $0.register(Registered21.self) { _ in Registered21() } },
    { $0.register(Registered22.self) { _ in Registered22() } },
    { $0.register(Registered23.self) { _ in Registered23() } },
    { $0.register(Registered24.self) { _ in Registered24() } },
    { $0.register(Registered25.self) { _ in Registered25() } },
    { $0.register(Registered26.self) { _ in Registered26() } },
    { $0.register(Registered27.self) { _ in Registered27() } },
    { $0.register(Registered28.self) { _ in Registered28() } },
    { $0.register(Registered29.self) { _ in Registered29() } },
    { $0.register(Registered30.self) { _ in Registered30() } },
    { $0.register(Registered31.self) { _ in Registered31() } },
    { $0.register(Registered32.self) { _ in Registered32() } },
    { $0.register(Registered33.self) { _ in Registered33() } },
    { $0.register(Registered34.self) { _ in Registered34() } },
    { $0.register(Registered35.self) { _ in Registered35() } },
    { $0.register(Registered36.self) { _ in Registered36() } },
    { $0.register(Registered37.self) { _ in Registered37() } },
    { $0.register(Registered38.self) { _ in Registered38() } },
    { $0.register(Registered39.self) { _ in Registered39() } },
    { $0.register(Registered40.self) { _ in Registered40() } },
    { $0.register(Registered41.self) { _ in Registered41() } },
    { $0.register(Registered42.self) { _ in Registered42() } },
    { $0.register(Registered43.self) { _ in Registered43() } },
    { $0.register(Registered44.self) { _ in Registered44() } },
    { $0.register(Registered45.self) { _ in Registered45() } },
    { $0.register(Registered46.self) { _ in Registered46() } },
    { $0.register(Registered47.self) { _ in Registered47() } },
    { $0.register(Registered48.self) { _ in Registered48() } },
    { $0.register(Registered49.self) { _ in Registered49() } },
    { $0.register(Registered50.self) { _ in Registered50() } },
    { $0.register(Registered51.self) { _ in Registered51() } },
    { $0.register(Registered52.self) { _ in Registered52() } },
    { $0.register(Registered53.self) { _ in Registered53() } },
    { $0.register(Registered54.self) { _ in Registered54() } },
    { $0.register(Registered55.self) { _ in Registered55() } },
    { $0.register(Registered56.self) { _ in Registered56() } },
    { $0.register(Registered57.self) { _ in Registered57() } },
    { $0.register(Registered58.self) { _ in Registered58() } },
    { $0.register(Registered59.self) { _ in Registered59() } },
    { $0.register(Registered60.self) { _ in Registered60() } },
    { $0.register(Registered61.self) { _ in Registered61() } },
    { $0.register(Registered62.self) { _ in Registered62() } },
    { $0.register(Registered63.self) { _ in Registered63() } },
    { $0.register(Registered64.self) { _ in Registered64() } },
    { $0.register(Registered65.self) { _ in Registered65() } },
    { $0.register(Registered66.self) { _ in Registered66() } },
    { $0.register(Registered67.self) { _ in Registered67() } },
    { $0.register(Registered68.self) { _ in Registered68() } },
    { $0.register(Registered69.self) { _ in Registered69() } },
    { $0.register(Registered70.self) { _ in Registered70() } },
    { $0.register(Registered71.self) { _ in Registered71() } },
    { $0.register(Registered72.self) { _ in Registered72() } },
    { $0.register(Registered73.self) { _ in Registered73() } },
    { $0.register(Registered74.self) { _ in Registered74() } },
    { $0.register(Registered75.self) { _ in Registered75() } },
    { $0.register(Registered76.self) { _ in Registered76() } },
    { $0.register(Registered77.self) { _ in Registered77() } },
    { $0.register(Registered78.self) { _ in Registered78() } },
    { $0.register(Registered79.self) { _ in Registered79() } },
    { $0.register(Registered80.self) { _ in Registered80() } },
    { $0.register(Registered81.self) { _ in Registered81() } },
    { $0.register(Registered82.self) { _ in Registered82() } },
    { $0.register(Registered83.self) { _ in Registered83() } },
    { $0.register(Registered84.self) { _ in Registered84() } },
    { $0.register(Registered85.self) { _ in Registered85() } },
    { $0.register(Registered86.self) { _ in Registered86() } },
    { $0.register(Registered87.self) { _ in Registered87() } },
    { $0.register(Registered88.self) { _ in Registered88() } },
    { $0.register(Registered89.self) { _ in Registered89() } },
    { $0.register(Registered90.self) { _ in Registered90() } },
    { $0.register(Registered91.self) { _ in Registered91() } },
    { $0.register(Registered92.self) { _ in Registered92() } },
    { $0.register(Registered93.self) { _ in Registered93() } },
    { $0.register(Registered94.self) { _ in Registered94() } },
    { $0.register(Registered95.self) { _ in Registered95() } },
    { $0.register(Registered96.self) { _ in Registered96() } },
    { $0.register(Registered97.self) { _ in Registered97() } },
    { $0.register(Registered98.self) { _ in Registered98() } },
    { $0.register(Registered99.self) { _ in Registered99() } },
    { $0.register(Registered100.self) { _ in Registered100() } },
    { $0.register(Registered101.self) { _ in Registered101() } },
    { $0.register(Registered102.self) { _ in Registered102() } },
    { $0.register(Registered103.self) { _ in Registered103() } },
    { $0.register(Registered104.self) { _ in Registered104() } },
    { $0.register(Registered105.self) { _ in Registered105() } },
    { $0.register(Registered106.self) { _ in Registered106() } },
    { $0.register(Registered107.self) { _ in Registered107() } },
    { $0.register(Registered108.self) { _ in Registered108() } },
    { $0.register(Registered109.self) { _ in Registered109() } },
    { $0.register(Registered110.self) { _ in Registered110() } },
    { $0.register(Registered111.self) { _ in Registered111() } },
    { $0.register(Registered112.self) { _ in Registered112() } },
    { $0.register(Registered113.self) { _ in Registered113() } },
    { $0.register(Registered114.self) { _ in Registered114() } },
    { $0.register(Registered115.self) { _ in Registered115() } },
    { $0.register(Registered116.self) { _ in Registered116() } },
    { $0.register(Registered117.self) { _ in Registered117() } },
    { $0.register(Registered118.self) { _ in Registered118() } },
    { $0.register(Registered119.self) { _ in Registered119() } },
    { $0.register(Registered120.self) { _ in Registered120() } },
    { $0.register(Registered121.self) { _ in Registered121() } },
    { $0.register(Registered122.self) { _ in Registered122() } },
    { $0.register(Registered123.self) { _ in Registered123() } },
    { $0.register(Registered124.self) { _ in Registered124() } },
    { $0.register(Registered125.self) { _ in Registered125() } },
    { $0.register(Registered126.self) { _ in Registered126() } },
    { $0.register(Registered127.self) { _ in Registered127() } },
    { $0.register(Registered128.self) { _ in Registered128() } },
    { $0.register(Registered129.self) { _ in Registered129() } },
    { $0.register(Registered130.self) { _ in Registered130() } },
    { $0.register(Registered131.self) { _ in Registered131() } },
    { $0.register(Registered132.self) { _ in Registered132() } },
    { $0.register(Registered133.self) { _ in Registered133() } },
    { $0.register(Registered134.self) { _ in Registered134() } },
    { $0.register(Registered135.self) { _ in Registered135() } },
    { $0.register(Registered136.self) { _ in Registered136() } },
    { $0.register(Registered137.self) { _ in Registered137() } },
    { $0.register(Registered138.self) { _ in Registered138() } },
    { $0.register(Registered139.self) { _ in Registered139() } },
    { $0.register(Registered140.self) { _ in Registered140() } },
    { $0.register(Registered141.self) { _ in Registered141() } },
    { $0.register(Registered142.self) { _ in Registered142() } },
    { $0.register(Registered143.self) { _ in Registered143() } },
    { $0.register(Registered144.self) { _ in Registered144() } },
    { $0.register(Registered145.self) { _ in Registered145() } },
    { $0.register(Registered146.self) { _ in Registered146() } },
    { $0.register(Registered147.self) { _ in Registered147() } },
    { $0.register(Registered148.self) { _ in Registered148() } },
    { $0.register(Registered149.self) { _ in Registered149() } },
    { $0.register(Registered150.self) { _ in Registered150() } },
    { $0.register(Registered151.self) { _ in Registered151() } },
    { $0.register(Registered152.self) { _ in Registered152() } },
    { $0.register(Registered153.self) { _ in Registered153() } },
    { $0.register(Registered154.self) { _ in Registered154() } },
    { $0.register(Registered155.self) { _ in Registered155() } },
    { $0.register(Registered156.self) { _ in Registered156() } },
    { $0.register(Registered157.self) { _ in Registered157() } },
    { $0.register(Registered158.self) { _ in Registered158() } },
    { $0.register(Registered159.self) { _ in Registered159() } },
    { $0.register(Registered160.self) { _ in Registered160() } },
    { $0.register(Registered161.self) { _ in Registered161() } },
    { $0.register(Registered162.self) { _ in Registered162() } },
    { $0.register(Registered163.self) { _ in Registered163() } },
    { $0.register(Registered164.self) { _ in Registered164() } },
    { $0.register(Registered165.self) { _ in Registered165() } },
    { $0.register(Registered166.self) { _ in Registered166() } },
    { $0.register(Registered167.self) { _ in Registered167() } },
    { $0.register(Registered168.self) { _ in Registered168() } },
    { $0.register(Registered169.self) { _ in Registered169() } },
    { $0.register(Registered170.self) { _ in Registered170() } },
    { $0.register(Registered171.self) { _ in Registered171() } },
    { $0.register(Registered172.self) { _ in Registered172() } },
    { $0.register(Registered173.self) { _ in Registered173() } },
    { $0.register(Registered174.self) { _ in Registered174() } },
    { $0.register(Registered175.self) { _ in Registered175() } },
    { $0.register(Registered176.self) { _ in Registered176() } },
    { $0.register(Registered177.self) { _ in Registered177() } },
    { $0.register(Registered178.self) { _ in Registered178() } },
    { $0.register(Registered179.self) { _ in Registered179() } },
    { $0.register(Registered180.self) { _ in Registered180() } },
    { $0.register(Registered181.self) { _ in Registered181() } },
    { $0.register(Registered182.self) { _ in Registered182() } },
    { $0.register(Registered183.self) { _ in Registered183() } },
    { $0.register(Registered184.self) { _ in Registered184() } },
    { $0.register(Registered185.self) { _ in Registered185() } },
    { $0.register(Registered186.self) { _ in Registered186() } },
    { $0.register(Registered187.self) { _ in Registered187() } },
    { $0.register(Registered188.self) { _ in Registered188() } },
    { $0.register(Registered189.self) { _ in Registered189() } },
    { $0.register(Registered190.self) { _ in Registered190() } },
    { $0.register(Registered191.self) { _ in Registered191() } },
    { $0.register(Registered192.self) { _ in Registered192() } },
    { $0.register(Registered193.self) { _ in Registered193() } },
    { $0.register(Registered194.self) { _ in Registered194() } },
    { $0.register(Registered195.self) { _ in Registered195() } },
    { $0.register(Registered196.self) { _ in Registered196() } },
    { $0.register(Registered197.self) { _ in Registered197() } },
    { $0.register(Registered198.self) { _ in Registered198() } },
    { $0.register(Registered199.self) { _ in Registered199() } },
    { $0.register(Registered200.self) { _ in Registered200() } },
    { $0.register(Registered201.self) { _ in Registered201() } },
    { $0.register(Registered202.self) { _ in Registered202() } },
    { $0.register(Registered203.self) { _ in Registered203() } },
    { $0.register(Registered204.self) { _ in Registered204() } },
    { $0.register(Registered205.self) { _ in Registered205() } },
    { $0.register(Registered206.self) { _ in Registered206() } },
    { $0.register(Registered207.self) { _ in Registered207() } },
    { $0.register(Registered208.self) { _ in Registered208() } },
    { $0.register(Registered209.self) { _ in Registered209() } },
    { $0.register(Registered210.self) { _ in Registered210() } },
    { $0.register(Registered211.self) { _ in Registered211() } },
    { $0.register(Registered212.self) { _ in Registered212() } },
    { $0.register(Registered213.self) { _ in Registered213() } },
    { $0.register(Registered214.self) { _ in Registered214() } },
    { $0.register(Registered215.self) { _ in Registered215() } },
    { $0.register(Registered216.self) { _ in Registered216() } },
    { $0.register(Registered217.self) { _ in Registered217() } },
    { $0.register(Registered218.self) { _ in Registered218() } },
    { $0.register(Registered219.self) { _ in Registered219() } },
    { $0.register(Registered220.self) { _ in Registered220() } },
    { $0.register(Registered221.self) { _ in Registered221() } },
    { $0.register(Registered222.self) { _ in Registered222() } },
    { $0.register(Registered223.self) { _ in Registered223() } },
    { $0.register(Registered224.self) { _ in Registered224() } },
    { $0.register(Registered225.self) { _ in Registered225() } },
    { $0.register(Registered226.self) { _ in Registered226() } },
    { $0.register(Registered227.self) { _ in Registered227() } },
    { $0.register(Registered228.self) { _ in Registered228() } },
    { $0.register(Registered229.self) { _ in Registered229() } },
    { $0.register(Registered230.self) { _ in Registered230() } },
    { $0.register(Registered231.self) { _ in Registered231() } },
    { $0.register(Registered232.self) { _ in Registered232() } },
    { $0.register(Registered233.self) { _ in Registered233() } },
    { $0.register(Registered234.self) { _ in Registered234() } },
    { $0.register(Registered235.self) { _ in Registered235() } },
    { $0.register(Registered236.self) { _ in Registered236() } },
    { $0.register(Registered237.self) { _ in Registered237() } },
    { $0.register(Registered238.self) { _ in Registered238() } },
    { $0.register(Registered239.self) { _ in Registered239() } },
    { $0.register(Registered240.self) { _ in Registered240() } },
    { $0.register(Registered241.self) { _ in Registered241() } },
    { $0.register(Registered242.self) { _ in Registered242() } },
    { $0.register(Registered243.self) { _ in Registered243() } },
    { $0.register(Registered244.self) { _ in Registered244() } },
    { $0.register(Registered245.self) { _ in Registered245() } },
    { $0.register(Registered246.self) { _ in Registered246() } },
    { $0.register(Registered247.self) { _ in Registered247() } },
    { $0.register(Registered248.self) { _ in Registered248() } },
    { $0.register(Registered249.self) { _ in Registered249() } },
    { $0.register(Registered250.self) { _ in Registered250() } },
    { $0.register(Registered251.self) { _ in Registered251() } },
    { $0.register(Registered252.self) { _ in Registered252() } },
    { $0.register(Registered253.self) { _ in Registered253() } },
    { $0.register(Registered254.self) { _ in Registered254() } },
    { $0.register(Registered255.self) { _ in Registered255() } },
    { $0.register(Registered256.self) { _ in Registered256() } },
    { $0.register(Registered257.self) { _ in Registered257() } },
    { $0.register(Registered258.self) { _ in Registered258() } },
    { $0.register(Registered259.self) { _ in Registered259() } },
    { $0.register(Registered260.self) { _ in Registered260() } },
    { $0.register(Registered261.self) { _ in Registered261() } },
    { $0.register(Registered262.self) { _ in Registered262() } },
    { $0.register(Registered263.self) { _ in Registered263() } },
    { $0.register(Registered264.self) { _ in Registered264() } },
    { $0.register(Registered265.self) { _ in Registered265() } },
    { $0.register(Registered266.self) { _ in Registered266() } },
    { $0.register(Registered267.self) { _ in Registered267() } },
    { $0.register(Registered268.self) { _ in Registered268() } },
    { $0.register(Registered269.self) { _ in Registered269() } },
    { $0.register(Registered270.self) { _ in Registered270() } },
    { $0.register(Registered271.self) { _ in Registered271() } },
    { $0.register(Registered272.self) { _ in Registered272() } },
    { $0.register(Registered273.self) { _ in Registered273() } },
    { $0.register(Registered274.self) { _ in Registered274() } },
    { $0.register(Registered275.self) { _ in Registered275() } },
    { $0.register(Registered276.self) { _ in Registered276() } },
    { $0.register(Registered277.self) { _ in Registered277() } },
    { $0.register(Registered278.self) { _ in Registered278() } },
    { $0.register(Registered279.self) { _ in Registered279() } },
    { $0.register(Registered280.self) { _ in Registered280() } },
    { $0.register(Registered281.self) { _ in Registered281() } },
    { $0.register(Registered282.self) { _ in Registered282() } },
    { $0.register(Registered283.self) { _ in Registered283() } },
    { $0.register(Registered284.self) { _ in Registered284() } },
    { $0.register(Registered285.self) { _ in Registered285() } },
    { $0.register(Registered286.self) { _ in Registered286() } },
    { $0.register(Registered287.self) { _ in Registered287() } },
    { $0.register(Registered288.self) { _ in Registered288() } },
    { $0.register(Registered289.self) { _ in Registered289() } },
    { $0.register(Registered290.self) { _ in Registered290() } },
    { $0.register(Registered291.self) { _ in Registered291() } },
    { $0.register(Registered292.self) { _ in Registered292() } },
    { $0.register(Registered293.self) { _ in Registered293() } },
    { $0.register(Registered294.self) { _ in Registered294() } },
    { $0.register(Registered295.self) { _ in Registered295() } },
    { $0.register(Registered296.self) { _ in Registered296() } },
    { $0.register(Registered297.self) { _ in Registered297() } },
    { $0.register(Registered298.self) { _ in Registered298() } },
    { $0.register(Registered299.self) { _ in Registered299() } },
]

/// One insert per type into a dictionary of closures by type, in order: the floor.
let handTypeRegistrations: [@Sendable (inout [ObjectIdentifier: () -> AnyObject]) -> Void] = [
    { $0[ObjectIdentifier(Registered0.self)] = { Registered0() } },
    { $0[ObjectIdentifier(Registered1.self)] = { Registered1() } },
    { $0[ObjectIdentifier(Registered2.self)] = { Registered2() } },
    { $0[ObjectIdentifier(Registered3.self)] = { Registered3() } },
    { $0[ObjectIdentifier(Registered4.self)] = { Registered4() } },
    { $0[ObjectIdentifier(Registered5.self)] = { Registered5() } },
    { $0[ObjectIdentifier(Registered6.self)] = { Registered6() } },
    { $0[ObjectIdentifier(Registered7.self)] = { Registered7() } },
    { $0[ObjectIdentifier(Registered8.self)] = { Registered8() } },
    { $0[ObjectIdentifier(Registered9.self)] = { Registered9() } },
    { $0[ObjectIdentifier(Registered10.self)] = { Registered10() } },
    { $0[ObjectIdentifier(Registered11.self)] = { Registered11() } },
    { $0[ObjectIdentifier(Registered12.self)] = { Registered12() } },
    { $0[ObjectIdentifier(Registered13.self)] = { Registered13() } },
    { $0[ObjectIdentifier(Registered14.self)] = { Registered14() } },
    { $0[ObjectIdentifier(Registered15.self)] = { Registered15() } },
    { $0[ObjectIdentifier(Registered16.self)] = { Registered16() } },
    { $0[ObjectIdentifier(Registered17.self)] = { Registered17() } },
    { $0[ObjectIdentifier(Registered18.self)] = { Registered18() } },
    { $0[ObjectIdentifier(Registered19.self)] = { Registered19() } },
    { $0[ObjectIdentifier(Registered20.self)] = { Registered20() } },
    { $0[ObjectIdentifier(Registered21.self)] = { Registered21() } },
    { $0[ObjectIdentifier(Registered22.self)] = { Registered22() } },
    { $0[ObjectIdentifier(Registered23.self)] = { Registered23() } },
    { $0[ObjectIdentifier(Registered24.self)] = { Registered24() } },
    { $0[ObjectIdentifier(Registered25.self)] = { Registered25() } },
    { $0[ObjectIdentifier(Registered26.self)] = { Registered26() } },
    { $0[ObjectIdentifier(Registered27.self)] = { Registered27() } },
    { $0[ObjectIdentifier(Registered28.self)] = { Registered28() } },
    { $0[ObjectIdentifier(Registered29.self)] = { Registered29() } },
    { $0[ObjectIdentifier(Registered30.self)] = { Registered30() } },
    { $0[ObjectIdentifier(Registered31.self)] = { Registered31() } },
    { $0[ObjectIdentifier(Registered32.self)] = { Registered32() } },
    { $0[ObjectIdentifier(Registered33.self)] = { Registered33() } },
    { $0[ObjectIdentifier(Registered34.self)] = { Registered34() } },
    { $0[ObjectIdentifier(Registered35.self)] = { Registered35() } },
    { $0[ObjectIdentifier(Registered36.self)] = { Registered36() } },
    { $0[ObjectIdentifier(Registered37.self)] = { Registered37() } },
    { $0[ObjectIdentifier(Registered38.self)] = { Registered38() } },
    { $0[ObjectIdentifier(Registered39.self)] = { Registered39() } },
    { $0[ObjectIdentifier(Registered40.self)] = { Registered40() } },
    { $0[ObjectIdentifier(Registered41.self)] = { Registered41() } },
    { $0[ObjectIdentifier(Registered42.self)] = { Registered42() } },
    { $0[ObjectIdentifier(Registered43.self)] = { Registered43() } },
    { $0[ObjectIdentifier(Registered44.self)] = { Registered44() } },
    { $0[ObjectIdentifier(Registered45.self)] = { Registered45() } },
    { $0[ObjectIdentifier(Registered46.self)] = { Registered46() } },
    { $0[ObjectIdentifier(Registered47.self)] = { Registered47() } },
    { $0[ObjectIdentifier(Registered48.self)] = { Registered48() } },
    { $0[ObjectIdentifier(Registered49.self)] = { Registered49() } },
    { $0[ObjectIdentifier(Registered50.self)] = { Registered50() } },
    { $0[ObjectIdentifier(Registered51.self)] = { Registered51() } },
    { $0[ObjectIdentifier(Registered52.self)] = { Registered52() } },
    { $0[ObjectIdentifier(Registered53.self)] = { Registered53() } },
    { $0[ObjectIdentifier(Registered54.self)] = { Registered54() } },
    { $0[ObjectIdentifier(Registered55.self)] = { Registered55() } },
    { $0[ObjectIdentifier(Registered56.self)] = { Registered56() } },
    { $0[ObjectIdentifier(Registered57.self)] = { Registered57() } },
    { $0[ObjectIdentifier(Registered58.self)] = { Registered58() } },
    { $0[ObjectIdentifier(Registered59.self)] = { Registered59() } },
    { $0[ObjectIdentifier(Registered60.self)] = { Registered60() } },
    { $0[ObjectIdentifier(Registered61.self)] = { Registered61() } },
    { $0[ObjectIdentifier(Registered62.self)] = { Registered62() } },
    { $0[ObjectIdentifier(Registered63.self)] = { Registered63() } },
    { $0[ObjectIdentifier(Registered64.self)] = { Registered64() } },
    { $0[ObjectIdentifier(Registered65.self)] = { Registered65() } },
    { $0[ObjectIdentifier(Registered66.self)] = { Registered66() } },
    { $0[ObjectIdentifier(Registered67.self)] = { Registered67() } },
    { $0[ObjectIdentifier(Registered68.self)] = { Registered68() } },
    { $0[ObjectIdentifier(Registered69.self)] = { Registered69() } },
    { $0[ObjectIdentifier(Registered70.self)] = { Registered70() } },
    { $0[ObjectIdentifier(Registered71.self)] = { Registered71() } },
    { $0[ObjectIdentifier(Registered72.self)] = { Registered72() } },
    { $0[ObjectIdentifier(Registered73.self)] = { Registered73() } },
    { $0[ObjectIdentifier(Registered74.self)] = { Registered74() } },
    { $0[ObjectIdentifier(Registered75.self)] = { Registered75() } },
    { $0[ObjectIdentifier(Registered76.self)] = { Registered76() } },
    { $0[ObjectIdentifier(Registered77.self)] = { Registered77() } },
    { $0[ObjectIdentifier(Registered78.self)] = { Registered78() } },
    { $0[ObjectIdentifier(Registered79.self)] = { Registered79() } },
    { $0[ObjectIdentifier(Registered80.self)] = { Registered80() } },
    { $0[ObjectIdentifier(Registered81.self)] = { Registered81() } },
    { $0[ObjectIdentifier(Registered82.self)] = { Registered82() } },
    { $0[ObjectIdentifier(Registered83.self)] = { Registered83() } },
    { $0[ObjectIdentifier(Registered84.self)] = { Registered84() } },
    { $0[ObjectIdentifier(Registered85.self)] = { Registered85() } },
    { $0[ObjectIdentifier(Registered86.self)] = { Registered86() } },
    { $0[ObjectIdentifier(Registered87.self)] = { Registered87() } },
    { $0[ObjectIdentifier(Registered88.self)] = { Registered88() } },
    { $0[ObjectIdentifier(Registered89.self)] = { Registered89() } },
    { $0[ObjectIdentifier(Registered90.self)] = { Registered90() } },
    { $0[ObjectIdentifier(Registered91.self)] = { Registered91() } },
    { $0[ObjectIdentifier(Registered92.self)] = { Registered92() } },
    { $0[ObjectIdentifier(Registered93.self)] = { Registered93() } },
    { $0[ObjectIdentifier(Registered94.self)] = { Registered94() } },
    { $0[ObjectIdentifier(Registered95.self)] = { Registered95() } },
    { $0[ObjectIdentifier(Registered96.self)] = { Registered96() } },
    { $0[ObjectIdentifier(Registered97.self)] = { Registered97() } },
    { $0[ObjectIdentifier(Registered98.self)] = { Registered98() } },
    { $0[ObjectIdentifier(Registered99.self)] = { Registered99() } },
    { $0[ObjectIdentifier(Registered100.self)] = { Registered100() } },
    { $0[ObjectIdentifier(Registered101.self)] = { Registered101() } },
    { $0[ObjectIdentifier(Registered102.self)] = { Registered102() } },
    { $0[ObjectIdentifier(Registered103.self)] = { Registered103() } },
    { $0[ObjectIdentifier(Registered104.self)] = { Registered104() } },
    { $0[ObjectIdentifier(Registered105.self)] = { Registered105() } },
    { $0[ObjectIdentifier(Registered106.self)] = { Registered106() } },
    { $0[ObjectIdentifier(Registered107.self)] = { Registered107() } },
    { $0[ObjectIdentifier(Registered108.self)] = { Registered108() } },
    { $0[ObjectIdentifier(Registered109.self)] = { Registered109() } },
    { $0[ObjectIdentifier(Registered110.self)] = { Registered110() } },
    { $0[ObjectIdentifier(Registered111.self)] = { Registered111() } },
    { $0[ObjectIdentifier(Registered112.self)] = { Registered112() } },
    { $0[ObjectIdentifier(Registered113.self)] = { Registered113() } },
    { $0[ObjectIdentifier(Registered114.self)] = { Registered114() } },
    { $0[ObjectIdentifier(Registered115.self)] = { Registered115() } },
    { $0[ObjectIdentifier(Registered116.self)] = { Registered116() } },
    { $0[ObjectIdentifier(Registered117.self)] = { Registered117() } },
    { $0[ObjectIdentifier(Registered118.self)] = { Registered118() } },
    { $0[ObjectIdentifier(Registered119.self)] = { Registered119() } },
    { $0[ObjectIdentifier(Registered120.self)] = { Registered120() } },
    { $0[ObjectIdentifier(Registered121.self)] = { Registered121() } },
    { $0[ObjectIdentifier(Registered122.self)] = { Registered122() } },
    { $0[ObjectIdentifier(Registered123.self)] = { Registered123() } },
    { $0[ObjectIdentifier(Registered124.self)] = { Registered124() } },
    { $0[ObjectIdentifier(Registered125.self)] = { Registered125() } },
    { $0[ObjectIdentifier(Registered126.self)] = { Registered126() } },
    { $0[ObjectIdentifier(Registered127.self)] = { Registered127() } },
    { $0[ObjectIdentifier(Registered128.self)] = { Registered128() } },
    { $0[ObjectIdentifier(Registered129.self)] = { Registered129() } },
    { $0[ObjectIdentifier(Registered130.self)] = { Registered130() } },
    { $0[ObjectIdentifier(Registered131.self)] = { Registered131() } },
    { $0[ObjectIdentifier(Registered132.self)] = { Registered132() } },
    { $0[ObjectIdentifier(Registered133.self)] = { Registered133() } },
    { $0[ObjectIdentifier(Registered134.self)] = { Registered134() } },
    { $0[ObjectIdentifier(Registered135.self)] = { Registered135() } },
    { $0[ObjectIdentifier(Registered136.self)] = { Registered136() } },
    { $0[ObjectIdentifier(Registered137.self)] = { Registered137() } },
    { $0[ObjectIdentifier(Registered138.self)] = { Registered138() } },
    { $0[ObjectIdentifier(Registered139.self)] = { Registered139() } },
    { $0[ObjectIdentifier(Registered140.self)] = { Registered140() } },
    { $0[ObjectIdentifier(Registered141.self)] = { Registered141() } },
    { $0[ObjectIdentifier(Registered142.self)] = { Registered142() } },
    { $0[ObjectIdentifier(Registered143.self)] = { Registered143() } },
    { $0[ObjectIdentifier(Registered144.self)] = { Registered144() } },
    { $0[ObjectIdentifier(Registered145.self)] = { Registered145() } },
    { $0[ObjectIdentifier(Registered146.self)] = { Registered146() } },
    { $0[ObjectIdentifier(Registered147.self)] = { Registered147() } },
    { $0[ObjectIdentifier(Registered148.self)] = { Registered148() } },
    { $0[ObjectIdentifier(Registered149.self)] = { Registered149() } },
    { $0[ObjectIdentifier(Registered150.self)] = { Registered150() } },
    { $0[ObjectIdentifier(Registered151.self)] = { Registered151() } },
    { $0[ObjectIdentifier(Registered152.self)] = { Registered152() } },
    { $0[ObjectIdentifier(Registered153.self)] = { Registered153() } },
    { $0[ObjectIdentifier(Registered154.self)] = { Registered154() } },
    { $0[ObjectIdentifier(Registered155.self)] = { Registered155() } },
    { $0[ObjectIdentifier(Registered156.self)] = { Registered156() } },
    { $0[ObjectIdentifier(Registered157.self)] = { Registered157() } },
    { $0[ObjectIdentifier(Registered158.self)] = { Registered158() } },
    { $0[ObjectIdentifier(Registered159.self)] = { Registered159() } },
    { $0[ObjectIdentifier(Registered160.self)] = { Registered160() } },
    { $0[ObjectIdentifier(Registered161.self)] = { Registered161() } },
    { $0[ObjectIdentifier(Registered162.self)] = { Registered162() } },
    { $0[ObjectIdentifier(Registered163.self)] = { Registered163() } },
    { $0[ObjectIdentifier(Registered164.self)] = { Registered164() } },
    { $0[ObjectIdentifier(Registered165.self)] = { Registered165() } },
    { $0[ObjectIdentifier(Registered166.self)] = { Registered166() } },
    { $0[ObjectIdentifier(Registered167.self)] = { Registered167() } },
    { $0[ObjectIdentifier(Registered168.self)] = { Registered168() } },
    { $0[ObjectIdentifier(Registered169.self)] = { Registered169() } },
    { $0[ObjectIdentifier(Registered170.self)] = { Registered170() } },
    { $0[ObjectIdentifier(Registered171.self)] = { Registered171() } },
    { $0[ObjectIdentifier(Registered172.self)] = { Registered172() } },
    { $0[ObjectIdentifier(Registered173.self)] = { Registered173() } },
    { $0[ObjectIdentifier(Registered174.self)] = { Registered174() } },
    { $0[ObjectIdentifier(Registered175.self)] = { Registered175() } },
    { $0[ObjectIdentifier(Registered176.self)] = { Registered176() } },
    { $0[ObjectIdentifier(Registered177.self)] = { Registered177() } },
    { $0[ObjectIdentifier(Registered178.self)] = { Registered178() } },
    { $0[ObjectIdentifier(Registered179.self)] = { Registered179() } },
    { $0[ObjectIdentifier(Registered180.self)] = { Registered180() } },
    { $0[ObjectIdentifier(Registered181.self)] = { Registered181() } },
    { $0[ObjectIdentifier(Registered182.self)] = { Registered182() } },
    { $0[ObjectIdentifier(Registered183.self)] = { Registered183() } },
    { $0[ObjectIdentifier(Registered184.self)] = { Registered184() } },
    { $0[ObjectIdentifier(Registered185.self)] = { Registered185() } },
    { $0[ObjectIdentifier(Registered186.self)] = { Registered186() } },
    { $0[ObjectIdentifier(Registered187.self)] = { Registered187() } },
    { $0[ObjectIdentifier(Registered188.self)] = { Registered188() } },
    { $0[ObjectIdentifier(Registered189.self)] = { Registered189() } },
    { $0[ObjectIdentifier(Registered190.self)] = { Registered190() } },
    { $0[ObjectIdentifier(Registered191.self)] = { Registered191() } },
    { $0[ObjectIdentifier(Registered192.self)] = { Registered192() } },
    { $0[ObjectIdentifier(Registered193.self)] = { Registered193() } },
    { $0[ObjectIdentifier(Registered194.self)] = { Registered194() } },
    { $0[ObjectIdentifier(Registered195.self)] = { Registered195() } },
    { $0[ObjectIdentifier(Registered196.self)] = { Registered196() } },
    { $0[ObjectIdentifier(Registered197.self)] = { Registered197() } },
    { $0[ObjectIdentifier(Registered198.self)] = { Registered198() } },
    { $0[ObjectIdentifier(Registered199.self)] = { Registered199() } },
    { $0[ObjectIdentifier(Registered200.self)] = { Registered200() } },
    { $0[ObjectIdentifier(Registered201.self)] = { Registered201() } },
    { $0[ObjectIdentifier(Registered202.self)] = { Registered202() } },
    { $0[ObjectIdentifier(Registered203.self)] = { Registered203() } },
    { $0[ObjectIdentifier(Registered204.self)] = { Registered204() } },
    { $0[ObjectIdentifier(Registered205.self)] = { Registered205() } },
    { $0[ObjectIdentifier(Registered206.self)] = { Registered206() } },
    { $0[ObjectIdentifier(Registered207.self)] = { Registered207() } },
    { $0[ObjectIdentifier(Registered208.self)] = { Registered208() } },
    { $0[ObjectIdentifier(Registered209.self)] = { Registered209() } },
    { $0[ObjectIdentifier(Registered210.self)] = { Registered210() } },
    { $0[ObjectIdentifier(Registered211.self)] = { Registered211() } },
    { $0[ObjectIdentifier(Registered212.self)] = { Registered212() } },
    { $0[ObjectIdentifier(Registered213.self)] = { Registered213() } },
    { $0[ObjectIdentifier(Registered214.self)] = { Registered214() } },
    { $0[ObjectIdentifier(Registered215.self)] = { Registered215() } },
    { $0[ObjectIdentifier(Registered216.self)] = { Registered216() } },
    { $0[ObjectIdentifier(Registered217.self)] = { Registered217() } },
    { $0[ObjectIdentifier(Registered218.self)] = { Registered218() } },
    { $0[ObjectIdentifier(Registered219.self)] = { Registered219() } },
    { $0[ObjectIdentifier(Registered220.self)] = { Registered220() } },
    { $0[ObjectIdentifier(Registered221.self)] = { Registered221() } },
    { $0[ObjectIdentifier(Registered222.self)] = { Registered222() } },
    { $0[ObjectIdentifier(Registered223.self)] = { Registered223() } },
    { $0[ObjectIdentifier(Registered224.self)] = { Registered224() } },
    { $0[ObjectIdentifier(Registered225.self)] = { Registered225() } },
    { $0[ObjectIdentifier(Registered226.self)] = { Registered226() } },
    { $0[ObjectIdentifier(Registered227.self)] = { Registered227() } },
    { $0[ObjectIdentifier(Registered228.self)] = { Registered228() } },
    { $0[ObjectIdentifier(Registered229.self)] = { Registered229() } },
    { $0[ObjectIdentifier(Registered230.self)] = { Registered230() } },
    { $0[ObjectIdentifier(Registered231.self)] = { Registered231() } },
    { $0[ObjectIdentifier(Registered232.self)] = { Registered232() } },
    { $0[ObjectIdentifier(Registered233.self)] = { Registered233() } },
    { $0[ObjectIdentifier(Registered234.self)] = { Registered234() } },
    { $0[ObjectIdentifier(Registered235.self)] = { Registered235() } },
    { $0[ObjectIdentifier(Registered236.self)] = { Registered236() } },
    { $0[ObjectIdentifier(Registered237.self)] = { Registered237() } },
    { $0[ObjectIdentifier(Registered238.self)] = { Registered238() } },
    { $0[ObjectIdentifier(Registered239.self)] = { Registered239() } },
    { $0[ObjectIdentifier(Registered240.self)] = { Registered240() } },
    { $0[ObjectIdentifier(Registered241.self)] = { Registered241() } },
    { $0[ObjectIdentifier(Registered242.self)] = { Registered242() } },
    { $0[ObjectIdentifier(Registered243.self)] = { Registered243() } },
    { $0[ObjectIdentifier(Registered244.self)] = { Registered244() } },
    { $0[ObjectIdentifier(Registered245.self)] = { Registered245() } },
    { $0[ObjectIdentifier(Registered246.self)] = { Registered246() } },
    { $0[ObjectIdentifier(Registered247.self)] = { Registered247() } },
    { $0[ObjectIdentifier(Registered248.self)] = { Registered248() } },
    { $0[ObjectIdentifier(Registered249.self)] = { Registered249() } },
    { $0[ObjectIdentifier(Registered250.self)] = { Registered250() } },
    { $0[ObjectIdentifier(Registered251.self)] = { Registered251() } },
    { $0[ObjectIdentifier(Registered252.self)] = { Registered252() } },
    { $0[ObjectIdentifier(Registered253.self)] = { Registered253() } },
    { $0[ObjectIdentifier(Registered254.self)] = { Registered254() } },
    { $0[ObjectIdentifier(Registered255.self)] = { Registered255() } },
    { $0[ObjectIdentifier(Registered256.self)] = { Registered256() } },
    { $0[ObjectIdentifier(Registered257.self)] = { Registered257() } },
    { $0[ObjectIdentifier(Registered258.self)] = { Registered258() } },
    { $0[ObjectIdentifier(Registered259.self)] = { Registered259() } },
    { $0[ObjectIdentifier(Registered260.self)] = { Registered260() } },
    { $0[ObjectIdentifier(Registered261.self)] = { Registered261() } },
    { $0[ObjectIdentifier(Registered262.self)] = { Registered262() } },
    { $0[ObjectIdentifier(Registered263.self)] = { Registered263() } },
    { $0[ObjectIdentifier(Registered264.self)] = { Registered264() } },
    { $0[ObjectIdentifier(Registered265.self)] = { Registered265() } },
    { $0[ObjectIdentifier(Registered266.self)] = { Registered266() } },
    { $0[ObjectIdentifier(Registered267.self)] = { Registered267() } },
    { $0[ObjectIdentifier(Registered268.self)] = { Registered268() } },
    { $0[ObjectIdentifier(Registered269.self)] = { Registered269() } },
    { $0[ObjectIdentifier(Registered270.self)] = { Registered270() } },
    { $0[ObjectIdentifier(Registered271.self)] = { Registered271() } },
    { $0[ObjectIdentifier(Registered272.self)] = { Registered272() } },
    { $0[ObjectIdentifier(Registered273.self)] = { Registered273() } },
    { $0[ObjectIdentifier(Registered274.self)] = { Registered274() } },
    { $0[ObjectIdentifier(Registered275.self)] = { Registered275() } },
    { $0[ObjectIdentifier(Registered276.self)] = { Registered276() } },
    { $0[ObjectIdentifier(Registered277.self)] = { Registered277() } },
    { $0[ObjectIdentifier(Registered278.self)] = { Registered278() } },
    { $0[ObjectIdentifier(Registered279.self)] = { Registered279() } },
    { $0[ObjectIdentifier(Registered280.self)] = { Registered280() } },
    { $0[ObjectIdentifier(Registered281.self)] = { Registered281() } },
    { $0[ObjectIdentifier(Registered282.self)] = { Registered282() } },
    { $0[ObjectIdentifier(Registered283.self)] = { Registered283() } },
    { $0[ObjectIdentifier(Registered284.self)] = { Registered284() } },
    { $0[ObjectIdentifier(Registered285.self)] = { Registered285() } },
    { $0[ObjectIdentifier(Registered286.self)] = { Registered286() } },
    { $0[ObjectIdentifier(Registered287.self)] = { Registered287() } },
    { $0[ObjectIdentifier(Registered288.self)] = { Registered288() } },
    { $0[ObjectIdentifier(Registered289.self)] = { Registered289() } },
    { $0[ObjectIdentifier(Registered290.self)] = { Registered290() } },
    { $0[ObjectIdentifier(Registered291.self)] = { Registered291() } },
    { $0[ObjectIdentifier(Registered292.self)] = { Registered292() } },
    { $0[ObjectIdentifier(Registered293.self)] = { Registered293() } },
    { $0[ObjectIdentifier(Registered294.self)] = { Registered294() } },
    { $0[ObjectIdentifier(Registered295.self)] = { Registered295() } },
    { $0[ObjectIdentifier(Registered296.self)] = { Registered296() } },
    { $0[ObjectIdentifier(Registered297.self)] = { Registered297() } },
    { $0[ObjectIdentifier(Registered298.self)] = { Registered298() } },
    { $0[ObjectIdentifier(Registered299.self)] = { Registered299() } },
]
