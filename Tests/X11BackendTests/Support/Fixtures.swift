import BridgeCore
import CX11
import GestureConfig
import GestureEngine
import Logging
@testable import X11Backend

/// A logger that stays quiet unless something is badly wrong.
let quietLogger: Logger = {
    var logger = Logger(label: "x11-backend-tests")
    logger.logLevel = .critical
    return logger
}()

/// A performer on a fresh connection to `server`.
func makePerformer(_ server: XServer, hold: Duration = X11ActionPerformer.defaultTemporaryMappingHold) throws -> X11ActionPerformer {
    try X11ActionPerformer(display: X11Display(name: server.name), temporaryMappingHold: hold, logger: quietLogger)
}

/// The context of a gesture from `device` at (`x`, `y`).
func context(_ device: DeviceKind, _ x: Double = 0, _ y: Double = 0) -> ActionContext {
    ActionContext(device: device, position: Point(x: x, y: y), time: Instant(milliseconds: 0))
}

/// A `key` action from keysym names.
func keyAction(_ names: String...) -> Action {
    .key(KeyCombo(keys: names.map { KeyCombo.Key(name: $0, keysym: UInt32(keysym($0))) }))
}

/// What a window saw of keys, as `press Name` / `release Name` lines.
func keyLines(_ events: [EventWindow.Received]) -> [String] {
    events.map { event in
        let name = XKeysymToString(event.keysym).map { String(cString: $0) } ?? "?"
        return "\(event.kind == .keyPress ? "press" : "release") \(name)"
    }
}
