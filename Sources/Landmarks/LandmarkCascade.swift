import FaceDetection
import Imaging

/// A supervised-descent landmark regressor (Xiong & De la Torre, "Supervised Descent Method", CVPR 2013):
/// starting from an initial shape, each `CascadeStage` reads patch descriptors around the current
/// landmarks and adds a linearly regressed increment.
///
/// Frames: `meanShape` is the *reference frame*, the mean face scaled so its canonical box is
/// `referenceSide` units across. At every stage the current shape's least-squares similarity to the
/// mean shape defines how patches are laid out in the image and how increments map back to pixels,
/// so the regressors never see the face's scale or roll. `boxShape` is the learned box-to-shape
/// mapping: the average landmark position in units of the detector's box (`centre + side · q`).
/// All image coordinates use the pixel-centre convention (top-left pixel centre at (0, 0)).
public struct LandmarkCascade: LandmarkModel {
    public let meanShape: [SIMD2<Float>]
    public let boxShape: [SIMD2<Float>]
    public let descriptor: DescriptorSpec
    public let referenceSide: Float
    public var stages: [CascadeStage]
    /// Stages on local binary features (`LocalBinaryStage`), run after `stages` (two in the shipped
    /// model since issue 21's sixth round; empty in older files). They leave `Workspace.features`
    /// (the last SDM stage's, which the tracking-confidence model reads) as it was.
    public var binaryStages: [LocalBinaryStage]
    /// Weight of the shape features (0 = none). When positive, every stage also reads the current
    /// shape's deviation from the mean shape in the reference frame (2 x landmarks values, reference
    /// units times this scale) after the descriptors: a linear shape prior, so points with weak local
    /// evidence (the jaw) are pulled towards configurations consistent with the rest of the face.
    public let shapeFeatureScale: Float
    /// Free-form facts stored with the model (training command, data, seed, measured accuracy).
    public var metadata: [String: String]
    /// How fits from a detector box refine their start (not stored in the model file). Off (`.none`,
    /// one fit from the box) unless the caller opts in: `lorgnette eval landmarks`, `landmarks` and
    /// the tracker's detection path use `DetectionRefinement(scorer:)`; training code that wants the
    /// raw fit from a displaced box (the tracking-confidence trainer's off-face samples) keeps `.none`.
    public var detectionRefinement = DetectionRefinement.none
    /// The descriptor's constant tables, built once here so workspaces only allocate scratch.
    let patchLayout: PatchLayout

    /// The crop around the face reaches this many face sides from the shape's centre.
    static let cropHalfSide: Float = 0.85

    public init(meanShape: [SIMD2<Float>], boxShape: [SIMD2<Float>], descriptor: DescriptorSpec,
                referenceSide: Float, stages: [CascadeStage], binaryStages: [LocalBinaryStage] = [], shapeFeatureScale: Float = 0,
                metadata: [String: String] = [:]) {
        precondition(binaryStages.allSatisfy { $0.landmarks == meanShape.count }, "binary stages have another landmark count")
        precondition(meanShape.count == boxShape.count && !meanShape.isEmpty, "mean and box shapes differ in size")
        precondition(shapeFeatureScale >= 0 && shapeFeatureScale.isFinite, "shape feature scale must be finite and ≥ 0")
        self.shapeFeatureScale = shapeFeatureScale
        self.meanShape = meanShape
        self.boxShape = boxShape
        self.descriptor = descriptor
        self.patchLayout = PatchLayout(spec: descriptor)
        self.referenceSide = referenceSide
        self.stages = stages
        self.binaryStages = binaryStages
        self.metadata = metadata
    }

    public var landmarkCount: Int { meanShape.count }
    /// Length of the feature vector each stage reads: every landmark's descriptor, then (with shape
    /// features) the 2 x landmarks shape deviations, then a constant 1.
    public var featureCount: Int { landmarkCount * descriptor.length + (shapeFeatureScale > 0 ? 2 * landmarkCount : 0) + 1 }

    // MARK: Initialisation

    /// The same cascade with another box-to-shape mapping (e.g. re-learned for a new detector).
    public func withBoxShape(_ shape: [SIMD2<Float>]) -> LandmarkCascade {
        precondition(shape.count == landmarkCount, "box shape has \(shape.count) points, model has \(landmarkCount)")
        var c = LandmarkCascade(meanShape: meanShape, boxShape: shape, descriptor: descriptor, referenceSide: referenceSide,
                                stages: stages, binaryStages: binaryStages, shapeFeatureScale: shapeFeatureScale, metadata: metadata)
        c.detectionRefinement = detectionRefinement
        return c
    }

    /// The initial shape for a detector box (the learned box-to-shape mapping).
    public func initialShape(for box: FaceBox) -> [SIMD2<Float>] {
        var shape: [SIMD2<Float>] = []
        initialShape(for: box, into: &shape)
        return shape
    }

    /// `initialShape(for:)` written into `shape` (its storage reused when it has the right size).
    public func initialShape(for box: FaceBox, into shape: inout [SIMD2<Float>]) {
        let side = (box.width + box.height) / 2
        let c = box.centre
        shape.resize(to: landmarkCount, filler: .zero)
        for i in 0..<landmarkCount { shape[i] = c + side * boxShape[i] }
    }

    /// The initial shape for tracking: the mean shape placed on the previous shape by similarity,
    /// which keeps the start inside what the cascade was trained on while following the face's
    /// position, size and roll. With the 68-point markup the similarity is fitted to the points an
    /// open mouth does not move (`expressionStable`): fitted to all points, a dropped jaw enlarges and
    /// lowers the next start and the fit creeps down the face. (Nose and eyes alone are too compact:
    /// their scale and roll errors grow at the jaw; tracking-mode NME on the validation faces was
    /// 4.34 % with them, 4.01 % with all points, 3.96 % with these.)
    public func initialShape(trackingFrom previous: [SIMD2<Float>]) -> [SIMD2<Float>] {
        var shape: [SIMD2<Float>] = []
        initialShape(trackingFrom: previous, into: &shape)
        return shape
    }

    /// `initialShape(trackingFrom:)` written into `shape` (its storage reused when it has the right size).
    public func initialShape(trackingFrom previous: [SIMD2<Float>], into shape: inout [SIMD2<Float>]) {
        let t = trackingStartTransform(previous: previous)
        shape.resize(to: landmarkCount, filler: .zero)
        for i in 0..<landmarkCount { shape[i] = t.apply(meanShape[i]) }
    }

    /// The similarity that places the mean shape as the tracking start (see `initialShape(trackingFrom:)`).
    func trackingStartTransform(previous: [SIMD2<Float>]) -> SimilarityTransform {
        landmarkCount == 68
            ? SimilarityTransform.fit(from: meanShape, to: previous, indices: Self.expressionStable)
            : referenceTransform(for: previous)
    }

    /// The linear map `stage` applies to `shape` (image pixels), whose reference-to-image similarity
    /// is `transform`: the stage itself, or, for a pose-partitioned stage, its yaw domain's map.
    func map(of stage: CascadeStage, shape: [SIMD2<Float>], transform: SimilarityTransform) -> CascadeStage {
        guard stage.yawDomains != nil else { return stage }
        return stage.map(forYaw: yawIndex(of: shape, transform: transform))
    }

    /// `YawDomains.yawIndex` of a 68-point `shape` (image pixels) whose reference-to-image similarity is `transform`.
    public func yawIndex(of shape: [SIMD2<Float>], transform: SimilarityTransform) -> Float {
        let inv = transform.inverse
        return YawDomains.yawIndex(reference: inv.apply(shape[YawDomains.jawLeft]), right: inv.apply(shape[YawDomains.jawRight]),
                                   nose: inv.apply(shape[YawDomains.noseTip]))
    }

    /// iBUG-68 points that mouth opening leaves in place: the upper jaw line (0-4, 12-16), brows,
    /// nose and eyes.
    static let expressionStable: [Int] = Array(0...4) + Array(12...47)

    /// The similarity taking the reference frame (mean shape) onto `shape` in the image.
    public func referenceTransform(for shape: [SIMD2<Float>]) -> SimilarityTransform {
        SimilarityTransform.fit(from: meanShape, to: shape)
    }

    // MARK: Fitting

    /// Detection mode: the fit from `box`, refined as `detectionRefinement` says (see `detectionFit`).
    public func landmarks(in image: GrayImage, box: FaceBox) -> [SIMD2<Float>] {
        detectionFit(in: image, box: box).fitted.landmarks
    }

    public func track(in image: GrayImage, previous: [SIMD2<Float>]) -> [SIMD2<Float>] {
        var workspace = Workspace(cascade: self)
        track(in: image, previous: previous, workspace: &workspace)
        return workspace.shape
    }

    /// Tracking mode into a reused workspace: on return `workspace.shape` holds the landmarks and
    /// `workspace.features` the last stage's features. Allocates nothing once the workspace has
    /// seen a face this large, as long as the caller holds no copy of those two arrays.
    public func track(in image: GrayImage, previous: [SIMD2<Float>], workspace: inout Workspace) {
        track(in: .gray(image), previous: previous, workspace: &workspace)
    }

    /// `track(in:previous:workspace:)` on a gray or RGB frame (RGB: see `FaceCrop.update(image:...)`).
    public func track(in image: LumaFrame, previous: [SIMD2<Float>], workspace: inout Workspace) {
        precondition(previous.count == landmarkCount, "previous shape has \(previous.count) points, model has \(landmarkCount)")
        initialShape(trackingFrom: previous, into: &workspace.shape)
        workspace.fitFromShape(self, image: image)
    }

    /// Exactly the pixels `track(in:previous:)` reads: the crop square of `makeCrop` around the
    /// tracking start (the mean shape placed by `initialShape(trackingFrom:)`, computed here the same
    /// way, without storing it), plus one pixel of margin. Every stage samples inside that crop.
    public func trackingReadRegion(previous: [SIMD2<Float>]) -> PixelRect? {
        let t = trackingStartTransform(previous: previous)
        var lo = t.apply(meanShape[0]), hi = lo
        for p in meanShape {
            let q = t.apply(p)
            lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
        }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        let square = cropSquare(around: FaceBox.canonical(lo: lo, hi: hi))
        let r = FaceCrop.sourceRect(centre: square.centre, halfSide: square.halfSide, faceSide: square.faceSide, referenceSide: referenceSide)
        return PixelRect(x: r.x - 1, y: r.y - 1, width: r.width + 2, height: r.height + 2)
    }

    /// Runs every stage from `initial` (image coordinates).
    public func fit(image: GrayImage, initial: [SIMD2<Float>]) -> [SIMD2<Float>] {
        var workspace = Workspace(cascade: self)
        workspace.fit(self, image: image, initial: initial)
        return workspace.shape
    }

    /// The crop the cascade samples from for a face whose starting shape is `shape`.
    public func makeCrop(image: GrayImage, around shape: [SIMD2<Float>]) -> FaceCrop {
        var crop = FaceCrop()
        updateCrop(&crop, image: .gray(image), around: shape)
        return crop
    }

    /// `makeCrop(image:around:)` into an existing crop's buffers.
    func updateCrop(_ crop: inout FaceCrop, image: LumaFrame, around shape: [SIMD2<Float>]) {
        let square = cropSquare(around: FaceBox.canonical(landmarks: shape))
        crop.update(image: image, centre: square.centre, halfSide: square.halfSide, faceSide: square.faceSide, referenceSide: referenceSide)
    }

    /// The crop square for a face whose canonical box is `box`: centred on it, `cropHalfSide` face
    /// sides from centre to edge (one formula for the crop and for `trackingReadRegion`).
    private func cropSquare(around box: FaceBox) -> (centre: SIMD2<Float>, halfSide: Float, faceSide: Float) {
        let side = max(box.width, 1)
        return (box.centre, Self.cropHalfSide * side, side)
    }

    /// Scratch buffers for fits, reusable fit after fit (one per thread: a tracker keeps one for
    /// its faces); `apply` runs one stage in place, `fit` a whole cascade. After `fit` (or
    /// `LandmarkCascade.track(in:previous:workspace:)`) `shape` holds the fitted landmarks and
    /// `features` the feature vector the last stage read. Only for the cascade it was made for.
    public struct Workspace {
        var descriptor: PatchDescriptor
        public var features: [Float]
        var coefficients: [Float]
        var delta: [Float]
        /// The shape being fitted (image pixels); the result after `fit`.
        public internal(set) var shape: [SIMD2<Float>]
        var crop: FaceCrop
        /// The best detection-mode fit so far (`keepBest`), kept apart from the working buffers.
        var bestShape: [SIMD2<Float>] = []
        var bestFeatures: [Float] = []
        /// Every start's fit and score, shapes end to end, for a consensus (`DetectionRefinement.consensus`).
        var startShapes: [SIMD2<Float>] = []
        var startScores: [Float] = []
        /// The mirrored fit (`DetectionRefinement.mirror`): the mirrored square and its filter's crop,
        /// the direct fit kept aside, the mirrored fit mapped back.
        var mirrorImage = GrayImage(width: 0, height: 0)
        var mirrorCrop = FaceCrop()
        var directShape: [SIMD2<Float>] = []
        var directFeatures: [Float] = []
        var mirrorShape: [SIMD2<Float>] = []
        /// The bits one binary step sets (its trees' leaves).
        var leaves: [Int32] = []

        /// Appends the current fit (`shape`) and its score to the starts.
        mutating func keepStart(score: Float) {
            startShapes.append(contentsOf: shape)
            startScores.append(score)
        }

        /// Copies the current fit (`shape`, `features`) into `bestShape`/`bestFeatures`, in place once
        /// they have the size.
        mutating func keepBest() {
            bestShape.overwrite(with: shape)
            bestFeatures.overwrite(with: features)
        }

        public init(cascade: LandmarkCascade) {
            descriptor = PatchDescriptor(layout: cascade.patchLayout)
            features = [Float](repeating: 0, count: cascade.featureCount)
            var maxRank = 8
            for stage in cascade.stages { for map in stage.maps { maxRank = max(maxRank, map.paddedRank) } }
            for stage in cascade.binaryStages { maxRank = max(maxRank, stage.map.paddedRank) }
            delta = [Float](repeating: 0, count: 2 * cascade.landmarkCount)
            shape = [SIMD2<Float>](repeating: .zero, count: cascade.landmarkCount)
            crop = FaceCrop()
            leaves = [Int32](repeating: 0, count: cascade.binaryStages.map { $0.landmarks * $0.trees }.max() ?? 0)
            coefficients = [Float](repeating: 0, count: max(maxRank, 2 * cascade.landmarkCount))
        }

        /// Runs every stage of `cascade` from `initial` (image coordinates); the result is `shape`.
        public mutating func fit(_ cascade: LandmarkCascade, image: GrayImage, initial: [SIMD2<Float>]) {
            shape.resize(to: initial.count, filler: .zero)
            for i in 0..<initial.count { shape[i] = initial[i] }
            fitFromShape(cascade, image: .gray(image))
        }

        /// Runs every stage from the current `shape`, cropping around it first.
        mutating func fitFromShape(_ cascade: LandmarkCascade, image: LumaFrame) {
            cascade.updateCrop(&crop, image: image, around: shape)
            for stage in cascade.stages { step(stage, cascade: cascade) }
            guard !cascade.binaryStages.isEmpty else { return }
            // The shape is moved out while `apply` writes it (no copy, no allocation), and back.
            var moving: [SIMD2<Float>] = []
            swap(&moving, &shape)
            for stage in cascade.binaryStages { apply(stage, cascade: cascade, crop: crop, shape: &moving) }
            swap(&moving, &shape)
        }

        /// One local-binary-feature step: the leaves the trees reach, the increment regressed from
        /// their map rows alone (`CascadeStage.increment(rows:…)`), the shape moved.
        public mutating func apply(_ stage: LocalBinaryStage, cascade: LandmarkCascade, crop: FaceCrop, shape: inout [SIMD2<Float>]) {
            let t = cascade.referenceTransform(for: shape)
            let bits = stage.landmarks * stage.trees
            let outputs = 2 * shape.count
            // A workspace made for another cascade grows here once (the module runs unchecked).
            if leaves.count < bits { leaves = [Int32](repeating: 0, count: bits) }
            if coefficients.count < stage.map.paddedRank { coefficients = [Float](repeating: 0, count: stage.map.paddedRank) }
            leaves.withUnsafeMutableBufferPointer { l in
                stage.leaves(crop: crop, shape: shape, transform: t, into: l.baseAddress!)
                coefficients.withUnsafeMutableBufferPointer { c in
                    delta.withUnsafeMutableBufferPointer { d in
                        stage.map.increment(rows: l.baseAddress!, count: bits, coefficients: c.baseAddress!, into: d.baseAddress!, outputs: outputs)
                    }
                }
            }
            for i in 0..<shape.count {
                shape[i] += t.applyLinear(SIMD2(delta[2 * i], delta[2 * i + 1]))
            }
        }

        /// `apply(_:cascade:crop:shape:)` on this workspace's own crop and shape.
        private mutating func step(_ stage: CascadeStage, cascade: LandmarkCascade) {
            let t = extract(cascade: cascade, crop: crop, shape: shape, stride: stage.stride)
            regress(cascade.map(of: stage, shape: shape, transform: t), outputs: 2 * shape.count)
            for i in 0..<shape.count {
                shape[i] += t.applyLinear(SIMD2(delta[2 * i], delta[2 * i + 1]))
            }
        }

        /// Fills `features` for `shape` at `stride` and returns the reference-to-image similarity used.
        @discardableResult
        public mutating func extract(cascade: LandmarkCascade, crop: FaceCrop, shape: [SIMD2<Float>], stride: Float) -> SimilarityTransform {
            let t = cascade.referenceTransform(for: shape)
            let axis = SIMD2<Float>(t.a, t.b) * stride
            let len = cascade.descriptor.length
            features.withUnsafeMutableBufferPointer { f in
                for i in 0..<shape.count {
                    descriptor.describe(crop: crop, at: shape[i], axisX: axis, into: f.baseAddress! + i * len)
                }
                let scale = cascade.shapeFeatureScale
                if scale > 0 {
                    let inv = t.inverse
                    var o = shape.count * len
                    for i in 0..<shape.count {
                        let d = (inv.apply(shape[i]) - cascade.meanShape[i]) * scale
                        f[o] = d.x; f[o + 1] = d.y
                        o += 2
                    }
                }
                f[f.count - 1] = 1
            }
            return t
        }

        /// One cascade step: features, regressed increment, shape update.
        public mutating func apply(_ stage: CascadeStage, cascade: LandmarkCascade, crop: FaceCrop, shape: inout [SIMD2<Float>]) {
            let t = extract(cascade: cascade, crop: crop, shape: shape, stride: stage.stride)
            regress(cascade.map(of: stage, shape: shape, transform: t), outputs: 2 * shape.count)
            for i in 0..<shape.count {
                shape[i] += t.applyLinear(SIMD2(delta[2 * i], delta[2 * i + 1]))
            }
        }

        /// The stage's increment (reference frame) from `features`, into `delta`.
        private mutating func regress(_ stage: CascadeStage, outputs: Int) {
            features.withUnsafeBufferPointer { f in
                coefficients.withUnsafeMutableBufferPointer { c in
                    delta.withUnsafeMutableBufferPointer { d in
                        stage.increment(features: f.baseAddress!, coefficients: c.baseAddress!, into: d.baseAddress!, outputs: outputs)
                    }
                }
            }
        }
    }
}
