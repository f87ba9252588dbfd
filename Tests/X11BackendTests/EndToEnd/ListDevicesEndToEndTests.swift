import Foundation
import ProcessTestKit
import Testing

/// `gesture-bridge list-devices [--json]` as a user or a script runs it, on real servers.
@Suite("list-devices, end to end")
struct ListDevicesEndToEndTests {
    /// `list-devices --json`'s lines, each parsed as one JSON object.
    static func devices(on server: XServer) throws -> (run: ProgramRun, objects: [[String: Any]]) {
        let run = try DoctorEndToEndTests.run(["list-devices", "--json"], environment: ["DISPLAY": server.name])
        let objects = try run.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        return (run, objects)
    }

    @Test("on Xvfb: one JSON object per device, the same devices and roles as the text listing")
    func xvfbJSON() throws {
        try XServer.with { server in
            let (run, objects) = try Self.devices(on: server)
            #expect(run.status == 0, "\(run.log)")
            let text = try DoctorEndToEndTests.run(["list-devices"], environment: ["DISPLAY": server.name])
            let textLines = text.out.split(separator: "\n").dropFirst()
            #expect(objects.count == textLines.count, "\(run.log)\n\(text.log)")
            let mouse = try #require(objects.first { $0["name"] as? String == "Xvfb mouse" }, "\(run.log)")
            #expect(mouse["role"] as? String == "pointer")
            #expect(mouse["use"] as? String == "slave pointer")
            #expect(mouse["enabled"] as? Bool == true && mouse["xtest"] as? Bool == false)
            #expect(mouse["touch"] == nil)
            let xtest = objects.filter { $0["xtest"] as? Bool == true }
            #expect(xtest.count == 2 && xtest.allSatisfy { $0["role"] as? String == "ignored" }, "\(run.log)")
            for (object, line) in zip(objects, textLines) {
                let id = try #require(object["id"] as? Int)
                #expect(line.hasPrefix(String(id).leftPadded(to: 3) + "  " + ((object["role"] as? String) ?? "?")), "\(line) vs \(object)")
            }
        }
    }

    @Test("on Xorg with inputtest: the touchscreen's direct touch class and the touchpad's gestures",
          .enabled(if: XServer.isRoot, "headless Xorg needs root; as root a missing xserver-xorg-core or xserver-xorg-video-dummy fails the test"))
    func xorgJSON() throws {
        try XServer.with(.xorgInputTest) { server in
            let (run, objects) = try Self.devices(on: server)
            #expect(run.status == 0, "\(run.log)")
            let touchscreen = try #require(objects.first { $0["name"] as? String == "Test Touchscreen" }, "\(run.log)")
            #expect(touchscreen["role"] as? String == "touchscreen")
            #expect(touchscreen["touch"] as? String == "direct" && touchscreen["max_touches"] as? Int == 10, "\(touchscreen)")
            let touchpad = try #require(objects.first { $0["name"] as? String == "Test Touchpad" }, "\(run.log)")
            #expect(touchpad["role"] as? String == "touchpad" && touchpad["gestures"] as? Bool == true, "\(touchpad)")
        }
    }
}

private extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
