import Foundation
import Testing

/// `gesture-bridge doctor` where no X server is needed: without DISPLAY, with an invalid
/// config, and the flags it refuses.
@Suite struct DoctorCLITests {
    @Test func withoutDisplayItFailsClearlyAndStillChecksTheConfig() throws {
        let r = try CLI.run(["doctor"])
        #expect(r.status == 1, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "fail  display: DISPLAY is not set", "\(r.out)")
        let advice = lines.first { $0.hasPrefix("      → run gesture-bridge inside your X session, or set DISPLAY") }
        #expect(advice != nil, "\(r.out)")
        let config = lines.first { $0.hasPrefix("ok    config: no config file") }
        #expect(config?.contains("the embedded default, valid") == true, "\(r.out)")
        #expect(lines.last == "gesture-bridge cannot run here (1 failed)", "\(r.out)")
        #expect(r.err.isEmpty, "\(r.err)")
    }

    @Test func anInvalidConfigFailsWithEveryProblemAsFileLineColumn() throws {
        let f = CLI.file("doctor-bad.toml", "[recognizer]\nslop = 3\n\n[[bind]]\ngesture = \"swipe\"\ndirection = \"sideways\"\naction = \"click left\"\n")
        let r = try CLI.run(["doctor", "--config", f])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        let config = lines.first { $0.hasPrefix("fail  config: \(f): 2 problems") }
        #expect(config != nil, "\(r.out)")
        let positions = lines.filter { $0.hasPrefix("      \(f):") }.map { $0.dropFirst(6).prefix { $0 != " " } }
        #expect(positions == ["\(f):2:1:", "\(f):6:13:"], "\(r.out)")
    }

    @Test func jsonIsOneObjectPerCheck() throws {
        let r = try CLI.run(["doctor", "--json"])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2, "display and config (without a display, no lock to look at): \(r.out)")
        let first = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        #expect(first?["check"] as? String == "display")
        #expect(first?["status"] as? String == "fail")
        #expect(first?["message"] as? String == "DISPLAY is not set")
        #expect((first?["advice"] as? String)?.isEmpty == false)
    }

    @Test func flagsThatMeanNothingForDoctorAreUsageErrors() throws {
        for flag in ["--dry-run", "--verbose"] {
            let r = try CLI.run(["doctor", flag])
            #expect(r.status == 64, "\(flag): \(r.err)")
            #expect(r.err.contains("means nothing for doctor"), "\(flag): \(r.err)")
        }
    }

    @Test func helpListsDoctor() throws {
        let r = try CLI.run(["--help"])
        #expect(r.out.contains("doctor"), "\(r.out)")
    }
}
