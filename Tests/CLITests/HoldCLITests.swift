import Foundation
import GestureTestKit
import Testing

/// Action lists and held keys through the real binary: check-config and replay.
@Suite("action lists and held keys on the command line")
struct HoldCLITests {
    /// The window-switching pair, its pan right with an action list.
    static let config = HoldConfigs.pointerWindowSwitching
        .replacingOccurrences(of: #"action = "key Tab""#, with: #"action = ["key Tab", "exec true"]"#)

    @Test("check-config accepts action lists and hold")
    func accepts() throws {
        let r = try CLI.run(["check-config", CLI.file("holds.toml", Self.config)])
        #expect(r.status == 0, "\(r.err)")
    }

    @Test("check-config names the bad element and the misplaced hold, each at its line and column")
    func rejects() throws {
        let f = CLI.file("bad-holds.toml", """
            [[bind]]
            gesture = "pan"
            action = [
              "key Tab",
              "key Rigth",
            ]

            [[bind]]
            gesture = "tap"
            hold = "alt"
            action = []
            """)
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 2)
        let lines = r.err.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(f):5:3: unknown key name 'Rigth'") }, "\(r.err)")
        #expect(lines.contains { $0.hasPrefix("\(f):10:1: 'hold' does not apply to tap") }, "\(r.err)")
        #expect(lines.contains { $0.hasPrefix("\(f):11:10: 'action' lists no action") }, "\(r.err)")
    }

    @Test("replay --json prints the list as an array, hold on each firing and release on the end")
    func replay() throws {
        var trace = [#"{"t":0,"type":"button-press","button":3,"x":100,"y":400}"#]
        var x = 100
        for k in 1...10 { x += 25; trace.append(#"{"t":\#(k * 10),"type":"motion","x":\#(x),"y":400}"#) }
        for k in 11...16 { x -= 25; trace.append(#"{"t":\#(k * 10),"type":"motion","x":\#(x),"y":400}"#) }
        trace.append(#"{"t":200,"type":"button-release","button":3,"x":\#(x),"y":400}"#)
        let t = CLI.file("pan.trace", trace.joined(separator: "\n") + "\n")
        let r = try CLI.run(["replay", t, "--json", "--config", CLI.file("holds2.toml", Self.config)])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        let firing = lines.filter { $0.contains(#""action":"#) }
        #expect(firing.first?.hasSuffix(#""action":["key Tab","exec true"],"hold":"alt"}"#) == true, "\(r.out)")
        #expect(firing.last?.hasSuffix(#""action":"key shift+Tab","hold":"alt"}"#) == true, "\(r.out)")
        #expect(firing.allSatisfy { $0.contains(#""hold":"alt""#) })
        #expect(lines.last?.contains(#""phase":"ended""#) == true && lines.last?.hasSuffix(#""release":"alt"}"#) == true, "\(r.out)")
        #expect(lines.filter { $0.contains("release") }.count == 1)
    }
}
