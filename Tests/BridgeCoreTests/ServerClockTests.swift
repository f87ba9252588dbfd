import BridgeCore
import GestureEngine
import Testing

@Suite struct ServerClockTests {
    @Test func timesAreMillisecondsAsTheServerGivesThem() {
        var clock = ServerClock()
        #expect(clock.instant(serverTime: 1000) == Instant(milliseconds: 1000))
        #expect(clock.instant(serverTime: 1016) == Instant(milliseconds: 1016))
    }

    @Test func aWrapOfThe32BitCounterKeepsTimeGoingForward() {
        var clock = ServerClock()
        let before = clock.instant(serverTime: UInt32.max - 10)
        let after = clock.instant(serverTime: 5)
        #expect((after - before).milliseconds == 16)
        #expect(clock.instant(serverTime: 20) == Instant(milliseconds: 4_294_967_296 + 20))
    }

    @Test func aLateEventFromBeforeTheWrapStaysBeforeIt() {
        var clock = ServerClock()
        _ = clock.instant(serverTime: UInt32.max - 10)
        let after = clock.instant(serverTime: 5)
        let late = clock.instant(serverTime: UInt32.max - 2)
        #expect(late < after)
        #expect(late == Instant(milliseconds: Double(UInt32.max - 2)))
        // …and does not count the wrap again.
        #expect(clock.instant(serverTime: 30) == Instant(milliseconds: 4_294_967_296 + 30))
    }

    @Test func aSlightlyLateEventKeepsItsOwnTime() {
        var clock = ServerClock()
        _ = clock.instant(serverTime: 5000)
        #expect(clock.instant(serverTime: 4990) == Instant(milliseconds: 4990))
        #expect(clock.instant(serverTime: 5010) == Instant(milliseconds: 5010))
    }
}
