import Imaging

/// The two resampling steps of `HOGPyramid`, specialised for speed: an exact 2x2 mean (one octave
/// down) and a bilinear shrink by less than 2x (the levels within an octave). Pixel-centre
/// convention: target pixel p samples the source at (p + 0.5) · source/target − 0.5.
///
/// 8-bit fixed-point weights; the vertical blend runs over whole rows so it vectorises.
struct PyramidResampler {
    private var rowBuffer: [UInt16] = []
    /// Horizontal source index and weight per target column, one table per (source, target) width:
    /// a pyramid resizes to several widths per frame, so one table rebuilt per call allocated twice a
    /// level on every detection frame. Kept small (cleared past `maxTables`, e.g. when the frame size
    /// keeps changing).
    private var tables: [(sourceWidth: Int, targetWidth: Int, index: [Int32], weight: [Int32])] = []
    private static let maxTables = 64

    /// `target` = `source` halved (sizes rounded down), each pixel the rounded mean of 2x2 pixels.
    mutating func halve(_ source: GrayImage, into target: inout GrayImage) {
        let tw = source.width / 2, th = source.height / 2
        target.reshape(width: tw, height: th)
        let sw = source.width
        source.pixels.withUnsafeBufferPointer { src in
            target.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0 ..< th {
                    let a = 2 * y * sw, b = a + sw, o = y * tw
                    for x in 0 ..< tw {
                        let s = UInt16(src[a + 2 * x]) &+ UInt16(src[a + 2 * x + 1]) &+ UInt16(src[b + 2 * x]) &+ UInt16(src[b + 2 * x + 1])
                        dst[o + x] = UInt8(truncatingIfNeeded: (s &+ 2) >> 2)
                    }
                }
            }
        }
    }

    /// Bilinear resize of `source` to `width x height` (meant for shrinking by 1x–2x), written into
    /// the middle of `target`, which gets a black frame `border` pixels wide on each side: exactly
    /// `HOGPyramid.pad` of the plain resize, without the level-sized clear and copy (on a 12 Mpixel
    /// photo the padded levels add up to 20 Mpixel; see `PhotoFaceDetector` for what this saved).
    mutating func resize(_ source: GrayImage, width tw: Int, height th: Int, border: Int = 0, into target: inout GrayImage) {
        let sw = source.width, sh = source.height
        let pw = tw + 2 * border
        target.reshape(width: pw, height: th + 2 * border)
        guard sw > 0, sh > 0, tw > 0, th > 0 else {
            target.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            return
        }
        if border > 0 { HOGPyramid.clearFrame(of: &target, border: border) }
        let t = table(sourceWidth: sw, targetWidth: tw)
        let xIndex = tables[t].index, xWeight = tables[t].weight
        if rowBuffer.count < sw + 1 { rowBuffer = [UInt16](repeating: 0, count: sw + 1) }
        let single = sw == 1
        source.pixels.withUnsafeBufferPointer { src in
        target.pixels.withUnsafeMutableBufferPointer { dst in
        rowBuffer.withUnsafeMutableBufferPointer { row in
        xIndex.withUnsafeBufferPointer { xi in
        xWeight.withUnsafeBufferPointer { xw in
            for y in 0 ..< th {
                let (j, fy) = Self.sourceRow(y, sourceHeight: sh, targetHeight: th)
                let gy = 256 - fy
                let a = j * sw, b = min(j + 1, sh - 1) * sw
                for x in 0 ..< sw { row[x] = UInt16(src[a + x]) &* gy &+ UInt16(src[b + x]) &* fy }
                row[sw] = row[sw - 1]
                let o = (y + border) * pw + border
                for x in 0 ..< tw {
                    let i = Int(xi[x]), f = xw[x]
                    let p0 = Int32(row[i]), p1 = Int32(row[single ? i : i + 1])
                    dst[o + x] = UInt8(truncatingIfNeeded: (p0 * (256 - f) + p1 * f + 32768) >> 16)
                }
            }
        }}}}}
    }

    /// The pixels `columns x rows` of the level `resize(source, width: tw, height: th, border: border)`
    /// would make (a `border`-wide black frame around the `tw x th` picture; `tw x th` = the source's
    /// size is the source itself), bit for bit, without making the rest: the photo detector scans the
    /// finest levels of a large photo only around seeds (`SkippedLevelSearch`).
    mutating func resizeRegion(_ source: GrayImage, width tw: Int, height th: Int, border: Int,
                               columns: Range<Int>, rows: Range<Int>, into target: inout GrayImage) {
        let sw = source.width, sh = source.height
        target.reshape(width: columns.count, height: rows.count)
        let identity = sw == tw && sh == th
        let t = identity || sw == 0 ? -1 : table(sourceWidth: sw, targetWidth: tw)
        let xIndex = t < 0 ? [] : tables[t].index, xWeight = t < 0 ? [] : tables[t].weight
        let single = sw == 1
        let ow = columns.count
        source.pixels.withUnsafeBufferPointer { src in
        target.pixels.withUnsafeMutableBufferPointer { dst in
            for (v, yp) in rows.enumerated() {
                let y = yp - border
                let o = v * ow
                guard y >= 0 && y < th && sw > 0 && sh > 0 else {
                    UnsafeMutableBufferPointer(rebasing: dst[o ..< o + ow]).update(repeating: 0)
                    continue
                }
                if identity {
                    for (u, xp) in columns.enumerated() {
                        let x = xp - border
                        dst[o + u] = x >= 0 && x < tw ? src[y * sw + x] : 0
                    }
                    continue
                }
                let (j, fy) = Self.sourceRow(y, sourceHeight: sh, targetHeight: th)
                let gy = 256 - fy
                let a = j * sw, b = min(j + 1, sh - 1) * sw
                for (u, xp) in columns.enumerated() {
                    let x = xp - border
                    guard x >= 0 && x < tw else { dst[o + u] = 0; continue }
                    let i = Int(xIndex[x]), f = xWeight[x]
                    let i1 = single ? i : i + 1
                    // The vertical blend of `resize`'s row buffer, for the two columns this pixel reads.
                    let p0 = Int32(UInt16(src[a + i]) &* gy &+ UInt16(src[b + i]) &* fy)
                    let p1 = Int32(UInt16(src[a + i1]) &* gy &+ UInt16(src[b + i1]) &* fy)
                    dst[o + u] = UInt8(truncatingIfNeeded: (p0 * (256 - f) + p1 * f + 32768) >> 16)
                }
            }
        }}
    }

    /// The source row and its 8-bit weight blended into target row `y` (the row below gets `fy`).
    private static func sourceRow(_ y: Int, sourceHeight sh: Int, targetHeight th: Int) -> (Int, UInt16) {
        let ry = Float(sh) / Float(th)
        let v = min(max((Float(y) + 0.5) * ry - 0.5, 0), Float(sh - 1))
        var j = Int(v)
        if j >= sh - 1 { j = max(sh - 2, 0) }
        return (j, UInt16(((v - Float(j)) * 256).rounded()))
    }

    /// Index into `tables` of the horizontal table for this pair of widths, built on first use.
    private mutating func table(sourceWidth sw: Int, targetWidth tw: Int) -> Int {
        if let t = tables.firstIndex(where: { $0.sourceWidth == sw && $0.targetWidth == tw }) { return t }
        if tables.count >= Self.maxTables { tables.removeAll() }
        var xIndex = [Int32](repeating: 0, count: tw)
        var xWeight = [Int32](repeating: 0, count: tw)
        let r = Float(sw) / Float(tw)
        for x in 0 ..< tw {
            let u = min(max((Float(x) + 0.5) * r - 0.5, 0), Float(sw - 1))
            var i = Int(u)
            if i >= sw - 1 { i = max(sw - 2, 0) }
            xIndex[x] = Int32(i)
            xWeight[x] = Int32(((u - Float(i)) * 256).rounded())
        }
        tables.append((sw, tw, xIndex, xWeight))
        return tables.count - 1
    }
}
