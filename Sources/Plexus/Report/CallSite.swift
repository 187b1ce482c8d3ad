/// Where a definition was registered: the `#fileID` and `#line` that `register` received.
///
/// Kept as a `StaticString` so that registering costs no allocation; turned into text only for reports and
/// messages. Stored on the definition, never read on the resolve path.
@usableFromInline
struct CallSite: Sendable {
    // The line first: a `StaticString` ends in a one-byte field, so after it the line would take a padded word.
    @usableFromInline let line: UInt
    @usableFromInline let file: StaticString

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
    /// definition is made on first use, and for what Plexus registers itself on a user's behalf (an accessor's
    /// override, a keyed `inject`), whose call site would name a Plexus file.
    var site: CallSite? {
        guard let site = (definition as? any SiteCarrying)?.site else { return nil }
        return "\(site.file)".hasPrefix("Plexus/") ? nil : site
    }
}

/// A definition that knows where it was registered.
protocol SiteCarrying {
    var site: CallSite? { get }
}

extension Definition: SiteCarrying {}

extension DependencyContainer {
    /// Where the definition registered here under `key` is, for messages: `Checkout (Checkout/Module.swift:12)`,
    /// or the container's name alone when the site is unknown (a typed accessor's declared default).
    func location(of key: DefinitionKey) -> String {
        registrationSite(of: key).map { "\(name) (\($0.text))" } ?? name
    }
}

extension DependencyContainer {
    /// The sentences a failed validation of `key` ends with: where the validated definition is registered, and for
    /// a cycle, where each of its definitions is (as the running recorder saw them).
    func whereRegistered(_ key: DefinitionKey, _ error: ResolutionError) -> String {
        var text = "\(typeName(key.type)) is registered in \(location(of: key))."
        if case .circularDependency(let path) = error, let recorder = ResolutionGraph.current.recorder {
            var seen = Set<DefinitionKey>()
            let members = path.filter { seen.insert($0).inserted }.map { member in
                "\(typeName(member.type)) in \(recorder.location(ofInstance: member) ?? "a container")"
            }
            text += " The cycle's definitions: " + members.joined(separator: ", ") + "."
        }
        return text
    }

    /// The sentence a near miss ends with: ` It is in Checkout (Checkout/Module.swift:12).`
    func nearMissLocation(_ key: DefinitionKey) -> String {
        " It is in \(location(of: key))."
    }
}
