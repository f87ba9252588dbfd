import Foundation
import Testing

/// `gesture-bridge shapes`: the installed picture's path (InstallTests checks it in an install),
/// or a message and exit 1 for a binary that was not installed with it.
@Suite struct ShapesCommandTests {
    @Test func aBinaryWithoutThePictureBesideItSaysWhereToFindItAndExits1() throws {
        let result = try CLI.run(["shapes"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("the picture of the built-in shapes is not installed beside this gesture-bridge"), "\(result.err)")
        #expect(result.err.contains("docs/shapes.svg"))
    }

    @Test func globalFlagsThatMeanNothingHereAreRefused() throws {
        let result = try CLI.run(["shapes", "--json"])
        #expect(result.status == 64, "\(result.err)")
    }
}
