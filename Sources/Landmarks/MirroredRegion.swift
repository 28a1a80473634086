import FaceDetection
import Imaging

/// The square of an image around a face, flipped left-right, for fitting the face a second time as
/// its mirror image (`DetectionRefinement.mirror`). Only this square is copied, never the photo: it
/// reaches `reach` box sides from the box centre, which holds the crops of the detection-mode starts
/// (a crop reaches 0.85 face sides from its shape's centre; starts move 0.15 sides and scale 1.15;
/// a fit that wanders further sees the square's edge pixels repeated), and large faces are box-filtered down by an integer `factor` so the copy stays below about
/// 1,150² pixels whatever the photo's size.
///
/// Coordinates (pixel-centre convention): region pixel `(i, j)` averages image pixels
/// `x0 + (n − 1 − i)·k … + k − 1` and `y0 + j·k … + k − 1` (`k = factor`, `n` the side), so its
/// centre is image `(X − k·i, Y + k·j)` with `X = x0 + (n − 1)·k + (k − 1)/2`, `Y = y0 + (k − 1)/2`.
/// Pixels outside the image repeat the nearest edge pixel, as `FaceCrop` does, so a face at the
/// photo's edge looks the same in the region as in the photo.
struct MirroredRegion {
    /// Image x of region x = 0 (`X` above) and image y of region y = 0 (`Y`).
    private(set) var originX: Float = 0
    private(set) var originY: Float = 0
    private(set) var factor = 1

    /// Box sides from the box centre to the region's edge.
    static let reach: Float = 1.5

    /// Fills `region` (its storage reused) with the mirrored square around `box` in `image`, box-
    /// filtered through `scratch` (a `FaceCrop`, so the same pixels and edge rule as the fits' own
    /// crops) by the largest integer factor that leaves the box at least `2 · referenceSide` pixels
    /// across: finer than the cascade samples it (about `referenceSide` across), and a region of at
    /// most (2 · reach · 4 · referenceSide)² ≈ 1,150² pixels.
    mutating func update(_ region: inout GrayImage, scratch: inout FaceCrop, from image: GrayImage, around box: FaceBox, referenceSide: Float) {
        let side = max((box.width + box.height) / 2, 1)
        let k = max(1, Int(side / (2 * referenceSide)))
        if k == 1 {
            // Unreduced: the pixels copied in reverse, without the float crop and its conversion back to
            // bytes (validation faces: detection mode with the mirror 1.24 ms of thread CPU per face
            // through the crop, fastest of 10, against 0.42-0.60 ms without).
            let x0 = Int((box.centre.x - Self.reach * side).rounded(.down)), y0 = Int((box.centre.y - Self.reach * side).rounded(.down))
            let n = max(4, Int((2 * Self.reach * side).rounded(.up)))
            factor = 1
            originX = Float(x0 + n - 1)
            originY = Float(y0)
            region.reshape(width: n, height: n)
            let iw = image.width, ih = image.height
            image.pixels.withUnsafeBufferPointer { src in
                region.pixels.withUnsafeMutableBufferPointer { dst in
                    for j in 0..<n {
                        let sy = min(max(y0 + j, 0), ih - 1) * iw, row = j * n
                        if x0 >= 0 && x0 + n <= iw {
                            for i in 0..<n { dst[row + i] = src[sy + x0 + n - 1 - i] }
                        } else {
                            for i in 0..<n { dst[row + i] = src[sy + min(max(x0 + n - 1 - i, 0), iw - 1)] }
                        }
                    }
                }
            }
            return
        }
        scratch.update(image: .gray(image), centre: box.centre, halfSide: Self.reach * side, faceSide: Float(k) * referenceSide, referenceSide: referenceSide)
        precondition(scratch.factor == k, "mirrored region: crop factor \(scratch.factor), wanted \(k)")
        let n = scratch.width
        factor = k
        originX = Float(scratch.originX + (n - 1) * k) + Float(k - 1) / 2
        originY = Float(scratch.originY) + Float(k - 1) / 2
        region.reshape(width: n, height: n)
        scratch.level0.withUnsafeBufferPointer { src in
            region.pixels.withUnsafeMutableBufferPointer { dst in
                for j in 0..<n {
                    let row = j * n
                    for i in 0..<n { dst[row + i] = UInt8(min(max(src[row + n - 1 - i].rounded(), 0), 255)) }
                }
            }
        }
    }

    /// The region's box for an image box: mirrored about the region, scaled by 1 / `factor`.
    func regionBox(for box: FaceBox) -> FaceBox {
        let c = box.centre, k = Float(factor)
        let rc = SIMD2((originX - c.x) / k, (c.y - originY) / k)
        let w = box.width / k, h = box.height / k
        return FaceBox(x: rc.x - w / 2, y: rc.y - h / 2, width: w, height: h, score: box.score)
    }

    /// Image point of region point `p`.
    func imagePoint(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(originX - Float(factor) * p.x, originY + Float(factor) * p.y)
    }
}
