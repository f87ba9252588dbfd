import Testing
import TOML

/// The TOML parser on its own: what it reads, where it says each key and value is, and what
/// it refuses, and where. The whole toml-test corpus runs through `scripts/toml-conformance`
/// (docs/design.md, «TOML»); the cases here are a small set of our own, one or two for each
/// thing the corpus checks.
@Suite("TOML document")
struct TOMLDocumentTests {
    /// The document as a compact text: tables as `{k: v, …}` (in the order the view gives),
    /// arrays as `[…]`, strings quoted, dates and times as written in RFC 3339.
    static func render(_ table: TOMLTableView) -> String {
        "{" + table.map { "\($0.key): \(render($0.value))" }.joined(separator: ", ") + "}"
    }

    static func render(_ node: TOMLNode) -> String {
        switch node.kind {
        case .table: return render(node.table!)
        case .array: return "[" + node.array!.map(render).joined(separator: ", ") + "]"
        case .string: return "\"" + node.string!.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
        case .integer: return String(node.int!)
        case .float: return "\(node.double!)f"
        case .boolean: return String(node.bool!)
        case .date, .time, .dateTime:
            let value = node.dateTime!
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            var text = value.date.map { "\($0.year)-\(two($0.month))-\(two($0.day))" } ?? ""
            if let time = value.time {
                text += (text.isEmpty ? "" : "T") + "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
                if time.nanosecond != 0 { text += ".\(time.nanosecond)ns" }
            }
            if let offset = value.offsetMinutes { text += offset == 0 ? "Z" : "\(offset)min" }
            return text
        }
    }

    // MARK: - What it reads

    @Test("Valid TOML 1.0 reads as written", arguments: [
        // Comments, blank lines, a byte-order mark, CRLF.
        ("\u{FEFF}# c\r\na = 1 # c\r\n\r\n", "{a: 1}"),
        // Keys: bare, quoted, literal, dotted (with blanks), empty quoted, digits.
        (#"a-b_c = 1"# + "\n" + #""q k" = 2"# + "\n" + "'l.k' = 3\nx . y.z = 4\n\"\" = 5\n1234 = 6\n",
         #"{: 5, 1234: 6, a-b_c: 1, l.k: 3, q k: 2, x: {y: {z: 4}}}"#),
        // Basic strings and their escapes; literal strings keep backslashes.
        (#"s = "tab\tnl\nq\"bs\\u\u00e9U\U0001F600""# + "\nl = 'C:\\path\\'\n",
         #"{l: "C:\\path\\", s: "tab\tnl\nq\"bs\\u\u{00E9}U\u{0001F600}"}"#),
        // Multi-line strings: the first newline trimmed, line-ending backslashes, quotes at the end.
        ("m = \"\"\"\none\ntwo \\\n    three\"\"\"\nq = \"\"\"\"\"quoted\"\"\"\"\"\nr = '''\nraw \\n '' '''\n",
         #"{m: "one\ntwo three", q: "\"\"quoted\"\"", r: "raw \\n \'\' "}"#),
        // Integers: signs, underscores, hex, octal, binary, the 64-bit extremes.
        ("a = +99\nb = -17\nc = 1_000\nd = 0xDEAD_beef\ne = 0o755\nf = 0b1101\ng = 9223372036854775807\nh = -9223372036854775808\ni = 0\n",
         "{a: 99, b: -17, c: 1000, d: 3735928559, e: 493, f: 13, g: 9223372036854775807, h: -9223372036854775808, i: 0}"),
        // Floats: fractions, exponents, underscores, the special values.
        ("a = 3.14\nb = -0.01\nc = 5e+22\nd = 6.626e-34\ne = 224_617.445_991\nf = inf\ng = -inf\nh = 1E2\n",
         "{a: 3.14f, b: -0.01f, c: 5e+22f, d: 6.626e-34f, e: 224617.445991f, f: inff, g: -inff, h: 100.0f}"),
        ("t = true\nf = false\n", "{f: false, t: true}"),
        // Offset and local date-times (T, t or a space), dates and times, fractions.
        ("a = 1979-05-27T07:32:00Z\nb = 1979-05-27 00:32:00.999999-07:00\nc = 1979-05-27t07:32:00\nd = 1979-05-27\ne = 07:32:00.5\nf = 2000-02-29\n",
         "{a: 1979-05-27T07:32:00Z, b: 1979-05-27T00:32:00.999999000ns-420min, c: 1979-05-27T07:32:00, d: 1979-05-27, e: 07:32:00.500000000ns, f: 2000-02-29}"),
        // Arrays: mixed, nested, across lines with comments, a trailing comma.
        ("a = [ 1, 'two', [3.0, []], { x = 4 } ]\nb = [\n  1, # one\n  2,\n]\n",
         #"{a: [1, "two", [3.0f, []], {x: 4}], b: [1, 2]}"#),
        // Inline tables, with dotted keys.
        ("p = { x = 1, y.z = 2 }\ne = {}\n", "{e: {}, p: {x: 1, y: {z: 2}}}"),
        // Tables, a super-table after its sub-table, sub-tables of dotted-key tables.
        ("[a.b]\nc = 1\n[a]\nd = 2\n[f]\ng.h = 3\n[f.g.i]\nj = 4\n", "{a: {b: {c: 1}, d: 2}, f: {g: {h: 3, i: {j: 4}}}}"),
        // Arrays of tables, and a header inside the latest one.
        ("[[a]]\nx = 1\n[[a]]\n[a.b]\ny = 2\n[[a.c]]\n", "{a: [{x: 1}, {b: {y: 2}, c: [{}]}]}"),
    ])
    func reads(text: String, expected: String) throws {
        let document = try TOMLDocument(parsing: text)
        #expect(Self.render(document.root) == expected)
    }

    @Test("A NUL escape is read, and where it is written is kept")
    func nulEscapes() throws {
        let document = try TOMLDocument(parsing: "a = \"x\\u0000y\\u0000\"\n\"k\\U00000000\" = 1\nb = 'no\\u0000'\n")
        #expect(document.root["a"]?.string == "x\0y\0")
        #expect(document.root.keys.contains("k\0"))
        #expect(document.nulEscapes.map(\.description) == ["1:7", "2:3"])
    }

    // MARK: - Where keys and values are

    /// `LINE:COLUMN` of the key and of the value at `path`.
    private func where_(_ document: TOMLDocument, _ path: TOMLPath) -> String {
        guard let location = document[path] else { return "missing" }
        return "\(location.key.map(\.description) ?? "-") \(location.value)"
    }

    @Test("Tables, array-of-table indices and key/value pairs")
    func tables() throws {
        let document = try TOMLDocument(parsing:
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
        #expect(where_(document, "recognizer") == "2:2 2:1")
        #expect(where_(document, "recognizer.slop_px") == "3:1 3:11")
        #expect(where_(document, "recognizer.tap_max_ms") == "4:3 4:14")
        #expect(where_(document, "bind") == "6:3 6:1")
        #expect(where_(document, "bind[0]") == "6:3 6:1")
        #expect(where_(document, "bind[0].gesture") == "7:1 7:11")
        #expect(where_(document, "bind[1]") == "9:4 9:1")
        #expect(where_(document, "bind[1].gesture") == "10:1 10:11")
        #expect(where_(document, "bind[2]") == "missing")
    }

    @Test("Quoted and dotted keys, with escapes")
    func keys() throws {
        let document = try TOMLDocument(parsing:
            #"""
            "quoted key" = 1
            'literal.key' = 2
            a . b.c = 3
            "esc\u0061ped" = 4
            [x."y.z"]
            w = 5
            """#)
        #expect(where_(document, TOMLPath([.key("quoted key")])) == "1:1 1:16")
        #expect(where_(document, TOMLPath([.key("literal.key")])) == "2:1 2:17")
        #expect(where_(document, "a") == "3:1 3:1")
        #expect(where_(document, "a.b") == "3:5 3:5")
        #expect(where_(document, "a.b.c") == "3:7 3:11")
        #expect(where_(document, "escaped") == "4:1 4:18")
        #expect(where_(document, TOMLPath([.key("x"), .key("y.z")])) == "5:4 5:1")
        #expect(where_(document, TOMLPath([.key("x"), .key("y.z"), .key("w")])) == "6:1 6:5")
    }

    @Test("Inline tables and arrays of them, the array across lines")
    func inlineTables() throws {
        // TOML 1.0 keeps each inline table on one line; the array around them may span lines.
        let document = try TOMLDocument(parsing:
            """
            bind = [ { gesture = "tap", action = "click left" },
                     # comment, with a comma
                     { gesture = "swipe", action = "key a" }, ]
            point = { x = 1, y = { z = [1, [2, 3]] } }
            """)
        #expect(where_(document, "bind") == "1:1 1:8")
        #expect(where_(document, "bind[0]") == "- 1:10")
        #expect(where_(document, "bind[0].gesture") == "1:12 1:22")
        #expect(where_(document, "bind[0].action") == "1:29 1:38")
        #expect(where_(document, "bind[1]") == "- 3:10")
        #expect(where_(document, "bind[1].action") == "3:31 3:40")
        #expect(where_(document, "point.y.z[1]") == "- 4:32")
        #expect(where_(document, "point.y.z[1][0]") == "- 4:33")
        #expect(where_(document, "point.y.z[1][1]") == "- 4:36")
    }

    @Test("Strings hide brackets, quotes, comments and newlines")
    func strings() throws {
        let document = try TOMLDocument(parsing:
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
        #expect(where_(document, "b") == "2:1 2:5")
        #expect(where_(document, "bind") == "missing")
        #expect(where_(document, "c") == "6:1 6:5")
        #expect(where_(document, "d") == "7:1 7:5")
        #expect(where_(document, "e") == "8:1 8:5")
        #expect(where_(document, "f[2]") == "- 9:17")
        #expect(where_(document, "g") == "10:1 10:5")
    }

    @Test("Headers inside arrays of tables refer to the latest element")
    func nestedArrays() throws {
        let document = try TOMLDocument(parsing:
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
        #expect(where_(document, "a[0].b[0].x") == "3:1 3:5")
        #expect(where_(document, "a[1].c.y") == "6:1 6:5")
        #expect(where_(document, "a[1].b[0].z") == "8:1 8:5")
    }

    @Test("Columns count Unicode scalars; a byte-order mark takes no column")
    func unicode() throws {
        let document = try TOMLDocument(parsing: "\u{FEFF}\"é\" = \"ü\" # x = 1\n")
        #expect(where_(document, "é") == "1:1 1:7")
    }

    @Test("Paths describe themselves as they are written")
    func pathDescription() {
        #expect(TOMLPath("bind[2].action").description == "bind[2].action")
        #expect(TOMLPath("bind[2].action") == TOMLPath([.key("bind"), .index(2), .key("action")]))
        #expect(TOMLPath([.key("a b"), .key("c")]).description == #""a b".c"#)
        #expect(TOMLPath("a[1][2]").components == [.key("a"), .index(1), .index(2)])
    }

    // MARK: - What it refuses, and where

    @Test("What TOML 1.0 refuses is refused at the character that is wrong", arguments: [
        // Grammar.
        ("[", "1:2", "while parsing table header: expected a key, saw the end of the text"),
        ("[a\n", "1:3", "while parsing table header: expected ']', saw '\\n': write the header as [a]"),
        ("[[a]\n", "1:5", "while parsing table header: expected ']', saw '\\n': write the header as [[a]]"),
        ("a = 1 b = 2\n", "1:7", "while parsing key-value pair: expected a new line or a comment after the value, saw 'b': each key = value is on a line of its own"),
        ("a\n", "1:2", "while parsing key-value pair: expected '=' after the key 'a', saw '\\n': a line holds a key = value, a [header] or a comment"),
        ("a = \n", "1:5", "while parsing key-value pair: expected a value, saw '\\n': write the value after the ="),
        ("a = [1 2]\n", "1:8", "while parsing array: expected ',' or ']', saw '2': the values of an array are separated by ','"),
        ("a = [1,,]\n", "1:8", "while parsing array: expected a value, saw ','"),
        ("a = { b = 1, }\n", "1:14", "while parsing inline table: expected a key, saw '}'"),
        ("a = { b = 1,\n c = 2 }\n", "1:13", "while parsing inline table: expected a key, saw '\\n'"),
        ("\"\"\"k\"\"\" = 1\n", "1:1", "while parsing key-value pair: a key cannot be a multi-line string"),
        // Strings.
        // An unclosed string at its opening quote: where it ends, nothing may look wrong.
        ("a = \"abc\n", "1:5", "while parsing string: the string that starts here has no closing \" on its line: add the \" where the string ends"),
        ("a = '''abc", "1:5", "while parsing string: the string that starts here is not closed: the text ends before its closing '''"),
        ("a = \"\\q\"\n", "1:6", #"while parsing string: unknown escape \q: a basic string knows \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#),
        ("a = \"\\uD800\"\n", "1:6", "while parsing string: \\uD800 is not a Unicode scalar value"),
        ("a = \"\u{7F}\"\n", "1:6", "while parsing string: a string may not contain control characters other than tab (write them as escapes), saw '\\u{7F}'"),
        ("# \u{0}\n", "1:3", "while parsing comment: a comment may not contain control characters other than tab, saw '\\0'"),
        ("a = 1\r", "1:6", "while parsing key-value pair: a carriage return must be followed by a line feed"),
        // Numbers, dates and times.
        ("a = 01\n", "1:6", "while parsing number: '01' is not a TOML integer or float (such as 42, -17, 1_000, 0x1F, 3.14, -2e-3): '1' is not expected there"),
        ("a = 1__0\n", "1:6", "while parsing number: '1__0' is not a TOML integer or float (such as 42, -17, 1_000, 0x1F, 3.14, -2e-3): '_' is not expected there"),
        ("a = 1.\n", "1:7", "while parsing number: '1.' is not a TOML integer or float (such as 42, -17, 1_000, 0x1F, 3.14, -2e-3): its end is not expected there"),
        ("a = 9223372036854775808\n", "1:5", "while parsing integer: '9223372036854775808' is out of range: TOML integers are 64-bit, from -9223372036854775808 to 9223372036854775807"),
        ("a = tru\n", "1:5", "while parsing key-value pair: expected a value (a string, number, boolean, date, array or inline table), saw 'tru': a boolean is written true or false"),
        ("a = 1979-13-01\n", "1:10", "while parsing date-time: the month must be from 1 to 12, not 13"),
        ("a = 2001-02-29\n", "1:13", "while parsing date-time: the day must be from 1 to 28, not 29"),
        ("a = 07:32\n", "1:5", "while parsing date-time: expected a date or time as TOML writes one (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z), saw '07:32'"),
        // Keys and tables defined twice, or reopened.
        ("a = 1\na = 2\n", "2:1", "while parsing key-value pair: 'a' is already defined (1:1)"),
        ("[a]\n[a]\n", "2:2", "while parsing table header: the table 'a' is already defined (by its header at 1:1)"),
        ("a.b = 1\n[a]\n", "2:2", "while parsing table header: the table 'a' is already defined (by dotted keys at 1:1)"),
        ("[a.b]\n[a]\nb.c = 1\n", "3:1", "while parsing key-value pair: a dotted key cannot add to the table 'b' (by its header at 1:1)"),
        ("a = {}\n[a.b]\n", "2:2", "while parsing table header: 'a' is an inline table (1:5), which is complete as written"),
        ("a = { b = 1 }\na.c = 2\n", "2:1", "while parsing key-value pair: a dotted key cannot add to the table 'a' (inline at 1:5)"),
        ("a = []\n[[a]]\n", "2:3", "while parsing table header: 'a' is already an array (1:5), not a table"),
        ("[[a]]\n[a]\n", "2:2", "while parsing table header: 'a' is an array of tables (1:1); [[a]] adds a table to it"),
        ("[a]\n[[a]]\n", "2:3", "while parsing table header: 'a' is a table (by its header at 1:1), not an array of tables"),
        ("a = 1\n[a.b]\n", "2:2", "while parsing table header: 'a' is already an integer (1:5), not a table"),
    ])
    func refuses(text: String, position: String, message: String) throws {
        let error = try #require(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: text) }
        #expect(error.position.description == position, "\(error)")
        #expect(error.description == message)
    }

    @Test("Nesting is refused at the first step too deep, in headers, keys, arrays and inline tables")
    func depth() throws {
        for (text, position) in [
            ("[a.a.a]\n", "1:6"), ("a.a.a = 1\n", "1:5"), ("[a]\na.a = 1\n", "2:3"), ("[[a]]\na = 1\n", "2:1"),
            ("a = [[[1]]]\n", "1:7"), ("a = { a = { a = 1 } }\n", "1:13"), ("[[a.a]]\n", "1:5"),
        ] {
            let error = try #require(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: text, maximumDepth: 2) }
            #expect(error.problem == .tooDeep(limit: 2), "\(text)")
            #expect(error.position.description == position, "\(text)")
        }
        #expect(throws: Never.self) { try TOMLDocument(parsing: "c = [[1]]\n[a.a]\n[[b]]\n", maximumDepth: 3) }
    }

    @Test("Malformed text ends in an error, never a hang or a crash")
    func malformed() {
        for text in ["[", "[[", "a = ", "a = {", "a = [1,", "a = \"", "a = '''", "= 1", "a.", "\"\"\" = 1", "]]]", "a = \"\"\"\"\"\"\"\"\"", "a = 0x", "a = +"] {
            #expect(throws: TOMLSyntaxError.self, "\(text)") { try TOMLDocument(parsing: text) }
        }
    }
}
