import POSIX
import X11Backend

#if canImport(Glibc)
import Glibc
#endif

/// The OSD's glyph renderer (``OSDGlyphs``): this same binary, started by the daemon as
/// `gesture-bridge --osd-glyphs DISPLAY SIZES CHARACTERS` (sizes `17,25`, characters as
/// hexadecimal code points `41,2192`) with a pipe as its standard output, to which it writes
/// the glyphs and exits. Fontconfig and FreeType run here, not in the daemon. Not a command for
/// people, so not one of argument-parser's: it is recognised before the command line is parsed
/// and appears in no help, manual or completion.
enum OSDGlyphRender {
    /// The word that starts the renderer.
    static let flag = "--osd-glyphs"

    /// The renderer's command for the daemon of this process, without its request: the binary
    /// this daemon runs, as ``HeldInputWatch/command(display:)`` finds it.
    static var command: [String] { [HeldInputWatch.executable, flag] }

    /// Runs the renderer and exits, when `arguments` (the whole command line) start it.
    static func runIfAsked(_ arguments: [String]) {
        guard arguments.count >= 2, arguments[1] == flag else { return }
        exit(run(Array(arguments.dropFirst(2))))
    }

    /// The exit status: 0 with the glyphs written, else an ``OSDGlyphs/Failure``.
    static func run(_ request: [String]) -> Int32 {
        guard request.count == 3 else { return OSDGlyphs.Failure.usage.rawValue }
        let sizes = request[1].split(separator: ",").compactMap { Int($0) }.filter { (1...1000).contains($0) }
        let characters = request[2].split(separator: ",").compactMap { UInt32($0, radix: 16) }
        guard !sizes.isEmpty, !characters.isEmpty else { return OSDGlyphs.Failure.usage.rawValue }
        do throws(OSDGlyphs.Failure) {
            let faces = try OSDGlyphs.render(displayName: request[0].isEmpty ? nil : request[0], pixelSizes: sizes, characters: characters)
            let bytes = OSDGlyphs.encode(faces)
            let written: Void? = try? bytes.withUnsafeBytes { try SystemCall.writeAll(1, $0) }
            // A pipe closed early (the daemon gave up waiting): EX_IOERR, not glyphs.
            return written == nil ? 74 : 0
        } catch {
            return error.rawValue
        }
    }
}
