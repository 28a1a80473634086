import Imaging

/// The pixels the card search reads: the frame's luma, and its colour when the caller has it.
///
/// Why colour: a card can have the luma of the skin it lies on. On the d3 dev clip a pale blue-grey
/// card on the forehead differs from the skin below it by 5–10 grey levels but by 35–40 in Cb and Cr
/// (frames 30, 200, 215); in grey its bottom side was not found, or its sub-pixel fit wandered
/// 1–3 px (issue 24 item 3). A neutral, blue, green or dark card is apart from skin in chroma
/// whatever the light; only a skin-coloured card is not, and then luma is all anyone has.
public enum CardPixels {
    case luma(GrayImage)
    /// The frame in colour (same size as the luma it came with).
    case colour(RGBImage)

    /// The colour frame when it matches the luma's size, else the luma.
    init(luma: GrayImage, colour: RGBImage?) {
        if let colour, colour.width == luma.width, colour.height == luma.height { self = .colour(colour) } else { self = .luma(luma) }
    }
}

/// Edge gradients over the card's search window, in luma units.
///
/// From luma: the Sobel gradient. From colour: the Di Zenzo gradient ("A note on the gradient of a
/// multi-image", CVGIP 1986): the largest eigenvalue of the structure tensor summed over R, G and B
/// and its eigenvector, divided by √3 so a grey edge has its luma magnitude (thresholds stay in grey
/// levels) while an edge in hue alone, which luma misses, counts with its full colour difference. The
/// sign of the direction is not defined for colour; the card search uses only |n · g|.
struct CardEdgeMap {
    let x0: Int, y0: Int, w: Int, h: Int
    var gx: [Float], gy: [Float], mag: [Float]
    func at(_ x: Int, _ y: Int) -> Int { (y - y0) * w + (x - x0) }

    /// The window `rect` (x0, y0, x1, y1 inclusive, inside the image).
    init(_ pixels: CardPixels, rect: (Int, Int, Int, Int)) {
        x0 = rect.0; y0 = rect.1
        w = rect.2 - rect.0 + 1; h = rect.3 - rect.1 + 1
        gx = .init(repeating: 0, count: w * h); gy = gx; mag = gx
        switch pixels {
        case .luma(let image): sobelLuma(image)
        case .colour(let image): diZenzo(image)
        }
    }

    private mutating func sobelLuma(_ image: GrayImage) {
        let (w, h, x0, y0) = (w, h, x0, y0)
        image.pixels.withUnsafeBufferPointer { px in
            let iw = image.width, ih = image.height
            func p(_ x: Int, _ y: Int) -> Float { Float(px[min(max(y, 0), ih - 1) * iw + min(max(x, 0), iw - 1)]) }
            for y in 0..<h {
                for x in 0..<w {
                    let X = x + x0, Y = y + y0
                    let gx = (p(X + 1, Y - 1) + 2 * p(X + 1, Y) + p(X + 1, Y + 1) - p(X - 1, Y - 1) - 2 * p(X - 1, Y) - p(X - 1, Y + 1)) / 8
                    let gy = (p(X - 1, Y + 1) + 2 * p(X, Y + 1) + p(X + 1, Y + 1) - p(X - 1, Y - 1) - 2 * p(X, Y - 1) - p(X + 1, Y - 1)) / 8
                    self.gx[y * w + x] = gx; self.gy[y * w + x] = gy; mag[y * w + x] = (gx * gx + gy * gy).squareRoot()
                }
            }
        }
    }

    private mutating func diZenzo(_ image: RGBImage) {
        let (w, h, x0, y0) = (w, h, x0, y0)
        image.pixels.withUnsafeBufferPointer { px in
            let iw = image.width, ih = image.height
            func p(_ x: Int, _ y: Int) -> SIMD3<Float> {
                let i = 3 * (min(max(y, 0), ih - 1) * iw + min(max(x, 0), iw - 1))
                return SIMD3(Float(px[i]), Float(px[i + 1]), Float(px[i + 2]))
            }
            for y in 0..<h {
                for x in 0..<w {
                    let X = x + x0, Y = y + y0
                    let a = p(X - 1, Y - 1), b = p(X, Y - 1), c = p(X + 1, Y - 1)
                    let d = p(X - 1, Y), f = p(X + 1, Y)
                    let g = p(X - 1, Y + 1), k = p(X, Y + 1), l = p(X + 1, Y + 1)
                    let sx = (c + 2 * f + l - a - 2 * d - g) / 8, sy = (g + 2 * k + l - a - 2 * b - c) / 8
                    let txx = (sx * sx).sum(), tyy = (sy * sy).sum(), txy = (sx * sy).sum()
                    // Largest eigenvalue of [[txx, txy], [txy, tyy]] and its eigenvector.
                    let half = (txx - tyy) / 2
                    let root = (half * half + txy * txy).squareRoot()
                    let lambda = (txx + tyy) / 2 + root
                    let m = (lambda / 3).squareRoot()
                    var vx: Float, vy: Float
                    if txx >= tyy { vx = half + root; vy = txy } else { vx = txy; vy = root - half }
                    let vn = (vx * vx + vy * vy).squareRoot()
                    if vn > 0 { vx /= vn; vy /= vn } else { vx = 0; vy = 0 }
                    let i = y * w + x
                    self.gx[i] = m * vx; self.gy[i] = m * vy; mag[i] = vn > 0 ? m : 0
                }
            }
        }
    }
}
