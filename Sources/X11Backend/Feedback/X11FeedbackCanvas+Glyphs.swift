internal import CX11
import Logging
import POSIX

/// The OSD's glyphs at one pixel size, on the server: a RENDER glyph set whose glyph ids are
/// the characters' code points, and what the daemon keeps of it to lay words out.
struct OSDGlyphSet {
    let id: GlyphSet
    let ascent: Int
    let descent: Int
    /// Each character's advance, px.
    var advances: [UInt32: Int] = [:]
}

extension X11FeedbackCanvas {
    /// Starts rendering the glyphs of `characters` for every monitor's OSD size, without
    /// waiting: collected at the first OSD.
    func prepareGlyphs(_ characters: Set<Unicode.Scalar>) {
        wantedCharacters = Set(characters.map(\.value))
        guard !wantedCharacters.isEmpty, glyphJob == nil, glyphsUnavailable == nil else { return }
        let sizes = Set(monitors.map { Self.pixelSize(dpi: $0.dpi) }).filter { glyphSets[$0] == nil }.sorted()
        guard !sizes.isEmpty else { return }
        glyphJob = startGlyphJob(pixelSizes: sizes, characters: wantedCharacters.sorted())
        // Usually done within tens of milliseconds (fontconfig's caches read): taken now, at
        // start-up, so that no finished renderer waits to be reaped until the first OSD.
        if let job = glyphJob, collected(job, within: Self.startupGlyphWait) { glyphJob = nil }
    }

    /// How long start-up waits for the renderer before leaving it to the first OSD: a warm
    /// fontconfig renders the OSD's characters in 20–40 ms; a cold one (its caches being built)
    /// can take seconds, which start-up must not wait for.
    static let startupGlyphWait = Duration.milliseconds(250)

    /// How long an OSD waits for a renderer still at work: a warm fontconfig renders the few
    /// characters an OSD lacks in 20–40 ms. The loop waits meanwhile — input included, and a
    /// press of a trigger button keeps the pointer frozen while it does — so a renderer that
    /// takes longer (fontconfig building its caches: seconds) does not hold it: that OSD is
    /// not shown, and the renderer is collected by a later one.
    static let osdGlyphWait = Duration.milliseconds(100)

    /// The glyph set at `pixelSize` with every one of `characters` in it: rendered now — the
    /// OSD waits for it (at most ``osdGlyphWait``), the gesture's action went out before — when
    /// they are not there yet (a monitor of another density, a character no config text had
    /// when the renderer ran). Nil when they cannot be had (said once) or are not rendered
    /// yet.
    func glyphSet(pixelSize: Int, for characters: [UInt32]) -> OSDGlyphSet? {
        if let job = glyphJob {
            guard collected(job, within: Self.osdGlyphWait) else { return stillRendering() }
            glyphJob = nil
        }
        let have = glyphSets[pixelSize]
        var missing = Set(characters)
        if have == nil { missing.formUnion(wantedCharacters) }
        if let have { missing = missing.filter { have.advances[$0] == nil } }
        if !missing.isEmpty, glyphsUnavailable == nil, let job = startGlyphJob(pixelSizes: [pixelSize], characters: missing.sorted()) {
            guard collected(job, within: Self.osdGlyphWait) else {
                glyphJob = job
                return stillRendering()
            }
        }
        guard let set = glyphSets[pixelSize], characters.allSatisfy({ set.advances[$0] != nil }) else {
            sayOnce("glyphs", "the OSD is not shown: its letters could not be rendered (\(glyphsUnavailable ?? "no renderer"))")
            return nil
        }
        return set
    }

    private func startGlyphJob(pixelSizes: [Int], characters: [UInt32]) -> OSDGlyphJob? {
        guard let glyphRenderer else {
            glyphsUnavailable = "no renderer"
            return nil
        }
        do throws(SystemError) {
            return try OSDGlyphJob(command: glyphRenderer, display: display?.name ?? displayName, pixelSizes: pixelSizes, characters: characters)
        } catch {
            glyphsUnavailable = "\(error)"
            return nil
        }
    }

    /// Waits for `job` at most `limit` and puts what it rendered on the server: true once it is
    /// done with, false while it still renders. A failure is kept (the renderer is not started
    /// again for every OSD); one still at work ``OSDGlyphJob/timeout`` after it started is
    /// given up.
    private func collected(_ job: OSDGlyphJob, within limit: Duration) -> Bool {
        do throws(OSDGlyphJob.Failure) {
            if let faces = try job.collect(within: limit) {
                upload(faces)
                return true
            }
        } catch {
            glyphsUnavailable = "\(error)"
            return true
        }
        guard ContinuousClock.now - job.started < OSDGlyphJob.timeout else {
            job.abandon()
            glyphsUnavailable = "\(OSDGlyphJob.Failure.timedOut)"
            return true
        }
        return false
    }

    /// An OSD whose letters are still being rendered is not shown (said once).
    private func stillRendering() -> OSDGlyphSet? {
        sayOnce("glyphs-wait", "an OSD is not shown: its letters are still being rendered (fontconfig may be building its caches); later ones will be", level: .info)
        return nil
    }

    private func upload(_ faces: [OSDGlyphs.Face]) {
        guard let display, let server, let a8 = server.a8 else { return }
        for face in faces { upload(face, on: display, format: a8) }
    }

    /// Adds `face`'s glyphs to the glyph set of its size (made when there is none).
    private func upload(_ face: OSDGlyphs.Face, on display: X11Display, format: UnsafeMutablePointer<XRenderPictFormat>) {
        attempt("glyphs") { () throws(X11Error) in
            try display.call("upload the OSD's glyphs") { handle in
                var set = glyphSets[face.pixelSize] ?? OSDGlyphSet(id: XRenderCreateGlyphSet(handle, format), ascent: face.ascent, descent: face.descent)
                let fresh = face.glyphs.filter { set.advances[$0.character] == nil }
                guard !fresh.isEmpty else { return }
                var ids = fresh.map { Glyph($0.character) }
                var infos = fresh.map { XGlyphInfo(width: $0.width, height: $0.height, x: $0.x, y: $0.y, xOff: $0.xOff, yOff: $0.yOff) }
                var images = fresh.flatMap { $0.alpha.map { CChar(bitPattern: $0) } }
                XRenderAddGlyphs(handle, set.id, &ids, &infos, Int32(fresh.count), &images, Int32(images.count))
                for glyph in fresh { set.advances[glyph.character] = Int(glyph.xOff) }
                glyphSets[face.pixelSize] = set
            }
        }
    }

    /// Frees the glyph sets on the server (the run ends).
    func freeGlyphSets() {
        guard let display else { return }
        for set in glyphSets.values { _ = try? display.call("XRenderFreeGlyphSet") { XRenderFreeGlyphSet($0, set.id) } }
        glyphSets = [:]
    }
}
