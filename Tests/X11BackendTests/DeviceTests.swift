import Testing
@testable import X11Backend

@Suite("Device discovery")
struct DeviceTests {
    @Test("on Xvfb, the XTEST devices are ignored and the virtual core devices are masters")
    func xvfbDevices() throws {
        try XServer.with { server in
            let devices = try X11Display(name: server.name).listDevices()
            func device(_ name: String) throws -> InputDevice {
                try #require(devices.first { $0.name == name }, "no \(name) in \(devices.map(\.name))")
            }
            let corePointer = try device("Virtual core pointer")
            #expect(corePointer.use == .masterPointer)
            #expect(corePointer.use.isMaster)
            #expect(corePointer.role == .pointer)
            let coreKeyboard = try device("Virtual core keyboard")
            #expect(coreKeyboard.use == .masterKeyboard)
            #expect(coreKeyboard.role == .keyboard)
            #expect(coreKeyboard.attachment == corePointer.id)

            for name in ["Virtual core XTEST pointer", "Virtual core XTEST keyboard"] {
                let xtest = try device(name)
                #expect(xtest.role == .ignored)
                #expect(xtest.isXTest)
                #expect(!xtest.use.isMaster)
                #expect(xtest.reason == "XTEST device (injected input)")
            }
            #expect(try device("Virtual core XTEST pointer").attachment == corePointer.id)

            let mouse = try device("Xvfb mouse")
            #expect(mouse.use == .slavePointer)
            #expect(mouse.role == .pointer)
            #expect(mouse.touch == nil)
            #expect(try device("Xvfb keyboard").role == .keyboard)
            #expect(devices.filter { $0.role == .touchscreen || $0.role == .touchpad }.isEmpty)
        }
    }

    @Test("on Xorg with inputtest devices, direct touch is a touchscreen and a gesture device a touchpad",
          .enabled(if: XServer.isRoot, "headless Xorg needs root; as root a missing xserver-xorg-core or xserver-xorg-video-dummy fails the test"))
    func xorgTouchDevices() throws {
        try XServer.with(.xorgInputTest) { server in
            let devices = try X11Display(name: server.name).listDevices()
            let touchscreen = try #require(devices.first { $0.name == "Test Touchscreen" })
            #expect(touchscreen.role == .touchscreen)
            #expect(touchscreen.touch == TouchCapability(mode: .direct, maxTouches: 10))
            #expect(touchscreen.use == .slavePointer)
            let touchpad = try #require(devices.first { $0.name == "Test Touchpad" })
            #expect(touchpad.role == .touchpad)
            #expect(touchpad.hasGestureClass)
            #expect(touchpad.touch == nil)
            #expect(touchpad.reason == "XI 2.4 gesture class")
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var traits: DeviceTraits
        var role: DeviceRole
        var testDescription: String { name }
    }

    @Test("roles follow the server's classes, properties and types", arguments: [
        Case(name: "direct touch is a touchscreen",
             traits: DeviceTraits(use: .slavePointer, touch: .init(mode: .direct, maxTouches: 10), hasPointerClasses: true),
             role: .touchscreen),
        Case(name: "dependent touch is a touchpad",
             traits: DeviceTraits(use: .slavePointer, touch: .init(mode: .dependent, maxTouches: 5), hasPointerClasses: true),
             role: .touchpad),
        Case(name: "an XI 2.4 gesture class is a touchpad",
             traits: DeviceTraits(use: .slavePointer, hasGestureClass: true, hasPointerClasses: true), role: .touchpad),
        Case(name: "libinput's tapping property is a touchpad",
             traits: DeviceTraits(use: .slavePointer, hasPointerClasses: true, propertyNames: ["libinput Tapping Enabled", "Device Enabled"]),
             role: .touchpad),
        Case(name: "synaptics properties are a touchpad",
             traits: DeviceTraits(use: .slavePointer, hasPointerClasses: true, propertyNames: ["Synaptics Off"]), role: .touchpad),
        Case(name: "the TOUCHPAD device type is a touchpad",
             traits: DeviceTraits(use: .slavePointer, hasPointerClasses: true, typeName: "TOUCHPAD"), role: .touchpad),
        Case(name: "a plain mouse is a pointer",
             traits: DeviceTraits(use: .slavePointer, hasPointerClasses: true, propertyNames: ["libinput Accel Speed"], typeName: "MOUSE"),
             role: .pointer),
        Case(name: "an XTEST pointer is ignored even with pointer classes",
             traits: DeviceTraits(use: .slavePointer, hasPointerClasses: true, propertyNames: ["XTEST Device"]), role: .ignored),
        Case(name: "a disabled touchscreen is ignored",
             traits: DeviceTraits(use: .slavePointer, enabled: false, touch: .init(mode: .direct, maxTouches: 10)), role: .ignored),
        Case(name: "a floating touchscreen is still a touchscreen",
             traits: DeviceTraits(use: .floatingSlave, touch: .init(mode: .direct, maxTouches: 2)), role: .touchscreen),
        Case(name: "a floating keyboard is a keyboard",
             traits: DeviceTraits(use: .floatingSlave, hasKeys: true), role: .keyboard),
        Case(name: "a slave keyboard is a keyboard",
             traits: DeviceTraits(use: .slaveKeyboard, hasKeys: true), role: .keyboard),
        Case(name: "a master pointer is the pointer", traits: DeviceTraits(use: .masterPointer), role: .pointer),
    ])
    func classification(_ example: Case) {
        #expect(DeviceRole.classify(example.traits).role == example.role)
    }
}
