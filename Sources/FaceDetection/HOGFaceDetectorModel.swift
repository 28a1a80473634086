import Foundation
import ModelFormat

/// A trained HOG face detector: the window geometry, one or more linear filters (mixture
/// components; the detector takes the best of them at each window), the calibrated score
/// threshold, and free-form provenance (training command, data, seed, measured accuracy).
///
/// File format: a `ModelArchive` of kind "FDET", version 1. Metadata `feature` names the feature
/// spec (`fhog31-cell8-hardbin`, see `HOGExtractor`); `window` is "cells,faceOffset,faceCells";
/// `levels_per_octave`; `threshold`; optionally `prune_rows` with the tensor `prune_threshold`
/// [components] float32 (early rejection, see `LinearWindowFilter`). Tensors: `weights`
/// [components, cells, cells, 31] float16, `bias` [components] float32. Any mismatch is refused
/// with a `ModelArchiveError`.
public struct HOGFaceDetectorModel: Sendable {
    public static let kind = "FDET"
    public static let version = 1
    public static let featureSpec = "fhog31-cell8-hardbin"

    public var window: DetectorWindow
    public var filters: [LinearWindowFilter]
    public var threshold: Float
    /// Provenance, written into the file as metadata (keys must not clash with the format's own).
    public var provenance: [String: String]

    public init(window: DetectorWindow, filters: [LinearWindowFilter], threshold: Float, provenance: [String: String] = [:]) {
        precondition(!filters.isEmpty, "a detector needs at least one filter")
        for f in filters {
            precondition(f.cellsX == window.cells && f.cellsY == window.cells, "filter size must match the window")
        }
        self.window = window
        self.filters = filters
        self.threshold = threshold
        self.provenance = provenance
    }

    private static let reservedKeys: Set<String> = ["feature", "window", "levels_per_octave", "threshold", "prune_rows"]

    public func archive() -> ModelArchive {
        var metadata = provenance.filter { !Self.reservedKeys.contains($0.key) }
        metadata["feature"] = Self.featureSpec
        metadata["window"] = "\(window.cells),\(window.faceOffset),\(window.faceCells)"
        metadata["levels_per_octave"] = String(window.levelsPerOctave)
        metadata["threshold"] = String(threshold)
        let d = HOGFeatureMap.dimensions, stride = HOGFeatureMap.stride
        var weights: [Float] = []
        weights.reserveCapacity(filters.count * window.cells * window.cells * d)
        for f in filters {
            for c in 0 ..< window.cells * window.cells {
                weights.append(contentsOf: f.weights[c * stride ..< c * stride + d])
            }
        }
        var tensors: [String: ModelArchive.Tensor] = [
            "weights": .init(shape: [filters.count, window.cells, window.cells, d], values: weights, encoding: .float16),
            "bias": .init(shape: [filters.count], values: filters.map(\.bias), encoding: .float32),
        ]
        if let rows = filters.first?.pruneRows, rows > 0, filters.allSatisfy({ $0.pruneRows == rows && $0.pruneThreshold.isFinite }) {
            metadata["prune_rows"] = String(rows)
            tensors["prune_threshold"] = .init(shape: [filters.count], values: filters.map(\.pruneThreshold), encoding: .float32)
        }
        return ModelArchive(kind: Self.kind, version: Self.version, metadata: metadata, tensors: tensors)
    }

    public func serialized() -> [UInt8] { archive().serialized() }

    public func write(toFile path: String) throws {
        try Data(serialized()).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Parses a detector file; throws `ModelArchiveError` naming the problem.
    ///
    /// The bytes are parsed by ModelArchive (ModelFormat, built with Swift's checks: each tensor
    /// holds the product of its shape in finite values); this -Ounchecked module only indexes
    /// tensors whose shapes it has compared with the window (at most 64 x 64 cells) first.
    public init(bytes: [UInt8]) throws {
        let a = try ModelArchive(bytes: bytes, expectedKind: Self.kind, supportedVersions: Self.version ... Self.version)
        func corrupt(_ detail: String) -> ModelArchiveError { .corrupt(kind: Self.kind, detail: detail) }
        guard a.metadata["feature"] == Self.featureSpec else {
            throw corrupt("feature spec '\(a.metadata["feature"] ?? "none")' is not \(Self.featureSpec)")
        }
        let geometry = (a.metadata["window"] ?? "").split(separator: ",").compactMap { Int($0) }
        // Each number is bounded before they are added, so a forged "window" cannot overflow the sum.
        guard geometry.count == 3, geometry[0] > 0, geometry[0] <= 64, geometry[2] > 0, geometry[1] >= 0,
              geometry[1] <= geometry[0], geometry[2] <= geometry[0], geometry[1] + geometry[2] <= geometry[0],
              let levels = a.metadata["levels_per_octave"].flatMap({ Int($0) }), (1 ... 16).contains(levels),
              let threshold = a.metadata["threshold"].flatMap({ Float($0) }), threshold.isFinite else {
            throw corrupt("bad window geometry, levels_per_octave or threshold metadata")
        }
        let window = DetectorWindow(cells: geometry[0], faceOffset: geometry[1], faceCells: geometry[2], levelsPerOctave: levels)
        let w = try a.tensor("weights"), b = try a.tensor("bias")
        let d = HOGFeatureMap.dimensions, stride = HOGFeatureMap.stride
        guard w.shape.count == 4, w.shape[0] >= 1, w.shape[1] == window.cells, w.shape[2] == window.cells, w.shape[3] == d,
              b.shape == [w.shape[0]] else {
            throw corrupt("weights \(w.shape) / bias \(b.shape) do not match a \(window.cells)x\(window.cells)-cell window")
        }
        guard w.values.allSatisfy(\.isFinite), b.values.allSatisfy(\.isFinite) else { throw corrupt("non-finite weights") }
        let cellsPerFilter = window.cells * window.cells
        var filters: [LinearWindowFilter] = []
        for k in 0 ..< w.shape[0] {
            var padded = [Float](repeating: 0, count: cellsPerFilter * stride)
            for c in 0 ..< cellsPerFilter {
                let src = (k * cellsPerFilter + c) * d
                for j in 0 ..< d { padded[c * stride + j] = w.values[src + j] }
            }
            filters.append(LinearWindowFilter(cellsX: window.cells, cellsY: window.cells, weights: padded, bias: b.values[k]))
        }
        if let rowsText = a.metadata["prune_rows"] {
            guard let rows = Int(rowsText), rows > 0, rows < window.cells, let p = a.tensors["prune_threshold"],
                  p.shape == [filters.count], p.values.allSatisfy(\.isFinite) else {
                throw corrupt("bad early-rejection data (prune_rows / prune_threshold)")
            }
            for k in filters.indices { filters[k].pruneRows = rows; filters[k].pruneThreshold = p.values[k] }
        }
        self.init(window: window, filters: filters, threshold: threshold,
                  provenance: a.metadata.filter { !Self.reservedKeys.contains($0.key) })
    }

    /// Reads a detector file; throws a file error or a `ModelArchiveError`.
    public init(contentsOfFile path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try self.init(bytes: [UInt8](data))
    }
}

extension HOGFaceDetectorModel {
    /// Each window's score: the best over the model's filters (row-major into `best`, grown as
    /// needed; `scores` is scratch). Returns the window grid's size. The whole-level scan and the
    /// skipped levels' regions both score through here.
    func bestScores(_ features: HOGFeatureMap, scores: inout [Float], best: inout [Float]) -> (width: Int, height: Int) {
        var size = (width: 0, height: 0)
        for (i, filter) in filters.enumerated() {
            size = filter.scoreMap(features, into: &scores)
            let n = size.width * size.height
            if i == 0 {
                if best.count < n { best = [Float](repeating: 0, count: n) }
                for j in 0 ..< n { best[j] = scores[j] }
            } else {
                for j in 0 ..< n { best[j] = max(best[j], scores[j]) }
            }
        }
        return size
    }
}
