import Foundation
import GestureConfig
import GestureEngine
import Testing

@testable import BridgeCore

/// `replay` in linear time, whatever the trace holds (issue 25, item 8): touches that never
/// end and a line of thousands of monitors once cost their square — 10^6 touch begins took over
/// two minutes, a line of 15,800 monitors a second.
@Suite("Replay time")
struct ReplayTimeTests {
    // A debug build under a full suite's load; the limit separates linear (seconds) from
    // quadratic (minutes here). The work runs on a thread of its own with the deadline counted
    // from its start (a `.timeLimit` trait counts from when the test is scheduled).
    static let limit = DispatchTimeInterval.seconds(30)

    /// Runs `body` on a thread of its own; fails when it takes longer than `limit`.
    static func within(_ what: String, limit: DispatchTimeInterval = limit, _ body: @escaping @Sendable () -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        try #require(done.wait(timeout: .now() + limit) == .success, "\(what): not done within \(limit)")
    }

    /// Counts, handed from the worker thread.
    final class Counts: @unchecked Sendable {
        var events = 0
        var releases = 0
        var failure: String?
    }

    @Test("200,000 touches that never end are replayed in linear time, each given back once")
    func openTouches() throws {
        let begins = 200_000
        var text = #"{"t":0,"type":"screen","width":1280,"height":800}"# + "\n"
        for id in 1...begins {
            text += #"{"t":\#(1000 + id / 10),"type":"touch-begin","id":\#(id),"x":\#(100 + id % 1000),"y":400}"# + "\n"
        }
        let config = try Config.parse(
            "[[bind]]\ngesture = \"tap\"\nfingers = 2\ndevice = \"touchscreen\"\naction = \"key a\"\n", file: "c.toml")
        let counts = Counts()
        try Self.within("\(begins) open touches") { [text] in
            let pipeline = Pipeline(config: config, performer: nil, arbiter: nil) { event in
                if case .passedOn(.touch, _) = event { counts.releases += 1 }
            }
            var reader = TraceReader(text: text, name: "open.trace")
            do {
                while let event = try reader.next() {
                    pipeline.handle(event)
                    counts.events += 1
                }
            } catch {
                counts.failure = "\(error)"
            }
        }
        #expect(counts.failure == nil)
        #expect(counts.events == begins + 1)
        // The first two make the group; every later finger belongs to the hand and is given back.
        #expect(counts.releases >= begins - 2, "\(counts.releases)")
    }

    @Test("A screen line of 15,000 monitors (a line may be 1 MiB) is read in linear time, and a name listed twice is still found")
    func manyMonitors() throws {
        let count = 15_000
        let monitors = (0..<count).map { #"{"name":"M\#($0)","x":\#($0),"y":0,"width":1,"height":800}"# }
        let line = #"{"t":0,"type":"screen","width":\#(count),"height":800,"monitors":["# + monitors.joined(separator: ",") + "]}\n"
        let twice = line.replacingOccurrences(of: #""name":"M\#(count - 1)""#, with: #""name":"M0""#)
        let counts = Counts()
        // 1.6 s here in a debug build; 20 s before.
        try Self.within("\(count) monitors", limit: .seconds(10)) {
            var reader = TraceReader(text: line, name: "m.trace")
            if case .screen(_, _, let read)? = (try? reader.next())?.kind { counts.events = read.count }
            var repeated = TraceReader(text: twice, name: "m.trace")
            do {
                _ = try repeated.next()
            } catch {
                counts.failure = "\(error)"
            }
        }
        #expect(counts.events == count)
        #expect(counts.failure?.contains(#"monitor 15000 in "monitors": the name "M0" is listed twice"#) == true, "\(counts.failure ?? "no error")")
    }
}
