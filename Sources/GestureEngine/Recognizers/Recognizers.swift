/// The seven recognizers of a gesture group, one per gesture kind, and what the arena asks of
/// any of them by kind: its state, whether a move is allowed, its direction and its repeat
/// progress.
struct Recognizers {
    var tap = TapRecognizer()
    var longPress = LongPressRecognizer()
    var swipe = SwipeRecognizer()
    var pan = PanRecognizer()
    var pinch = PinchRotateRecognizer(.pinch)
    var rotate = PinchRotateRecognizer(.rotate)
    var stroke = StrokeRecognizer()

    /// The state of `kind`'s recognizer.
    @inline(__always) subscript(kind: GestureKind) -> RecognizerState {
        switch kind {
        case .tap: tap.state
        case .longPress: longPress.state
        case .swipe: swipe.state
        case .pan: pan.state
        case .pinch: pinch.state
        case .rotate: rotate.state
        case .stroke: stroke.state
        }
    }

    /// Whether `kind`'s recognizer may move to `next` (its own diagram).
    func canMove(_ kind: GestureKind, to next: RecognizerState) -> Bool {
        switch kind {
        case .tap: tap.canMove(to: next)
        case .longPress: longPress.canMove(to: next)
        case .swipe: swipe.canMove(to: next)
        case .pan: pan.canMove(to: next)
        case .pinch: pinch.canMove(to: next)
        case .rotate: rotate.canMove(to: next)
        case .stroke: stroke.canMove(to: next)
        }
    }

    /// Sets the state of `kind`'s recognizer (the arena checks the move first).
    @inline(__always) mutating func set(_ kind: GestureKind, _ state: RecognizerState) {
        switch kind {
        case .tap: tap.state = state
        case .longPress: longPress.state = state
        case .swipe: swipe.state = state
        case .pan: pan.state = state
        case .pinch: pinch.state = state
        case .rotate: rotate.state = state
        case .stroke: stroke.state = state
        }
    }

    /// Every recognizer out of play, for a new group (what each keeps is set up when it comes
    /// into play).
    mutating func reset() {
        for kind in GestureKind.allCases { set(kind, .failed) }
    }

    /// Whether some recognizer can still win (a pending swipe included).
    var anyPossible: Bool {
        tap.state.canStillWin || longPress.state.canStillWin || swipe.state.canStillWin || pan.state.canStillWin
            || pinch.state.canStillWin || rotate.state.canStillWin || stroke.state.canStillWin
    }

    /// Whether a stroke can still win and nothing else can, but a swipe that waits for it
    /// (`pending`).
    var onlyAStrokeCanWin: Bool {
        stroke.state == .possible && swipe.state != .possible && !tap.state.canStillWin && !longPress.state.canStillWin
            && !pan.state.canStillWin && !pinch.state.canStillWin && !rotate.state.canStillWin
    }

    /// The direction `kind` has with these measures (`nil`: it has none).
    func direction(of kind: GestureKind, _ m: Measures) -> Direction? {
        switch kind {
        case .swipe: swipe.direction(m)
        case .pan: pan.direction(m)
        case .pinch: pinch.direction(m)
        case .rotate: rotate.direction(m)
        case .tap, .longPress, .stroke: nil
        }
    }

    /// `kind` begins with these measures: what its repeats count from (pan, pinch, rotate).
    mutating func began(_ kind: GestureKind, _ m: Measures) {
        switch kind {
        case .pan: pan.began(m)
        case .pinch: pinch.began(m)
        case .rotate: rotate.began(m)
        case .tap, .longPress, .swipe, .stroke: break
        }
    }

    /// How far the running `kind` went since it began, for a `repeat_every` binding toward
    /// `direction`, and whether both ways count; `nil` for a gesture whose steps are not
    /// measured (the long press repeats by time).
    @inline(__always)
    func progress(of kind: GestureKind, toward direction: Direction?, _ m: Measures) -> (progress: Double, twoSided: Bool)? {
        switch kind {
        case .pan: (pan.progress(toward: direction, m), false)
        case .pinch: pinch.progress(toward: direction, m)
        case .rotate: rotate.progress(toward: direction, m)
        case .tap, .longPress, .swipe, .stroke: nil
        }
    }

    /// Whether two recognizers may run at once on the same group (``GestureDescriptor/coexists``):
    /// pinch and rotate (a two-finger twist that also spreads), as UIKit's simultaneous
    /// recognition allows. Every other pair excludes each other: when one wins, the other loses.
    static func coexist(_ a: GestureKind, _ b: GestureKind) -> Bool {
        b.descriptor.coexistBits & a.bit != 0
    }
}
