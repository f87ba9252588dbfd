import GestureConfig

extension EWMHNeeds {
    /// The hints every action of `binding` relies on (an action list needs what each of its
    /// actions needs), without repeats, in the order they first appear.
    static func hints(for binding: Binding) -> [String] {
        var all: [String] = []
        for action in binding.actions {
            for hint in hints(for: action) where !all.contains(hint) { all.append(hint) }
        }
        return all
    }
}
