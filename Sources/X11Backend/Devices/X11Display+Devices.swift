internal import CX11

extension X11Display {
    /// Lists every XInput device with the role gesture-bridge gives it, masters first as the
    /// server orders them.
    ///
    /// Uses `XIQueryDevice(XIAllDevices)` for the hierarchy and classes, `XIListProperties` for
    /// driver properties, and the XI 1 device list for the driver's declared type. A device
    /// unplugged while it is being read keeps what was read so far.
    public func listDevices() throws(X11Error) -> [InputDevice] {
        let typeNames = try deviceTypeNames()
        var atomNames: [Atom: String] = [:]
        let snapshots = try call("XIQueryDevice") { (display) throws(X11Error) -> [DeviceSnapshot] in
            var count: Int32 = 0
            guard let infos = XIQueryDevice(display, XIAllDevices, &count) else { return [] }
            defer { XIFreeDeviceInfo(infos) }
            return (0..<Int(count)).map { DeviceSnapshot(infos[$0]) }
        }
        return snapshots.map { snapshot in
            var traits = snapshot.traits
            traits.typeName = typeNames[snapshot.id]
            traits.propertyNames = (try? devicePropertyNames(snapshot.id, cache: &atomNames)) ?? []
            let (role, reason) = DeviceRole.classify(traits)
            return InputDevice(
                id: snapshot.id, name: snapshot.name, role: role, reason: reason, use: traits.use,
                attachment: snapshot.attachment, enabled: traits.enabled, touch: traits.touch,
                hasGestureClass: traits.hasGestureClass,
                isXTest: traits.propertyNames.contains(DeviceRole.xtestPropertyName))
        }
    }

    /// The names of a device's properties.
    private func devicePropertyNames(_ device: Int, cache: inout [Atom: String]) throws(X11Error) -> Set<String> {
        let atoms = try call("XIListProperties") { display -> [Atom] in
            var count: Int32 = 0
            guard let list = XIListProperties(display, Int32(device), &count) else { return [] }
            defer { XFree(list) }
            return Array(UnsafeBufferPointer(start: list, count: Int(count)))
        }
        let unknown = atoms.filter { cache[$0] == nil }
        if !unknown.isEmpty {
            let names = try call("XGetAtomNames") { display -> [String?] in
                var atoms = unknown
                var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
                guard XGetAtomNames(display, &atoms, Int32(atoms.count), &names) != 0 else { return [] }
                defer { names.forEach { if let name = $0 { XFree(name) } } }
                return names.map { $0.map { String(cString: $0) } }
            }
            for (atom, name) in zip(unknown, names) { if let name { cache[atom] = name } }
        }
        return Set(atoms.compactMap { cache[$0] })
    }

    /// The XI 1 device type (`TOUCHPAD`, `MOUSE`, …) of each device that declares one.
    private func deviceTypeNames() throws(X11Error) -> [Int: String] {
        let types = try call("XListInputDevices") { display -> [(Int, Atom)] in
            var count: Int32 = 0
            guard let list = XListInputDevices(display, &count) else { return [] }
            defer { XFreeDeviceList(list) }
            return (0..<Int(count)).map { (Int(list[$0].id), list[$0].type) }
        }
        var names: [Int: String] = [:]
        var cache: [Atom: String] = [:]
        for (id, type) in types where type != 0 {
            if cache[type] == nil { cache[type] = try atomName(type) }
            names[id] = cache[type]
        }
        return names
    }
}

/// What `XIQueryDevice` said about one device, copied out before the list is freed.
private struct DeviceSnapshot {
    var id: Int
    var name: String
    var attachment: Int
    var traits: DeviceTraits

    init(_ info: XIDeviceInfo) {
        id = Int(info.deviceid)
        name = info.name.map { String(cString: $0) } ?? ""
        attachment = Int(info.attachment)
        traits = DeviceTraits(use: DeviceUse(rawValue: info.use), enabled: info.enabled != 0)
        for index in 0..<Int(info.num_classes) {
            guard let any = info.classes[index] else { continue }
            switch any.pointee.type {
            case XIKeyClass:
                traits.hasKeys = true
            case XIButtonClass, XIValuatorClass, XIScrollClass:
                traits.hasPointerClasses = true
            case XITouchClass:
                let touch = UnsafeRawPointer(any).assumingMemoryBound(to: XITouchClassInfo.self).pointee
                let mode: TouchCapability.Mode = touch.mode == XIDirectTouch ? .direct : .dependent
                traits.touch = TouchCapability(mode: mode, maxTouches: Int(touch.num_touches))
            case XIGestureClass:
                traits.hasGestureClass = true
            default:
                break
            }
        }
    }
}

/// One valuator axis of a device: its range and whether it reports positions or deltas.
struct ValuatorAxis: Hashable {
    var min: Double
    var max: Double
    var absolute: Bool
    /// Units per metre, when the driver says (0: it does not): a touchscreen's physical size.
    var resolution: Double = 0

    /// The range, when the axis has a usable one (XTest and most mice report none).
    var range: ClosedRange<Double>? { max > min ? min...max : nil }
}

extension X11Display {
    /// The x and y axes (valuators 0 and 1) of a device, as `XIQueryDevice` reports them; nil
    /// for an axis the device does not have (or a device that is gone).
    func axes(of device: Int32) throws(X11Error) -> (x: ValuatorAxis?, y: ValuatorAxis?) {
        let state = try pointerState(of: device)
        return (state.x, state.y)
    }

    /// A pointer device's x and y axes and the buttons it holds down now, from one
    /// `XIQueryDevice`. A slave's button state is the device's own, as its raw events have it,
    /// also while its master pointer is frozen by a grab.
    func pointerState(of device: Int32) throws(X11Error) -> (x: ValuatorAxis?, y: ValuatorAxis?, buttonsDown: Set<Int>) {
        try call("XIQueryDevice(\(device))") { handle -> (x: ValuatorAxis?, y: ValuatorAxis?, buttonsDown: Set<Int>) in
            var count: Int32 = 0
            guard let info = XIQueryDevice(handle, device, &count), count > 0 else { return (nil, nil, []) }
            defer { XIFreeDeviceInfo(info) }
            var x: ValuatorAxis? = nil, y: ValuatorAxis? = nil
            var down: Set<Int> = []
            for k in 0..<Int(info.pointee.num_classes) {
                guard let c = info.pointee.classes[k] else { continue }
                if c.pointee.type == XIButtonClass {
                    let b = UnsafeMutableRawPointer(c).assumingMemoryBound(to: XIButtonClassInfo.self).pointee
                    let mask = UnsafeBufferPointer(start: b.state.mask, count: Int(b.state.mask_len))
                    for (index, byte) in mask.enumerated() {
                        for bit in 0..<8 where byte & UInt8(1 << bit) != 0 { down.insert(index * 8 + bit) }
                    }
                }
                guard c.pointee.type == XIValuatorClass else { continue }
                let v = UnsafeMutableRawPointer(c).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                let axis = ValuatorAxis(min: v.min, max: v.max, absolute: v.mode == XIModeAbsolute, resolution: Double(v.resolution))
                if v.number == 0 { x = axis }
                if v.number == 1 { y = axis }
            }
            return (x, y, down)
        }
    }
}

extension X11Display {
    /// Whether `device` exists and is enabled (a disabled or unplugged device sends nothing more).
    func isEnabled(device: Int32) -> Bool {
        (try? call("XIQueryDevice(\(device))") { handle -> Bool in
            var count: Int32 = 0
            guard let info = XIQueryDevice(handle, device, &count), count > 0 else { return false }
            defer { XIFreeDeviceInfo(info) }
            return info.pointee.enabled != 0
        }) ?? false
    }
}
