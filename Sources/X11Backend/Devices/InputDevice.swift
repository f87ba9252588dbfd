internal import BridgeCore

/// What gesture-bridge uses an X input device as.
public enum DeviceRole: String, CaseIterable, Hashable, Sendable {
    /// Direct touch (`XIDirectTouch`): touches land where they are on screen.
    case touchscreen
    /// A touchpad: dependent touch, XI 2.4 gesture events, or a driver that says so.
    case touchpad
    /// A mouse-like device (and the master pointer, which pointer gestures are captured on).
    case pointer
    /// A keyboard (gesture-bridge captures no keys, but lists them).
    case keyboard
    /// Not used: XTEST devices (injected input, gesture-bridge's own and xdotool's) and
    /// disabled devices.
    case ignored
}

/// How a device is attached in the XInput 2 device hierarchy (`XIDeviceInfo.use`).
public struct DeviceUse: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `XIMasterPointer`: a cursor (`Virtual core pointer`).
    public static let masterPointer = DeviceUse(rawValue: 1)
    /// `XIMasterKeyboard`: a focus (`Virtual core keyboard`).
    public static let masterKeyboard = DeviceUse(rawValue: 2)
    /// `XISlavePointer`: a physical (or XTEST) pointer attached to a master pointer.
    public static let slavePointer = DeviceUse(rawValue: 3)
    /// `XISlaveKeyboard`: a physical (or XTEST) keyboard attached to a master keyboard.
    public static let slaveKeyboard = DeviceUse(rawValue: 4)
    /// `XIFloatingSlave`: a device attached to no master; its events reach no cursor.
    public static let floatingSlave = DeviceUse(rawValue: 5)

    /// True for master pointers and master keyboards.
    public var isMaster: Bool { self == .masterPointer || self == .masterKeyboard }

    /// `master pointer`, `slave keyboard`, …, as `xinput list` words it.
    public var description: String {
        switch self {
        case .masterPointer: "master pointer"
        case .masterKeyboard: "master keyboard"
        case .slavePointer: "slave pointer"
        case .slaveKeyboard: "slave keyboard"
        case .floatingSlave: "floating slave"
        default: "use \(rawValue)"
        }
    }
}

/// A device's XInput 2 touch class (`XITouchClassInfo`).
public struct TouchCapability: Hashable, Sendable {
    /// How touches map to the screen.
    public enum Mode: String, Hashable, Sendable {
        /// `XIDirectTouch`: a touchscreen.
        case direct
        /// `XIDependentTouch`: touches move a cursor (a multitouch touchpad driver).
        case dependent
    }

    public var mode: Mode
    /// The most simultaneous touches the device reports (0: unknown).
    public var maxTouches: Int

    public init(mode: Mode, maxTouches: Int) {
        self.mode = mode
        self.maxTouches = maxTouches
    }
}

/// What the server tells about one device, before any decision: the input of
/// ``DeviceRole/classify(_:)``.
public struct DeviceTraits: Hashable, Sendable {
    public var use: DeviceUse
    public var enabled: Bool
    /// The XI 2.2 touch class, if the device has one.
    public var touch: TouchCapability?
    /// The device has an XI 2.4 gesture class (it sends touchpad swipe/pinch events).
    public var hasGestureClass: Bool
    /// The device has a key class.
    public var hasKeys: Bool
    /// The device has buttons or valuators.
    public var hasPointerClasses: Bool
    /// The names of the device's properties (`libinput Tapping Enabled`, `XTEST Device`, …).
    public var propertyNames: Set<String>
    /// The XI 1 device type the driver declared (`TOUCHPAD`, `MOUSE`, `KEYBOARD`), if any.
    public var typeName: String?

    public init(
        use: DeviceUse, enabled: Bool = true, touch: TouchCapability? = nil, hasGestureClass: Bool = false,
        hasKeys: Bool = false, hasPointerClasses: Bool = false, propertyNames: Set<String> = [], typeName: String? = nil
    ) {
        self.use = use
        self.enabled = enabled
        self.touch = touch
        self.hasGestureClass = hasGestureClass
        self.hasKeys = hasKeys
        self.hasPointerClasses = hasPointerClasses
        self.propertyNames = propertyNames
        self.typeName = typeName
    }
}

/// One X input device, as `gesture-bridge list-devices` shows it.
public struct InputDevice: Hashable, Sendable, Identifiable {
    /// The XInput device id (`sourceid` / `deviceid` in events).
    public var id: Int
    public var name: String
    public var role: DeviceRole
    /// Why the device got its role, in a few words (`XIDirectTouch, 10 touches`).
    public var reason: String
    /// Master or slave, pointer or keyboard.
    public var use: DeviceUse
    /// The master a slave is attached to (for a master: its paired master).
    public var attachment: Int
    public var enabled: Bool
    /// The touch class, for touch devices.
    public var touch: TouchCapability?
    /// The device sends XI 2.4 touchpad gesture events.
    public var hasGestureClass: Bool
    /// An XTEST device: injected input (gesture-bridge's own, xdotool's), never a user's hand.
    public var isXTest: Bool

    public init(
        id: Int, name: String, role: DeviceRole, reason: String, use: DeviceUse, attachment: Int,
        enabled: Bool, touch: TouchCapability?, hasGestureClass: Bool, isXTest: Bool
    ) {
        self.id = id
        self.name = name
        self.role = role
        self.reason = reason
        self.use = use
        self.attachment = attachment
        self.enabled = enabled
        self.touch = touch
        self.hasGestureClass = hasGestureClass
        self.isXTest = isXTest
    }
}

extension DeviceRole {
    /// Device properties that only touchpad drivers create.
    ///
    /// xf86-input-libinput creates `libinput Tapping Enabled` only for devices whose
    /// `libinput_device_config_tap_get_finger_count` is above 0 — touchpads (it is also what
    /// makes it declare the device type `TOUCHPAD`). xf86-input-synaptics creates its
    /// `Synaptics …` properties on every device it drives, all touchpads.
    public static let touchpadPropertyNames: Set<String> = [
        "libinput Tapping Enabled", "Synaptics Off", "Synaptics Edges", "Synaptics Finger",
    ]

    /// The property the server puts on its XTEST devices.
    public static let xtestPropertyName = "XTEST Device"

    /// Decides a device's role from what the server reports, with the reason.
    ///
    /// In order: disabled devices and XTEST devices are ignored; masters are the pointer and
    /// the keyboard; a device with an `XIDirectTouch` class is a touchscreen; one with an
    /// `XIDependentTouch` class, an XI 2.4 gesture class, a touchpad-only driver property, or
    /// the XI 1 type `TOUCHPAD` is a touchpad (xf86-input-libinput gives touchpads no touch
    /// class: libinput turns their fingers into pointer motion, scrolling and XI 2.4 gestures);
    /// other devices with buttons or valuators are pointers; the rest are keyboards.
    public static func classify(_ traits: DeviceTraits) -> (role: DeviceRole, reason: String) {
        if !traits.enabled { return (.ignored, "disabled") }
        if traits.propertyNames.contains(xtestPropertyName) { return (.ignored, "XTEST device (injected input)") }
        switch traits.use {
        case .masterPointer: return (.pointer, "master pointer")
        case .masterKeyboard: return (.keyboard, "master keyboard")
        default: break
        }
        if let touch = traits.touch {
            switch touch.mode {
            case .direct: return (.touchscreen, "XIDirectTouch, \(touch.maxTouches) touches")
            case .dependent: return (.touchpad, "XIDependentTouch, \(touch.maxTouches) touches")
            }
        }
        if traits.hasGestureClass { return (.touchpad, "XI 2.4 gesture class") }
        if let property = touchpadPropertyNames.sorted().first(where: traits.propertyNames.contains) {
            return (.touchpad, "property \"\(property)\"")
        }
        if traits.typeName == "TOUCHPAD" { return (.touchpad, "device type TOUCHPAD") }
        let isPointer = traits.use == .slavePointer || (traits.use != .slaveKeyboard && traits.hasPointerClasses)
        if isPointer { return (.pointer, traits.use == .slavePointer ? "slave pointer" : "buttons or valuators") }
        if traits.use == .slaveKeyboard || traits.hasKeys { return (.keyboard, "keys") }
        return (.ignored, "no keys, buttons or valuators")
    }
}

extension InputDevice {
    /// The device as one JSON object on one line (`gesture-bridge list-devices --json`):
    /// `id`, `name`, `role`, `reason`, `use` (master/slave pointer/keyboard, floating slave),
    /// `attachment`, `enabled`, `xtest`, `touch` (`direct`/`dependent` with `max_touches`, or
    /// absent) and `gestures` (XI 2.4 touchpad gesture events).
    public var jsonText: String {
        var out = "{\"id\":\(id),\"name\":\(JSONLiteral.string(name)),\"role\":\(JSONLiteral.string(role.rawValue))"
        out += ",\"reason\":\(JSONLiteral.string(reason)),\"use\":\(JSONLiteral.string(use.description))"
        out += ",\"attachment\":\(attachment),\"enabled\":\(enabled),\"xtest\":\(isXTest)"
        if let touch {
            out += ",\"touch\":\(JSONLiteral.string(touch.mode.rawValue)),\"max_touches\":\(touch.maxTouches)"
        }
        return out + ",\"gestures\":\(hasGestureClass)}"
    }
}
