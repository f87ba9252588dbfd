import Foundation
import GestureEngine
import GestureTestKit
import Testing

@testable import GestureConfig

/// docs/reliability.md promises that any config under the 1 MiB limit is checked within a
/// second. Hostile configs found work that grew with the square of the config (issue 25, item
/// 2): a stroke compared with every pan before it, every unknown name searched among thousands
/// of names, each message listing every `[[shape]]`, a combination checked key by key against
/// the keys before it.
@Suite("Config check time")
struct ConfigCheckTimeTests {
    /// `unit(n)` repeated with n = 0, 1, … for as long as the text stays under the 1 MiB limit.
    static func filled(_ unit: (Int) -> String) -> String {
        var text = ""
        var n = 0
        while true {
            let next = unit(n)
            if text.utf8.count + next.utf8.count > ConfigFile.maximumSize { return text }
            text += next
            n += 1
        }
    }

    /// The hostile configs, each just under 1 MiB.
    static let hostile: [(name: String, text: @Sendable () -> String)] = [
        // 18,755 bindings: 43.9 s (CPU, release) before.
        ("strokes and pans for different apps", {
            filled { n in
                n % 2 == 0 ? "[[bind]]\ngesture=\"stroke\"\nshape=\"v\"\napp=\"\(n)\"\naction=\"key a\"\n"
                    : "[[bind]]\ngesture=\"pan\"\napp=\"\(n)\"\naction=\"key a\"\n"
            }
        }),
        // 9,562 of each: 20.6 s before, and every message listed every shape.
        ("shapes and strokes naming shapes that do not exist", {
            filled { n in
                "[[shape]]\nname=\"s\(n)\"\npoints=[[0,0],[1,1]]\n[[bind]]\ngesture=\"stroke\"\nshape=\"x\(n)\"\napp=\"\(n)\"\naction=\"key a\"\n"
            }
        }),
        // 18,922 unknown key names, each searched among 2,000 keysyms: 7.3 s before.
        ("unknown key names", {
            filled { n in "[[bind]]\ngesture=\"tap\"\napp=\"\(n)\"\naction=\"key Rtrn\(n)\"\n" }
        }),
        // One combination of 95,000 numeric keysyms, each checked against those before it: minutes.
        ("a combination of 95,000 keys", {
            "[[bind]]\ngesture=\"tap\"\naction=\"key " + filled { n in "0x\(String(0x100_0100 + n, radix: 16))+" }.dropLast(40) + "a\"\n"
        }),
    ]

    /// What a check of `text` found: the number of problems, or -1 when it loaded.
    final class Outcome: @unchecked Sendable {
        var problems: Int?
        var longestMessage = 0
    }

    // A debug build under a full suite's load is many times slower than the release build the
    // promise is about; the limit separates linear from quadratic (minutes here), not the
    // second. The check runs on a thread of its own with the deadline counted from its start
    // (a `.timeLimit` trait counts from when the test is scheduled).
    static let debugLimit = DispatchTimeInterval.seconds(30)

    @Test("A hostile 1 MiB config is checked in linear time", arguments: hostile.indices)
    func hostileConfig(index: Int) throws {
        let (name, make) = Self.hostile[index]
        let text = make()
        #expect(text.utf8.count > 900_000 && text.utf8.count <= ConfigFile.maximumSize, "\(name): \(text.utf8.count) bytes")
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(ConfigErrors) {
                _ = try Config.parse(text, file: "c.toml")
                outcome.problems = -1
            } catch {
                outcome.problems = error.errors.count
                outcome.longestMessage = error.errors.map(\.message.utf8.count).max() ?? 0
            }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + Self.debugLimit) == .success, "\(name): not checked within \(Self.debugLimit)")
        // Each problem is still reported, and no message grows with the config.
        #expect(outcome.problems != nil, "\(name)")
        #expect(outcome.longestMessage < 2_000, "\(name): a message of \(outcome.longestMessage) bytes")
    }

    @Test("A stroke and a pan for different apps do not compete; the earliest competitor is named")
    func strokesAndPans() throws {
        let config = try Config.parse(Self.hostile[0].text(), file: "c.toml")
        #expect(config.bindings.count == 18_755)
        let thrown = try #require(throws: ConfigErrors.self) {
            try Config.parse(
                """
                [[bind]]
                gesture = "pan"
                app = "a"
                action = "key a"
                [[bind]]
                gesture = "pan"
                action = "key b"
                [[bind]]
                gesture = "stroke"
                shape = "v"
                app = "a"
                action = "key c"
                """, file: "c.toml")
        }
        #expect(thrown.errors.map(\.message).first?.hasPrefix("this stroke competes with the pan at 1:1 ") == true, "\(thrown)")
    }

    /// Which bindings of a list `StrokePanConflicts` refuses, and whom each refusal names.
    static func refusals(_ triggers: [Trigger]) -> [String?] {
        var conflicts = StrokePanConflicts(pointerButton: 3)
        return triggers.enumerated().map { index, trigger in
            conflicts.add(trigger, at: SourcePosition(file: "c.toml", line: index + 1, column: 1))
        }
    }

    /// The rule as docs/design.md words it, pair by pair: the refusals a walk over every
    /// binding before would make (the check before issue 25).
    static func refusalsPairByPair(_ triggers: [Trigger]) -> [String?] {
        var kept: [(Trigger, Int)] = []
        return triggers.enumerated().map { index, trigger -> String? in
            guard trigger.gesture == .stroke || trigger.gesture == .pan else { return nil }
            let differentButtons = { (other: Trigger) in other.pointerButton(default: 3) != trigger.pointerButton(default: 3) }
            let shared = { (other: Trigger) in
                DeviceKind.allCases.filter { trigger.applies(to: $0) && other.applies(to: $0) && !($0 == .pointer && differentButtons(other)) }
            }
            let met = kept.first { other, _ in
                other.gesture != trigger.gesture && other.fingers == trigger.fingers && !shared(other).isEmpty
                    && (other.app == nil || trigger.app == nil || other.app == trigger.app)
                    && (other.monitor == nil || trigger.monitor == nil || other.monitor == trigger.monitor)
                    && (other.modifiers == nil || trigger.modifiers == nil || other.modifiers == trigger.modifiers)
            }
            guard let (other, line) = met else {
                kept.append((trigger, index + 1))
                return nil
            }
            return "\(other.gesture.rawValue) at \(line):1 for \(trigger.fingers)-finger gestures on the "
                + shared(other).map(\.rawValue).joined(separator: " and ")
        }
    }

    @Test("The indexed check refuses exactly what a check pair by pair refuses, naming the same binding", arguments: 0..<40)
    func sameAsPairByPair(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let devices: [DeviceKind?] = [nil, .pointer, .touchscreen, .touchpad]
        let names: [String?] = [nil, "a", "b"]
        let modifierSets: [Modifiers?] = [nil, [], .ctrl, [.ctrl, .shift]]
        let buttons: [Int?] = [nil, 1, 3]
        let triggers = (0..<60).map { _ in
            Trigger(
                gesture: random.below(2) == 0 ? .stroke : .pan, fingers: 1 + random.below(2),
                device: devices[random.below(4)], app: names[random.below(3)], monitor: names[random.below(3)], shape: "v",
                modifiers: modifierSets[random.below(4)], button: buttons[random.below(3)])
        }
        let indexed = Self.refusals(triggers).map { $0.map { String($0.split(separator: " competes with the ", maxSplits: 1).last ?? "") } }
        let expected = Self.refusalsPairByPair(triggers)
        for (got, want) in zip(indexed, expected) {
            #expect((got == nil) == (want == nil))
            if let got, let want { #expect(got.hasPrefix(want), "\(got) vs \(want)") }
        }
    }
}
