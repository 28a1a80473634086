/// A face whose head is wider or narrower than the mean: the same landmarks (the face the pose is
/// solved from), with the temple and ear points — where glasses temples pass and rest — moved
/// sideways by `scale` (x only; 1 is the mean head, 141–145 mm). Used to open glasses temples to a
/// tracked face's observed width (`FaceAnchor.headWidthScale`).
extension MeanFace {
    public func withHeadWidth(scale: Double) -> MeanFace {
        var face = self
        face.temples = temples.map { SIMD3($0.x * scale, $0.y, $0.z) }
        face.ears = ears.map { SIMD3($0.x * scale, $0.y, $0.z) }
        face.metadata["head_width_scale"] = String(scale)
        return face
    }
}
