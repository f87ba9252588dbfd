import GestureEngine
import Testing

@testable import GestureConfig

/// `[feedback]` and its device tables (docs/config.md, «Feedback»).
@Suite("the [feedback] table")
struct FeedbackConfigTests {
    func errors(_ toml: String) throws -> [String] {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        return thrown.errors.map(\.description)
    }

    static let pointerStroke = "[[bind]]\ngesture = \"stroke\"\nshape = \"circle\"\ndevice = \"pointer\"\naction = \"key F5\"\n"

    @Test func byDefaultTheTrailIsDrawnWhereAStrokeIsBoundAndTheOSDNamesStrokes() throws {
        let none = try Config.parse("[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\naction = \"key a\"\n", file: "c.toml")
        #expect(DeviceKind.allCases.allSatisfy { !none.drawsTrail(for: $0) })
        #expect(!none.showsFeedback, "a swipe is not named by default, and nothing is drawn")

        let pointer = try Config.parse(Self.pointerStroke, file: "c.toml")
        #expect(pointer.drawsTrail(for: .pointer) && !pointer.drawsTrail(for: .touchscreen) && !pointer.drawsTrail(for: .touchpad))
        #expect(pointer.showsFeedback)
        #expect(pointer.feedback.settings(for: .pointer) == Feedback.Settings())
        #expect(pointer.feedback.settings(for: .pointer).osd == [.stroke])

        let anyDevice = try Config.parse("[[bind]]\ngesture = \"stroke\"\nshape = \"v\"\naction = \"key a\"\n", file: "c.toml")
        #expect(anyDevice.drawsTrail(for: .pointer) && anyDevice.drawsTrail(for: .touchscreen) && !anyDevice.drawsTrail(for: .touchpad))
    }

    @Test func theTableAndADevicesTableSayWhatEachDeviceShows() throws {
        let config = try Config.parse("""
            [feedback]
            trail = true
            trail_color = "#FF8800"
            trail_width = 6.5
            osd = ["stroke", "swipe"]
            osd_duration_ms = 900
            [feedback.touchscreen]
            trail = false
            osd = false
            [feedback.pointer]
            trail_color = "#11223344"
            """, file: "c.toml")
        let pointer = config.feedback.settings(for: .pointer)
        #expect(pointer.trailColor == RGBAColor(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(pointer.trailWidth == 6.5 && pointer.osd == [.stroke, .swipe] && pointer.osdDurationMs == 900)
        #expect(config.drawsTrail(for: .pointer) && !config.drawsTrail(for: .touchscreen))
        #expect(config.feedback.settings(for: .touchscreen).osd.isEmpty)
        #expect(config.feedback.settings(for: .touchpad).trailColor.description == "#ff8800ff")
        #expect(try Config.parse("[feedback]\nosd = true\n", file: "c.toml").feedback.base.osd == Set(GestureKind.allCases))
    }

    @Test func mistakesAreErrorsAtTheirLineAndColumn() throws {
        #expect(try errors("[feedback]\ntrail = \"yes\"\n") == ["c.toml:2:9: 'trail' must be true or false, not a string"])
        #expect(try errors("[feedback]\ntrail_color = \"blue\"\n")
            == [##"c.toml:2:15: 'trail_color' must be a colour written "#RRGGBB" or "#RRGGBBAA" (AA: opacity, ff is opaque), not "blue""##])
        #expect(try errors("[feedback]\ntrail_width = 0\n") == ["c.toml:2:15: 'trail_width' must be more than 0, not 0"])
        #expect(try errors("[feedback]\ntrail_width = 100\n")
            == ["c.toml:2:15: 'trail_width' must be at most 64, not 100: a wider line hides what it is drawn over"])
        #expect(try errors("[feedback]\nosd = [\"stroke\", \"swip\"]\n")
            == ["c.toml:2:18: unknown gesture 'swip'; did you mean 'swipe'? (allowed: tap, long-press, swipe, pan, pinch, rotate, stroke)"])
        #expect(try errors("[feedback]\nosd = 1\n")
            == [#"c.toml:2:7: 'osd' must be true, false or an array of gestures (such as ["stroke", "swipe"]), not an integer"#])
        #expect(try errors("[feedback]\nosd_duration_ms = 20\n")
            == ["c.toml:2:19: 'osd_duration_ms' must be from 100 to 10000, not 20: shorter cannot be read, longer is in the way"])
        #expect(try errors("[feedback]\ntrial = true\n") == ["c.toml:2:1: unknown key 'trial' in [feedback]; did you mean 'trail'?"])
        #expect(try errors("[feedback.mouse]\ntrail = true\n")
            == ["c.toml:1:11: unknown table 'mouse' in [feedback] (device tables: [feedback.touchscreen], [feedback.touchpad], [feedback.pointer])"])
        #expect(try errors("[feedback.pointer]\nbutton = 3\n")
            == ["c.toml:2:1: unknown key 'button' in [feedback.pointer]; 'button' belongs in [pointer] (the trigger button of every "
                + "pointer binding) or in a pointer [[bind]] (that binding's own): add a [pointer] or [[bind]] line above it"])
        #expect(try errors("[pointer]\ntrail = true\n")
            == ["c.toml:2:1: unknown key 'trail' in [pointer]; 'trail' belongs in [feedback]: add a [feedback] line above it"])
    }

    @Test func aTouchpadsTrailKeysAreAcceptedWithANoteThatTheyDoNothing() throws {
        let config = try Config.parse("[feedback.touchpad]\ntrail = true\nosd = true\n", file: "c.toml")
        #expect(config.notes.map(\.description)
            == ["c.toml:2:1: 'trail' in [feedback.touchpad] has no effect: a touchpad's gestures are not drawn on the screen, so they leave no trail"])
        #expect(!config.drawsTrail(for: .touchpad))
    }

    @Test func theDefaultConfigsCommentedTableIsValidAndSaysTheDefaults() throws {
        let lines = DefaultConfig.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "# [feedback]"))
        let block = lines[start...].prefix { $0.hasPrefix("#") }.map { $0.dropFirst(2) }.joined(separator: "\n")
        let config = try Config.parse(block, file: "c.toml")
        #expect(config.feedback.base == Feedback.Settings(trail: true))
        #expect(config.feedback.settings(for: .touchscreen) == Feedback.Settings(trail: false))
    }
}
