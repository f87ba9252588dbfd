import Testing

@testable import GestureConfig

@Suite("TOML locator")
struct TOMLLocatorTests {
    /// `LINE:COLUMN` of the key and of the value at `path`.
    private func where_(_ locator: TOMLLocator, _ path: TOMLPath) -> String {
        guard let location = locator[path] else { return "missing" }
        let key = location.key.map { "\($0.line):\($0.column)" } ?? "-"
        return "\(key) \(location.value.line):\(location.value.column)"
    }

    @Test("Tables, array-of-table indices and key/value pairs")
    func tables() {
        let locator = TOMLLocator(
            """
            # a comment with [brackets] and = signs
            [recognizer]   # trailing comment
            slop_px = 10
              tap_max_ms=300

            [[bind]]
            gesture = "tap"

            [[ bind ]]
            gesture = 'swipe'
            """)
        #expect(where_(locator, "recognizer") == "2:2 2:1")
        #expect(where_(locator, "recognizer.slop_px") == "3:1 3:11")
        #expect(where_(locator, "recognizer.tap_max_ms") == "4:3 4:14")
        #expect(where_(locator, "bind") == "6:3 6:1")
        #expect(where_(locator, "bind[0]") == "6:3 6:1")
        #expect(where_(locator, "bind[0].gesture") == "7:1 7:11")
        #expect(where_(locator, "bind[1]") == "9:4 9:1")
        #expect(where_(locator, "bind[1].gesture") == "10:1 10:11")
        #expect(where_(locator, "bind[2]") == "missing")
    }

    @Test("Quoted and dotted keys, with escapes")
    func keys() {
        let locator = TOMLLocator(
            #"""
            "quoted key" = 1
            'literal.key' = 2
            a . b.c = 3
            "esc\u0061ped" = 4
            [x."y.z"]
            w = 5
            """#)
        #expect(where_(locator, TOMLPath([.key("quoted key")])) == "1:1 1:16")
        #expect(where_(locator, TOMLPath([.key("literal.key")])) == "2:1 2:17")
        #expect(where_(locator, "a") == "3:1 3:1")
        #expect(where_(locator, "a.b") == "3:5 3:5")
        #expect(where_(locator, "a.b.c") == "3:7 3:11")
        #expect(where_(locator, "escaped") == "4:1 4:18")
        #expect(where_(locator, TOMLPath([.key("x"), .key("y.z")])) == "5:4 5:1")
        #expect(where_(locator, TOMLPath([.key("x"), .key("y.z"), .key("w")])) == "6:1 6:5")
    }

    @Test("Inline tables and arrays of them, across lines")
    func inlineTables() {
        let locator = TOMLLocator(
            """
            bind = [ { gesture = "tap", action = "click left" },
                     # comment, with a comma
                     { gesture = "swipe",
                       action = "key a" }, ]
            point = { x = 1, y = { z = [1, [2, 3]] } }
            """)
        #expect(where_(locator, "bind") == "1:1 1:8")
        #expect(where_(locator, "bind[0]") == "- 1:10")
        #expect(where_(locator, "bind[0].gesture") == "1:12 1:22")
        #expect(where_(locator, "bind[0].action") == "1:29 1:38")
        #expect(where_(locator, "bind[1]") == "- 3:10")
        #expect(where_(locator, "bind[1].action") == "4:12 4:21")
        #expect(where_(locator, "point.y.z[1]") == "- 5:32")
        #expect(where_(locator, "point.y.z[1][0]") == "- 5:33")
        #expect(where_(locator, "point.y.z[1][1]") == "- 5:36")
    }

    @Test("Strings hide brackets, quotes, comments and newlines")
    func strings() {
        let locator = TOMLLocator(
            #"""
            a = "[not] # a \" table"
            b = """
            [[bind]]
            x = "y" \
            """
            c = '''it's ''not'' over''''
            d = 'C:\path\'
            e = 1979-05-27 07:32:00Z # date
            f = [ "]", ']', """,""" ]
            g = true
            """#)
        #expect(where_(locator, "b") == "2:1 2:5")
        #expect(where_(locator, "bind") == "missing")
        #expect(where_(locator, "c") == "6:1 6:5")
        #expect(where_(locator, "d") == "7:1 7:5")
        #expect(where_(locator, "e") == "8:1 8:5")
        #expect(where_(locator, "f[2]") == "- 9:17")
        #expect(where_(locator, "g") == "10:1 10:5")
    }

    @Test("Headers inside arrays of tables refer to the latest element")
    func nestedArrays() {
        let locator = TOMLLocator(
            """
            [[a]]
            [[a.b]]
            x = 1
            [[a]]
            [a.c]
            y = 2
            [[a.b]]
            z = 3
            """)
        #expect(where_(locator, "a[0].b[0].x") == "3:1 3:5")
        #expect(where_(locator, "a[1].c.y") == "6:1 6:5")
        #expect(where_(locator, "a[1].b[0].z") == "8:1 8:5")
    }

    @Test("Columns count Unicode scalars; a byte-order mark takes no column")
    func unicode() {
        let locator = TOMLLocator("\u{FEFF}\"é\" = \"ü\" ; x = 1\n")
        #expect(where_(locator, "é") == "1:1 1:7")
    }

    @Test("Malformed text still ends")
    func malformed() {
        for text in ["[", "[[", "a = ", "a = {", "a = [1,", "a = \"", "a = '''", "= 1", "a.", "\"\"\" = 1", "]]]"] {
            _ = TOMLLocator(text)
        }
    }

    @Test("Paths describe themselves as they are written")
    func pathDescription() {
        #expect(TOMLPath("bind[2].action").description == "bind[2].action")
        #expect(TOMLPath("bind[2].action") == TOMLPath([.key("bind"), .index(2), .key("action")]))
        #expect(TOMLPath([.key("a b"), .key("c")]).description == #""a b".c"#)
        #expect(TOMLPath("a[1][2]").components == [.key("a"), .index(1), .index(2)])
    }
}
