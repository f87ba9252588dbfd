internal import CX11
import BridgeCore
import GestureEngine
import Logging

/// Touchscreens (XI 2.2 touch sequences) and touchpads (XI 2.4 gesture events).
///
/// Live, touches are taken with a passive touch grab on the root window: every sequence waits
/// for the engine's verdict and is then accepted (`XIAcceptTouch`: a bound gesture won it) or
/// rejected (`XIRejectTouch`: the server replays it to the application, pointer emulation
/// included). Observing (`--dry-run`, `record`), raw touch events are read instead and nothing
/// is held. Touchpad swipes and pinches are grabbed only when a binding can use them; a grabbed
/// touchpad gesture cannot be handed back, so unbound finger counts stay with applications
/// only when nothing of that kind is bound.
extension X11InputCapture {
    /// Applies what the bindings need: touch and touchpad grabs on or off.
    public func apply(_ needs: CaptureNeeds) {
        self.needs = needs
        guard mode == .grab else { return }
        setTouchGrab(needs.touchscreen)
        if display.xinputVersion >= XInputVersion(major: 2, minor: 4) {
            setGestureGrab(swipe: true, needs.touchpadSwipes)
            setGestureGrab(swipe: false, needs.touchpadPinches)
        }
    }

    /// Re-reads the device list (at start and on hot-plug): which sources are touchscreens
    /// (and their axis ranges for raw touch events), and which are XTest's.
    func refreshDevices() {
        guard let devices = try? display.listDevices() else { return }
        touchscreens = Set(devices.filter { $0.role == .touchscreen }.map { Int32($0.id) })
        xtestDevices = Set(devices.filter(\.isXTest).map { Int32($0.id) })
        for d in devices where d.role == .touchscreen || d.role == .touchpad {
            logger.info("\(d.role.rawValue): \(d.name) (id \(d.id), \(d.reason))")
        }
        touchAxes = [:]
        if mode == .observe { readTouchAxes() }
    }

    /// Converts touch and gesture events; nil for other events.
    func convertTouch(_ cookie: UnsafeMutablePointer<XGenericEventCookie>) -> InputEvent?? {
        let type = cookie.pointee.evtype
        switch type {
        case XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let id = Int(UInt32(bitPattern: e.detail))
            if type == XI_TouchBegin {
                guard touchscreens.contains(e.sourceid) else {
                    // A touch from something that is not a touchscreen: never ours.
                    allowTouch(device: e.deviceid, touch: UInt32(bitPattern: e.detail), accept: false)
                    return .some(nil)
                }
                touchLedger.began(id, device: e.deviceid)
                if e.flags & Int32(XITouchEmulatingPointer) != 0 { buttonStateReset.emulatingTouches.insert(id) }
            } else if !touchLedger.knows(id) {
                return .some(nil)
            }
            let p = Point(x: e.root_x, y: e.root_y)
            switch type {
            case XI_TouchBegin: return InputEvent(time: t, .touchBegin(id: id, at: p, modifiers: gestureModifiers(e.mods)))
            case XI_TouchUpdate: return InputEvent(time: t, .touchUpdate(id: id, at: p))
            default:
                // The end the server sends when we give a touch back is not the finger's lift:
                // that comes as a raw touch end (see ``TouchLedger``).
                guard touchLedger.ended(id) else { return .some(nil) }
                if buttonStateReset.endedBeforeAccept(id, serial: UInt(cookie.pointee.serial)) {
                    // The server sent this end before it processed our accept: button 1 is left down.
                    buttonStateReset.resetAfterLateAccept(displayName: display.name, logger: logger)
                }
                return InputEvent(time: t, lift(id, at: p, source: e.sourceid))
            }
        case XI_RawTouchBegin, XI_RawTouchUpdate, XI_RawTouchEnd:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let id = Int(UInt32(bitPattern: e.detail))
            if mode == .grab {
                // Grabbing, only lifts matter here: of a touch given back while down (reported
                // now), or of one still undecided (reported with its XI_TouchEnd).
                guard type == XI_RawTouchEnd, touchLedger.rawEnded(id) else { return .some(nil) }
                return InputEvent(time: t, lift(id, at: Point(x: 0, y: 0), source: e.sourceid))
            }
            guard touchscreens.contains(e.sourceid), let p = rawPosition(e) else {
                if type == XI_RawTouchEnd { rawTouchPositions[id] = nil }
                return .some(nil)
            }
            switch type {
            case XI_RawTouchBegin:
                // A raw event has no modifier state: the pointer's, as it is read.
                return InputEvent(time: t, .touchBegin(id: id, at: p, modifiers: gestureModifiers(pointerState()?.modifiers ?? 0)))
            case XI_RawTouchUpdate: return InputEvent(time: t, .touchUpdate(id: id, at: p))
            default:
                rawTouchPositions[id] = nil  // the touch is over: nothing of it is kept
                return InputEvent(time: t, lift(id, at: p, source: e.sourceid))
            }
        case XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIGestureSwipeEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let fingers = Int(e.detail)
            switch type {
            case XI_GestureSwipeBegin:
                return InputEvent(time: t, .touchpadSwipeBegin(
                    fingers: fingers, at: Point(x: e.root_x, y: e.root_y), modifiers: gestureModifiers(e.mods)))
            case XI_GestureSwipeUpdate: return InputEvent(time: t, .touchpadSwipeUpdate(fingers: fingers, delta: Point(x: e.delta_x, y: e.delta_y)))
            default:
                let cancelled = e.flags & Int32(XIGestureSwipeEventCancelled) != 0
                return InputEvent(time: t, .touchpadSwipeEnd(fingers: fingers, cancelled: cancelled))
            }
        case XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIGesturePinchEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let fingers = Int(e.detail)
            switch type {
            case XI_GesturePinchBegin:
                return InputEvent(time: t, .touchpadPinchBegin(
                    fingers: fingers, at: Point(x: e.root_x, y: e.root_y), modifiers: gestureModifiers(e.mods)))
            case XI_GesturePinchUpdate:
                return InputEvent(time: t, .touchpadPinchUpdate(
                    fingers: fingers, delta: Point(x: e.delta_x, y: e.delta_y), scale: e.scale, angle: e.delta_angle))
            default:
                let cancelled = e.flags & Int32(XIGesturePinchEventCancelled) != 0
                return InputEvent(time: t, .touchpadPinchEnd(fingers: fingers, cancelled: cancelled))
            }
        default:
            return nil
        }
    }

    /// The end of touch `id` from the device `source`: a lift, or a cancel when the device is
    /// going away.
    ///
    /// A touchscreen disabled (`xinput disable`) or unplugged mid-gesture has its touches ended
    /// by the server (`TouchEndPhysicallyActiveTouches`) as if the fingers lifted, within the
    /// same request that disables it. Taken as lifts, a finger resting on a screen that is
    /// switched off would fire a tap, or end a long press with its `on = "end"` binding. So every
    /// end asks the server whether its device is still enabled (one round trip, ~0.1 ms): the
    /// server answers only after the disabling request is done, whichever order the end and the
    /// hierarchy change reach us in (they do come in separate writes). Gone or disabled: a
    /// cancel — the gesture is cancelled and undecided touches are given back.
    private func lift(_ id: Int, at p: Point, source: Int32) -> InputEvent.Kind {
        guard !display.isEnabled(device: source) else {
            return .touchEnd(id: id, at: p)
        }
        logger.debug("touch \(id) ended by its device going away (disabled or unplugged): its gesture is cancelled")
        return .touchCancel(id: id, at: p)
    }

    /// The engine decided a touch: accept or reject it at the server.
    ///
    /// Accepting the pointer-emulating touch after it ended leaves the master's emulated
    /// button 1 down on xorg-server 21.1; ``ButtonStateReset`` resets what it can around
    /// exactly that accept.
    func decideTouch(_ id: Int, _ ownership: Ownership) {
        guard mode == .grab, let (device, ended) = touchLedger.decide(id, ownership) else { return }
        let touch = UInt32(truncatingIfNeeded: id)
        let emulating = buttonStateReset.emulatingTouches.remove(id) != nil
        if ownership == .claim && emulating && ended {
            buttonStateReset.acceptAfterEnd(displayName: display.name, logger: logger) {
                // Synchronously: the accept must have happened before the second connection
                // lets the pointer go.
                allowTouch(device: device, touch: touch, accept: true, sync: true)
            }
        } else {
            let serial = allowTouch(device: device, touch: touch, accept: ownership == .claim)
            // Its end may be on its way, or queued unread: the end tells (see ButtonStateReset).
            if ownership == .claim && emulating, let serial { buttonStateReset.accepted(id, serial: serial) }
        }
    }

    /// Rejects every touch still waiting for a verdict (shutdown): nothing is left pending.
    func rejectUndecidedTouches() {
        for (id, device) in touchLedger.takeUndecided() {
            allowTouch(device: device, touch: UInt32(truncatingIfNeeded: id), accept: false)
        }
        buttonStateReset.forgetTouches()
    }

    /// Accepts or rejects a touch; returns the serial of the request (nil when it failed).
    @discardableResult
    private func allowTouch(device: Int32, touch: UInt32, accept: Bool, sync: Bool = false) -> UInt? {
        let root = display.root.rawValue
        let mode = accept ? Int32(XIAcceptTouch) : Int32(XIRejectTouch)
        do {
            return try display.call(accept ? "XIAcceptTouch" : "XIRejectTouch", sync: sync) { handle in
                let serial = UInt(XNextRequest(handle))
                _ = XIAllowTouchEvents(handle, device, touch, root, mode)
                return serial
            }
        } catch {
            logger.debug("touch \(touch): \(error)")
            return nil
        }
    }

    // MARK: - Grabs

    func setTouchGrab(_ on: Bool) {
        guard on != touchGrabbed else { return }
        if on {
            do {
                let failed = try PassiveGrab.touches.take(on: display)
                if failed != 0 {
                    logger.error("cannot grab touches on the root window: another client holds the grab (status \(failed)); touchscreen gestures are off")
                    return
                }
                touchGrabbed = true
            } catch {
                logger.error("cannot grab touches: \(error); touchscreen gestures are off")
            }
        } else {
            rejectUndecidedTouches()
            try? PassiveGrab.touches.release(on: display)
            touchGrabbed = false
        }
    }

    func setGestureGrab(swipe: Bool, _ on: Bool) {
        guard on != (swipe ? swipeGrabbed : pinchGrabbed) else { return }
        let grab = swipe ? PassiveGrab.touchpadSwipes : PassiveGrab.touchpadPinches
        let what = swipe ? "touchpad swipes" : "touchpad pinches"
        if on {
            do {
                let failed = try grab.take(on: display)
                if failed != 0 {
                    logger.error("cannot grab \(what): another client holds the grab (status \(failed))")
                    return
                }
                if swipe { swipeGrabbed = true } else { pinchGrabbed = true }
            } catch {
                logger.error("cannot grab \(what): \(error)")
            }
        } else {
            try? grab.release(on: display)
            if swipe { swipeGrabbed = false } else { pinchGrabbed = false }
        }
    }

    // MARK: - Raw touches (observing)

    private func readTouchAxes() {
        for id in touchscreens {
            let axes = try? display.call("XIQueryDevice(\(id))") { handle -> (Double, Double, Double, Double)? in
                var count: Int32 = 0
                guard let info = XIQueryDevice(handle, id, &count), count > 0 else { return nil }
                defer { XIFreeDeviceInfo(info) }
                var x: (Double, Double)? = nil, y: (Double, Double)? = nil
                for k in 0..<Int(info.pointee.num_classes) {
                    guard let c = info.pointee.classes[k], c.pointee.type == XIValuatorClass else { continue }
                    let v = UnsafeMutableRawPointer(c).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    if v.number == 0 { x = (v.min, v.max) }
                    if v.number == 1 { y = (v.min, v.max) }
                }
                guard let x, let y else { return nil }
                return (x.0, x.1, y.0, y.1)
            }
            if let axes { touchAxes[id] = axes }
        }
    }

    /// Maps a raw touch's valuators 0 and 1 (device units) onto the root window. Raw events
    /// carry no screen position, but their `valuators` are the values after the server applied
    /// the device's coordinate transformation matrix (`raw_values` are the untransformed
    /// ones), so scaling them onto the root window lands where the server puts the touch, on
    /// multi-monitor and rotated setups too. The scale is the server's own
    /// (`rescaleValuatorAxis`): the axis spans `max - min + 1` units, so value `v` is at
    /// `(v - min) * width / (max - min + 1)` — the same pixel a grabbed touch reports.
    private func rawPosition(_ e: XIRawEvent) -> Point? {
        guard let axes = touchAxes[e.sourceid] else { return nil }
        let mask = UnsafeBufferPointer(start: e.valuators.mask, count: Int(e.valuators.mask_len))
        func isSet(_ n: Int) -> Bool { n / 8 < mask.count && mask[n / 8] & UInt8(1 << (n % 8)) != 0 }
        var values: [Int: Double] = [:]
        var k = 0
        for n in 0..<(mask.count * 8) where isSet(n) {
            values[n] = e.valuators.values[k]
            k += 1
        }
        let id = Int(UInt32(bitPattern: e.detail))
        var last = rawTouchPositions[id] ?? Point(x: 0, y: 0)
        let size = display.rootSize
        if let vx = values[0], axes.1 > axes.0 { last.x = (vx - axes.0) / (axes.1 - axes.0 + 1) * Double(size.width) }
        if let vy = values[1], axes.3 > axes.2 { last.y = (vy - axes.2) / (axes.3 - axes.2 + 1) * Double(size.height) }
        rawTouchPositions[id] = last
        return last
    }
}
