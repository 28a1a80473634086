import FaceModelTraining
import FaceData
import FaceMarkup
import FaceModel
import Foundation
import Geometry
import Testing

private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let sharedTrain = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path

@Test func committedMeanFaceIsMetricSymmetricAndFacesTheCamera() throws {
    let face = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    // Scale: published adult averages within a few millimetres (the annotated eye corners make the eyes
    // narrower and the intercanthal gap wider than Farkas' landmarks, so neither matches exactly).
    #expect(abs(face.biocularWidthMM - Anthropometry.biocularWidthMM) < 7)
    #expect(abs(face.intercanthalWidthMM - Anthropometry.intercanthalWidthMM) < 5)
    #expect(abs(face.interpupillaryDistanceMM - Anthropometry.interpupillaryDistanceMM) < 5)
    // Mirror symmetry about x = 0.
    for i in 0..<68 {
        let m = face.landmarks[IBUG68.mirror[i]]
        #expect((face.landmarks[i] - SIMD3(-m.x, m.y, m.z)).length < 0.02)
    }
    // Orientation: image-left points have x < 0, chin below the eyes, nose tip in front of the eyes,
    // ears far behind the eyes.
    #expect(face.landmarks[36].x < 0 && face.landmarks[45].x > 0)
    #expect(face.landmarks[8].y > face.landmarks[36].y + 60)
    #expect(face.landmarks[30].z < face.landmarks[39].z - 10)
    #expect(face.ears[0].z > face.landmarks[36].z + 60)
    // Pitch reference: with the Frankfort plane level, the nasion → chin (27 → 8) line recedes only a few
    // degrees (pogonion near the nasion vertical, menton ≈ 10 mm behind it), not the 16.5° of the
    // factorisation's average view.
    let profile = face.landmarks[8] - face.landmarks[27]
    let recession = atan2(profile.z, profile.y) * 180 / .pi
    #expect(recession > 2 && recession < 7, "nasion-chin line recedes \(recession)°")
    #expect(face.metadata["pitch_reference"]?.contains("Frankfort") == true)
    #expect(abs((face.pupils[0] + face.pupils[1]).length) < 1e-6)
    // The file round-trips and wrong files are refused with a reason.
    #expect(try MeanFace(json: Data(face.jsonText.utf8)).landmarks.count == 68)
    #expect(throws: MeanFaceError.self) { try MeanFace(json: Data("{}".utf8)) }
    #expect(throws: MeanFaceError.self) { try MeanFace(json: Data(#"{"format": "lorgnette-mean-face", "version": 99, "units": "mm"}"#.utf8)) }
}

@Test func builderRecoversAKnownRigidShape() throws {
    // Synthetic faces: a fixed 3D face (the committed one) under random scaled-orthographic views,
    // rebuilt by factorisation, must match the original shape up to scale.
    let truth = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    var g = SystemRandomNumberGenerator()
    var shapes: [[SIMD2<Float>]] = []
    for _ in 0..<200 {
        let r = EulerAngles(degreesPitch: .random(in: -20...20, using: &g), yaw: .random(in: -40...40, using: &g), roll: .random(in: -15...15, using: &g)).rotation
        let s = Double.random(in: 1...3, using: &g)
        shapes.append(truth.landmarks.map { p in let q = r * p; return SIMD2(Float(s * q.x + 300), Float(s * q.y + 200)) })
    }
    let (built, _) = try MeanFaceBuilder().build(shapes: shapes)
    // Compare after a rigid fit (both are metric; scale comes from the same anthropometry).
    let fit = try #require(RigidTransform.fit(from: built.landmarks, to: truth.landmarks))
    var err = 0.0
    for i in 0..<68 { err = max(err, (fit.apply(built.landmarks[i]) - truth.landmarks[i]).length) }
    #expect(err < 1.0, "max landmark error \(err) mm")
    #expect(throws: MeanFaceError.self) { try MeanFaceBuilder().build(shapes: []) }
}

@Test(.enabled(if: FileManager.default.fileExists(atPath: sharedTrain), "shared face data absent: \(sharedTrain)"))
func builderOnTheAnnotatedFacesMatchesTheCommittedModel() throws {
    let dataset = try FaceDataset(directory: sharedTrain)
    let shapes = try dataset.entries.map { try PTSFile.parse(String(contentsOfFile: $0.pointsPath, encoding: .utf8)) }
    let (built, report) = try MeanFaceBuilder().build(shapes: shapes)
    let committed = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    var worst = 0.0
    for i in 0..<68 { worst = max(worst, (built.landmarks[i] - committed.landmarks[i]).length) }
    #expect(worst < 0.05, "rebuilt mean face differs from Models/mean-face.json by \(worst) mm")
    #expect(report.medianResidual < 0.06)
}
