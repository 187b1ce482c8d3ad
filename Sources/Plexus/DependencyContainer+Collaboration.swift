extension DependencyContainer {
    /// Lets this container resolve what `containers` can resolve, in the order given.
    ///
    /// ```swift
    /// eventsList.collaborate(with: addEvent, root)
    /// addEvent.collaborate(with: eventsList, root)
    /// let wireframe: EventsListWireframe = try eventsList.resolve()
    /// ```
    ///
    /// Collaboration is directional (`a.collaborate(with: b)` does not let `b` see `a`) and transitive, searched
    /// depth-first with a visited set, so link cycles end in `definitionNotFound` instead of looping. A
    /// definition found in a collaborator is resolved by it: its singletons live there, whichever container
    /// asked. Local definitions win. Collaborators are held weakly; collaborating with itself is ignored.
    /// - Parameter containers: The containers to consult after this one.
    public func collaborate(with containers: DependencyContainer...) {
        collaborate(with: containers)
    }

    /// Lets this container resolve what `containers` can resolve, in the order given.
    /// - Parameter containers: The containers to consult after this one.
    public func collaborate(with containers: [DependencyContainer]) {
        addCollaborators(containers)
    }
}
