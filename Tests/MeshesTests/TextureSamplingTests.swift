import Imaging
import Meshes
import Testing

struct TextureSamplingTests {
    /// 2x1 texture: black, white. glTF UVs address corners: u = 0.25 and 0.75 are texel centres.
    static let image = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])

    @Test func bilinearBetweenTexelCentresAndWrapModes() {
        let t = Texture(image: Self.image, wrapU: .clampToEdge, wrapV: .clampToEdge)
        #expect(t.sample([0.25, 0.5]).x == 0)
        #expect(t.sample([0.75, 0.5]).x == 255)
        #expect(abs(t.sample([0.5, 0.5]).x - 127.5) < 1e-3)
        #expect(t.sample([-3, 0.5]).x == 0 && t.sample([7, 0.5]).x == 255, "clamped")
        let r = Texture(image: Self.image, wrapU: .repeating, wrapV: .repeating)
        #expect(r.sample([1.25, 0.5]).x == 0 && r.sample([-0.25, 0.5]).x == 255, "repeats")
        // Between the last and the wrapped-around first texel: halfway grey.
        #expect(abs(r.sample([1.0, 0.5]).x - 127.5) < 1e-3)
        let m = Texture(image: Self.image, wrapU: .mirroredRepeat, wrapV: .repeating)
        #expect(m.sample([1.25, 0.5]).x == 255 && m.sample([1.75, 0.5]).x == 0, "mirrored")
        let n = Texture(image: Self.image, nearest: true)
        #expect(n.sample([0.49, 0.5]).x == 0 && n.sample([0.51, 0.5]).x == 255)
        #expect(t.sample([.nan, 0]) == [255, 0, 255, 255], "non-finite UVs give a visible magenta, not a crash")
    }
}
