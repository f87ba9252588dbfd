import BridgeCore
import Testing

@Suite("letting go of start-up pages")
struct ResidentPagesTests {
    /// A cut of a real `/proc/PID/smaps` of gesture-bridge, one mapping of each kind.
    static let smaps = """
        55d0c1a00000-55d0c2867000 r-xp 00000000 fe:00 1409116                    /usr/bin/gesture-bridge
        Size:              14748 kB
        Rss:                7440 kB
        Pss:                7440 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me
        55d0c2868000-55d0c28c2000 r--p 00e67000 fe:00 1409116                    /usr/bin/gesture-bridge
        Rss:                 360 kB
        Anonymous:           360 kB
        55d0c28c2000-55d0c2ada000 rw-p 00ec1000 fe:00 1409116                    /usr/bin/gesture-bridge
        Rss:                1188 kB
        Anonymous:           152 kB
        55d0c3000000-55d0c3100000 rw-p 00000000 00:00 0                          [heap]
        Rss:                 296 kB
        Anonymous:           296 kB
        7f2a10000000-7f2a10028000 r--p 00000000 fe:00 131                        /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                 160 kB
        Anonymous:             0 kB
        7f2a10028000-7f2a101bd000 r-xp 00028000 fe:00 131                        /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                1240 kB
        Anonymous:             0 kB
        7f2a20000000-7f2a20001000 r--s 00000000 00:05 7                          /SYSV00000000 (deleted)
        Rss:                   4 kB
        Anonymous:             0 kB
        7f2a30000000-7f2a30001000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   4 kB
        Anonymous:             0 kB
        7f2a40000000-7f2a40002000 r--p 00000000 00:00 0                          /tmp/a file with spaces
        Rss:                   8 kB
        Anonymous:             0 kB
        7f2a50000000-7f2a50001000 r--p 00000000 00:06 42                         /dev/some-device
        Rss:                   4 kB
        Anonymous:             0 kB
        """

    @Test("only private read-only file mappings without private pages are let go of")
    func releasableMappings() {
        let found = ResidentPages.releasable(smaps: Self.smaps)
        #expect(found.map(\.path) == [
            "/usr/bin/gesture-bridge", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/tmp/a file with spaces",
        ])
        #expect(found.map(\.residentKB) == [7440, 160, 1240, 8])
        #expect(found.first?.start == 0x55d0_c1a0_0000)
        #expect(found.first?.end == 0x55d0_c286_7000)
    }

    @Test("the relocated (written) and writable mappings are kept")
    func keepsWrittenPages() {
        let found = ResidentPages.releasable(smaps: Self.smaps)
        #expect(!found.contains { $0.start == 0x55d0_c286_8000 }, "r--p with anonymous pages: relocated data")
        #expect(!found.contains { $0.start == 0x55d0_c28c_2000 }, "writable")
        #expect(!found.contains { $0.path == "[heap]" || $0.path == "[vdso]" })
    }

    @Test("trimming the running test process keeps it working")
    func trimsItself() {
        let before = ResidentPages.releasable(smaps: "")
        #expect(before.isEmpty)
        let released = ResidentPages.trim()
        #expect(released >= 0)
        // Code that ran before runs again: mapped back from the page cache.
        #expect(ResidentPages.releasable(smaps: Self.smaps).count == 4)
    }
}
