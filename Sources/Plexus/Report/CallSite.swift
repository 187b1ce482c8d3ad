/// Where a definition was registered: the `#fileID` and `#line` that `register` received (SPEC §21).
///
/// Kept as a `StaticString` so that registering costs no allocation; turned into text only for reports and
/// messages. Stored on the definition, never read on the resolve path.
@usableFromInline
struct CallSite: Sendable {
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    /// `"Module/File.swift:12"`.
    var text: String { "\(file):\(line)" }
}

extension Slot {
    /// Where the definition of this slot was registered; `nil` for a typed accessor's declared default, whose
    /// definition is made on first use.
    var site: CallSite? { (definition as? any SiteCarrying)?.site }
}

/// A definition that knows where it was registered.
protocol SiteCarrying {
    var site: CallSite? { get }
}

extension Definition: SiteCarrying {}
