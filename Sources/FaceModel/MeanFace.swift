import Foundation
import Geometry

/// The metric mean face: 3D positions in millimetres of the 68 iBUG landmarks, the two pupils and
/// the temple and ear points where glasses rest, for an average adult.
///
/// Face frame (equal to the camera frame when the face looks straight into the camera, so a pose is
/// `cameraFromFace`): origin midway between the pupils, x towards the image right (the subject's
/// left), y down, z away from the camera into the head; the nose tip therefore has negative z.
/// Pitch 0 is anatomical: the Frankfort horizontal (ear canal top to lower orbital rim) lies in the
/// x–z plane, i.e. the head held level looking straight ahead (`MeanFaceBuilder.levelFrankfort`).
/// Pairs (`pupils`, `temples`, `ears`) are image-left first (the subject's right), as in `IBUG68`.
/// The shape is exactly mirror-symmetric about x = 0. How it is built is in `MeanFaceBuilder` and
/// `Models/README.md`.
public struct MeanFace: Sendable, Equatable {
    public static let landmarkCount = 68

    public var landmarks: [SIMD3<Double>]
    /// Pupil centres (the centre of the entrance pupil, just behind the cornea apex).
    public var pupils: [SIMD3<Double>]
    /// Side of the head level with the eyes, where a glasses temple passes (about the frontotemporal region).
    public var temples: [SIMD3<Double>]
    /// The top of the ear attachment (otobasion superius), where a glasses temple rests.
    public var ears: [SIMD3<Double>]
    /// Free-form provenance (method, data, anthropometric constants).
    public var metadata: [String: String]

    public init(landmarks: [SIMD3<Double>], pupils: [SIMD3<Double>], temples: [SIMD3<Double>], ears: [SIMD3<Double>],
                metadata: [String: String] = [:]) {
        precondition(landmarks.count == Self.landmarkCount && pupils.count == 2 && temples.count == 2 && ears.count == 2,
                     "a mean face has 68 landmarks and two pupils, temples and ears")
        self.landmarks = landmarks
        self.pupils = pupils
        self.temples = temples
        self.ears = ears
        self.metadata = metadata
    }

    /// Interpupillary distance in millimetres.
    public var interpupillaryDistanceMM: Double { (pupils[1] - pupils[0]).length }

    /// Distance between the outer eye corners (36, 45), Farkas' biocular width ex–ex.
    public var biocularWidthMM: Double { (landmarks[45] - landmarks[36]).length }

    /// Distance between the inner eye corners (39, 42), Farkas' intercanthal width en–en.
    public var intercanthalWidthMM: Double { (landmarks[42] - landmarks[39]).length }
}
