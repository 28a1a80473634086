import Foundation
import ModelFormat

extension LandmarkCascade: ArchivedModel {
    /// The `ModelArchive` kind of landmark cascades.
    public static let archiveKind = "LMRK"
    /// Layout version written by this build; readers accept `supportedVersions`.
    /// Version 2 added optional shape features (`shape_feature_scale`); version 1 files have none.
    /// Version 3 added pose-partitioned stages (`stage.K.yaw_bounds`, `stage.K.domain.D.weights`
    /// and `.basis`); a cascade without them is still written as version 2, byte for byte as before.
    /// Version 4 added stages on local binary features (`binary_stages`, `binary.K.radius`/`.trees`/
    /// `.depth`, tensors `binary.K.offsets`, `.thresholds`, `.weights`, `.basis`); only a cascade
    /// with such stages is written as version 4.
    public static let archiveVersion = 4
    public static let supportedVersions = 1...4
    /// Bounds on a binary stage's forests (the trainer's are 5-8 trees of depth 4-5).
    static let maximumTrees = 64, maximumDepth = 8
    public static let modelName = "landmark model"
    /// Bound on the reference side and the stage strides (reference pixels).
    static let maximumReferenceLength: Float = 10_000

    /// Serialises the cascade. Regression weights are stored as `weightEncoding` (float16 by default:
    /// half the size of float32 with no measurable change in accuracy); shapes and bases as float32.
    public func archive(weightEncoding: ModelArchive.Encoding = .float16) -> ModelArchive {
        var meta = metadata
        meta["landmarks"] = String(landmarkCount)
        meta["stages"] = String(stages.count)
        meta["descriptor"] = descriptor.text
        meta["reference_side"] = String(referenceSide)
        meta["shape_feature_scale"] = String(shapeFeatureScale)
        meta["method"] = "SDM cascade (Xiong & De la Torre 2013) on SIFT-like patch descriptors"
        var tensors: [String: ModelArchive.Tensor] = [:]
        tensors["mean_shape"] = .init(shape: [landmarkCount, 2], values: meanShape.flatMap { [$0.x, $0.y] })
        tensors["box_shape"] = .init(shape: [landmarkCount, 2], values: boxShape.flatMap { [$0.x, $0.y] })
        for (k, s) in stages.enumerated() {
            meta["stage.\(k).stride"] = String(s.stride)
            if let domains = s.yawDomains {
                meta["stage.\(k).yaw_bounds"] = domains.bounds.map { String($0) }.joined(separator: ",")
                for (d, m) in domains.maps.enumerated() {
                    tensors["stage.\(k).domain.\(d).weights"] = .init(shape: [m.featureCount, m.rank], values: m.weights, encoding: weightEncoding)
                    tensors["stage.\(k).domain.\(d).basis"] = .init(shape: [m.rank, 2 * landmarkCount], values: m.basis)
                }
            } else {
                tensors["stage.\(k).weights"] = .init(shape: [s.featureCount, s.rank], values: s.weights, encoding: weightEncoding)
                tensors["stage.\(k).basis"] = .init(shape: [s.rank, 2 * landmarkCount], values: s.basis)
            }
        }
        if !binaryStages.isEmpty { meta["binary_stages"] = String(binaryStages.count) }
        for (k, s) in binaryStages.enumerated() {
            meta["binary.\(k).radius"] = String(s.radius)
            meta["binary.\(k).trees"] = String(s.trees)
            meta["binary.\(k).depth"] = String(s.depth)
            tensors["binary.\(k).offsets"] = .init(shape: [s.offsets.count, 4], values: s.offsets.flatMap { [$0.x, $0.y, $0.z, $0.w] })
            tensors["binary.\(k).thresholds"] = .init(shape: [s.thresholds.count], values: s.thresholds)
            tensors["binary.\(k).weights"] = .init(shape: [s.map.featureCount, s.map.rank], values: s.map.weights, encoding: weightEncoding)
            tensors["binary.\(k).basis"] = .init(shape: [s.map.rank, 2 * landmarkCount], values: s.map.basis)
        }
        let partitioned = stages.contains { $0.yawDomains != nil }
        let version = !binaryStages.isEmpty ? 4 : partitioned ? 3 : 2
        return ModelArchive(kind: Self.archiveKind, version: version, metadata: meta, tensors: tensors)
    }

    /// Rebuilds a cascade from a parsed archive, checking every tensor against the declared layout.
    ///
    /// This module is built -Ounchecked, so nothing here touches untrusted bytes: ModelFormat (built
    /// with Swift's checks) has parsed the file and guarantees each tensor holds the product of its
    /// shape in finite values. Every index below follows a shape comparison with a layout made of
    /// bounded numbers: `n` is tied to `mean_shape`'s validated [n, 2], the descriptor length is at
    /// most 8 x 8 x 32 (`DescriptorSpec(text:)`), so `featureCount` cannot overflow.
    public init(archive: ModelArchive) throws {
        let m = archive.metadata
        guard let n = m["landmarks"].flatMap(Int.init), n > 0 else { throw ModelFileError("landmark model: missing or bad 'landmarks' count") }
        guard let stageCount = m["stages"].flatMap(Int.init), stageCount > 0 else { throw ModelFileError("landmark model: missing or bad 'stages' count") }
        guard let spec = m["descriptor"].flatMap(DescriptorSpec.init(text:)) else { throw ModelFileError("landmark model: missing or bad 'descriptor' spec") }
        // The reference face is 96 px in the shipped model; a side outside 1...10000 (or a stride
        // outside 0...10000) is damage, and would reach the crop's layout as an infinite scale.
        guard let side = m["reference_side"].flatMap(Float.init), side >= 1, side <= Self.maximumReferenceLength else {
            throw ModelFileError("landmark model: missing or bad 'reference_side' (must be 1...\(Self.maximumReferenceLength))")
        }
        func points(_ name: String) throws -> [SIMD2<Float>] {
            let t = try archive.tensor(name)
            guard t.shape == [n, 2], t.values.allSatisfy(\.isFinite) else { throw ModelFileError("landmark model: tensor '\(name)' is not \(n)x2 finite values") }
            return (0..<n).map { SIMD2(t.values[2 * $0], t.values[2 * $0 + 1]) }
        }
        var shapeScale: Float = 0
        if let text = m["shape_feature_scale"] {
            guard let v = Float(text), v >= 0, v.isFinite else { throw ModelFileError("landmark model: bad 'shape_feature_scale' \(text)") }
            shapeScale = v
        }
        let mean = try points("mean_shape")
        let box = try points("box_shape")
        let featureCount = n * spec.length + (shapeScale > 0 ? 2 * n : 0) + 1
        var stages: [CascadeStage] = []
        for k in 0..<stageCount {
            guard let stride = m["stage.\(k).stride"].flatMap(Float.init), stride > 0, stride <= Self.maximumReferenceLength else {
                throw ModelFileError("landmark model: stage \(k) lacks a valid stride (0...\(Self.maximumReferenceLength))")
            }
            func map(_ prefix: String, _ label: String) throws -> CascadeStage {
                let w = try archive.tensor("\(prefix).weights")
                let b = try archive.tensor("\(prefix).basis")
                guard w.shape.count == 2, w.shape[0] == featureCount, w.shape[1] > 0, w.shape[1] <= 2 * n else {
                    throw ModelFileError("landmark model: \(label) weights are \(w.shape), expected [\(featureCount), rank ≤ \(2 * n)]")
                }
                guard b.shape == [w.shape[1], 2 * n] else {
                    throw ModelFileError("landmark model: \(label) basis is \(b.shape), expected [\(w.shape[1]), \(2 * n)]")
                }
                guard w.values.allSatisfy(\.isFinite), b.values.allSatisfy(\.isFinite) else {
                    throw ModelFileError("landmark model: \(label) holds non-finite numbers")
                }
                return CascadeStage(stride: stride, featureCount: featureCount, rank: w.shape[1], weights: w.values, basis: b.values)
            }
            if let text = m["stage.\(k).yaw_bounds"] {
                let bounds = text.split(separator: ",").compactMap { Float($0) }
                guard archive.version >= 3, n == 68, !bounds.isEmpty, bounds.count < 16, bounds.count == text.split(separator: ",").count,
                      bounds.allSatisfy(\.isFinite), zip(bounds, bounds.dropFirst()).allSatisfy({ $0 < $1 }) else {
                    throw ModelFileError("landmark model: stage \(k) has bad 'yaw_bounds' \(text) (ascending numbers, 68 points, version ≥ 3)")
                }
                let maps = try (0...bounds.count).map { try map("stage.\(k).domain.\($0)", "stage \(k) yaw domain \($0)") }
                stages.append(CascadeStage(domains: YawDomains(bounds: bounds, maps: maps)))
            } else {
                stages.append(try map("stage.\(k)", "stage \(k)"))
            }
        }
        let binaryStages = try Self.binaryStages(archive, landmarks: n)
        self.init(meanShape: mean, boxShape: box, descriptor: spec, referenceSide: side, stages: stages, binaryStages: binaryStages,
                  shapeFeatureScale: shapeScale, metadata: m)
    }

    /// The local-binary-feature stages of a version-4 archive (none when it declares none). Every
    /// count is bounded before it sizes anything, so `LocalBinaryStage.leaves` (unchecked) only
    /// indexes what the tensors hold: nodes `n · trees · (2^depth − 1)`, bits `n · trees · 2^depth`.
    static func binaryStages(_ archive: ModelArchive, landmarks n: Int) throws -> [LocalBinaryStage] {
        let m = archive.metadata
        guard let text = m["binary_stages"] else { return [] }
        guard archive.version >= 4, let count = Int(text), (1...16).contains(count) else {
            throw ModelFileError("landmark model: bad 'binary_stages' \(text) (1...16, version ≥ 4)")
        }
        return try (0..<count).map { k in
            guard let radius = m["binary.\(k).radius"].flatMap(Float.init), radius > 0, radius <= Self.maximumReferenceLength,
                  let trees = m["binary.\(k).trees"].flatMap(Int.init), (1...Self.maximumTrees).contains(trees),
                  let depth = m["binary.\(k).depth"].flatMap(Int.init), (1...Self.maximumDepth).contains(depth) else {
                throw ModelFileError("landmark model: binary stage \(k) lacks a valid radius, trees (1...\(Self.maximumTrees)) or depth (1...\(Self.maximumDepth))")
            }
            let nodes = n * trees * ((1 << depth) - 1), features = n * trees * (1 << depth) + 1
            let o = try archive.tensor("binary.\(k).offsets"), t = try archive.tensor("binary.\(k).thresholds")
            let w = try archive.tensor("binary.\(k).weights"), b = try archive.tensor("binary.\(k).basis")
            guard o.shape == [nodes, 4], t.shape == [nodes], o.values.allSatisfy({ $0.isFinite && abs($0) <= Self.maximumReferenceLength }),
                  t.values.allSatisfy(\.isFinite) else {
                throw ModelFileError("landmark model: binary stage \(k) forests are \(o.shape)/\(t.shape), expected [\(nodes), 4]/[\(nodes)] finite values")
            }
            guard w.shape.count == 2, w.shape[0] == features, w.shape[1] > 0, w.shape[1] <= 2 * n, b.shape == [w.shape[1], 2 * n],
                  w.values.allSatisfy(\.isFinite), b.values.allSatisfy(\.isFinite) else {
                throw ModelFileError("landmark model: binary stage \(k) map is \(w.shape)/\(b.shape), expected [\(features), rank ≤ \(2 * n)]/[rank, \(2 * n)] finite values")
            }
            let offsets = (0..<nodes).map { SIMD4(o.values[4 * $0], o.values[4 * $0 + 1], o.values[4 * $0 + 2], o.values[4 * $0 + 3]) }
            let map = CascadeStage(stride: radius, featureCount: features, rank: w.shape[1], weights: w.values, basis: b.values)
            return LocalBinaryStage(radius: radius, trees: trees, depth: depth, landmarks: n, offsets: offsets, thresholds: t.values, map: map)
        }
    }
}
