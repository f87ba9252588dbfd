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

    /// A `workspace` action.
    static func switchesDesktop(_ action: Action) -> Bool {
        if case .workspace = action { true } else { false }
    }

    /// `workspace next` or `workspace prev`: it needs more than one desktop to go anywhere.
    static func switchesDesktopRelatively(_ action: Action) -> Bool {
        switch action {
        case .workspace(.next), .workspace(.previous): true
        default: false
        }
    }
}
