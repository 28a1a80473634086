import Meshes

/// A metric head proxy with ears, drawn depth-only so glasses temples disappear behind the head
/// and ears as it turns. It lives in the face frame of `FaceModel.MeanFace` (millimetres, origin
/// midway between the pupils, +x towards the subject's left, +y down, +z into the head), so the
/// tracker's `cameraFromFace` pose places it directly.
///
/// Shape (adult averages, Farkas 1994 via `FaceModel.Anthropometry`): a superellipsoid (exponent 8
/// horizontally: flat sides; 2.5 vertically) 2·`halfBreadth` = 141 mm wide — just inside the 145 mm
/// ear breadth, so temples opened to the head width stay visible from the front — 200 mm long from
/// the eye plane (front at z = −6, behind a lens 12 mm ahead of the cornea) and 230 mm tall, centred
/// 15 mm above the eye line, whose breadth is then shaped like a head (`breadthFactor`):
/// - in plan, the front is rounded: 72 % of the breadth (101 mm) at the front, 85 % level with the
///   outer eye corners, the full breadth from 40 mm behind the front (the temporal region and the
///   cranium), so a temple leaving a hinge beside the eye is not cut by a square corner on turns;
/// - below the eyes the face narrows: full breadth down to 15 mm below the eye line, 80 % at the
///   mouth (≈ bigonial over bitragion breadth, 100–110 mm vs 140 mm) and below.
/// Each ear is an ellipsoid 60 mm tall, 30 mm long and 14 mm thick whose top (otobasion superius)
/// is 5 mm above the eye line and 90 mm behind the eye corners. The nose and the neck are not modelled.
public enum HeadOccluder {
    public static let halfBreadth: Float = 70.5
    public static let frontZ: Float = -6
    public static let lengthMM: Float = 200
    public static let heightMM: Float = 230
    public static let earTopY: Float = -5
    public static let earCentreZ: Float = 92
    /// Breadth at the front (z = `frontZ`) as a fraction of the full breadth.
    public static let frontTaper: Float = 0.72
    /// Depth behind the front over which the plan section widens to the full breadth (mm).
    public static let frontRounding: Float = 40
    /// Breadth at and below the mouth as a fraction of the full breadth.
    public static let jawTaper: Float = 0.8

    /// The head's breadth at height `y` and depth `z` (face frame, mm) as a fraction of `2·halfBreadth`.
    public static func breadthFactor(y: Float, z: Float) -> Float {
        let t = min(max((z - frontZ) / frontRounding, 0), 1)
        let plan = frontTaper + (1 - frontTaper) * (1 - (1 - t) * (1 - t))
        let u = min(max((y - 15) / 60, 0), 1)
        let jaw = 1 - (1 - jawTaper) * u * u * (3 - 2 * u)
        return plan * jaw
    }

    public static func mesh(rings: Int = 24, segments: Int = 48) -> Mesh {
        var head = MeshBuilder()
        let centre = SIMD3<Float>(0, -15, frontZ + lengthMM / 2)
        let radii = SIMD3<Float>(halfBreadth, heightMM / 2, lengthMM / 2)
        superellipsoid(&head, centre: centre, radii: radii, horizontalExponent: 8, verticalExponent: 2.5, rings: rings, segments: segments)
        for i in head.positions.indices {
            let f = breadthFactor(y: head.positions[i].y, z: head.positions[i].z)
            head.positions[i].x *= f
            head.normals[i].x /= f
            head.normals[i] = simdNormalize(head.normals[i])
        }
        var ears = MeshBuilder()
        for side in [Float(1), -1] {
            let earCentre = SIMD3<Float>(side * (halfBreadth + 4), earTopY + 30, earCentreZ)
            superellipsoid(&ears, centre: earCentre, radii: [7, 30, 15], horizontalExponent: 2, verticalExponent: 2,
                           rings: rings / 2, segments: segments / 2)
        }
        let material = Material(name: "occluder", baseColor: [0.8, 0.7, 0.6, 1], metallic: 0, roughness: 0.8)
        return Mesh(primitives: [head.primitive(name: "head", material: 0), ears.primitive(name: "ears", material: 0)],
                    materials: [material])
    }

    /// Points (x, y, z) with |x/a|^h + |z/c|^h = r(y)^h and |y/b|^v + r^v = 1, on a latitude-longitude grid.
    static func superellipsoid(_ b: inout MeshBuilder, centre: SIMD3<Float>, radii: SIMD3<Float>, horizontalExponent h: Float,
                               verticalExponent v: Float, rings: Int, segments: Int) {
        func signedPow(_ x: Float, _ e: Float) -> Float { copysign(powf(abs(x), e), x) }
        var grid: [[UInt32]] = []
        for i in 0...rings {
            let theta = -Float.pi / 2 + Float.pi * Float(i) / Float(rings)
            // The pole rings collapse to one point exactly, so their sliver triangles are dropped.
            let pole = i == 0 || i == rings
            let cy = pole ? (i == 0 ? -1 : 1) : signedPow(sinf(theta), 2 / v), r = pole ? 0 : powf(abs(cosf(theta)), 2 / v)
            var row: [UInt32] = []
            for j in 0..<segments {
                let phi = 2 * Float.pi * Float(j) / Float(segments)
                let cx = r * signedPow(cosf(phi), 2 / h), cz = r * signedPow(sinf(phi), 2 / h)
                let p = SIMD3<Float>(cx, cy, cz) * radii
                // Normal from the implicit function's gradient (direction only).
                let q = SIMD3<Float>(cx, cy, cz)
                var n = SIMD3<Float>(signedPow(q.x, h - 1) / radii.x, signedPow(q.y, v - 1) / radii.y, signedPow(q.z, h - 1) / radii.z)
                if simdLength(n) < 1e-6 { n = simdNormalize(p) }
                row.append(b.vertex(centre + p, n))
            }
            grid.append(row)
        }
        for i in 0..<rings {
            for j in 0..<segments {
                let j1 = (j + 1) % segments
                b.triangle(grid[i][j], grid[i + 1][j], grid[i + 1][j1])
                b.triangle(grid[i][j], grid[i + 1][j1], grid[i][j1])
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
