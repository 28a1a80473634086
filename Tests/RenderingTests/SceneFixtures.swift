import Foundation
import Imaging
import Meshes
import Rendering

/// Small synthetic scenes: camera-facing quads and bars in millimetres, flat unlit colours.
enum SceneFixtures {
    /// Lighting that reproduces base colours exactly: ambient 1, no direct light, black environment.
    static let flat = Lighting(ambient: [1, 1, 1], direction: [0, 0, -1], color: [0, 0, 0], sky: [0, 0, 0], ground: [0, 0, 0])

    /// A camera at the origin looking down +z (camera = world), fx = fy = 500, principal point (100, 100).
    static func camera(width: Int = 200, height: Int = 200) -> PinholeCamera {
        PinholeCamera(fx: 500, fy: 500, cx: 100, cy: 100, width: width, height: height, nearPlane: 1)
    }

    static func material(_ rgb: SIMD3<Float>, alpha: Float = 1, doubleSided: Bool = false, transmission: Float = 0) -> Material {
        Material(name: "m", baseColor: SIMD4<Float>(rgb, alpha), metallic: 0, roughness: 1,
                 alphaMode: alpha < 1 ? .blend : .opaque, doubleSided: doubleSided, transmission: transmission)
    }

    /// An axis-aligned rectangle at depth `z`, facing the camera at the origin (normal −z, wound so).
    static func quad(x: ClosedRange<Float>, y: ClosedRange<Float>, z: Float, material: Int = 0) -> MeshPrimitive {
        let p: [SIMD3<Float>] = [[x.lowerBound, y.lowerBound, z], [x.upperBound, y.lowerBound, z],
                                 [x.upperBound, y.upperBound, z], [x.lowerBound, y.upperBound, z]]
        // Counter-clockwise seen from the camera (looking along +z with y down on screen).
        return MeshPrimitive(name: "quad", positions: p, normals: Array(repeating: [0, 0, -1], count: 4), uvs: [],
                             indices: [0, 2, 1, 0, 3, 2], materialIndex: material)
    }

    /// An axis-aligned box (closed, outward normals), for temples and bars.
    static func box(min lo: SIMD3<Float>, max hi: SIMD3<Float>, material: Int) -> MeshPrimitive {
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], indices: [UInt32] = []
        let faces: [(SIMD3<Float>, [SIMD3<Float>])] = [
            ([1, 0, 0], [[hi.x, lo.y, lo.z], [hi.x, hi.y, lo.z], [hi.x, hi.y, hi.z], [hi.x, lo.y, hi.z]]),
            ([-1, 0, 0], [[lo.x, lo.y, lo.z], [lo.x, lo.y, hi.z], [lo.x, hi.y, hi.z], [lo.x, hi.y, lo.z]]),
            ([0, 1, 0], [[lo.x, hi.y, lo.z], [lo.x, hi.y, hi.z], [hi.x, hi.y, hi.z], [hi.x, hi.y, lo.z]]),
            ([0, -1, 0], [[lo.x, lo.y, lo.z], [hi.x, lo.y, lo.z], [hi.x, lo.y, hi.z], [lo.x, lo.y, hi.z]]),
            ([0, 0, 1], [[lo.x, lo.y, hi.z], [hi.x, lo.y, hi.z], [hi.x, hi.y, hi.z], [lo.x, hi.y, hi.z]]),
            ([0, 0, -1], [[lo.x, lo.y, lo.z], [lo.x, hi.y, lo.z], [hi.x, hi.y, lo.z], [hi.x, lo.y, lo.z]]),
        ]
        for (n, corners) in faces {
            let base = UInt32(positions.count)
            positions += corners
            normals += Array(repeating: n, count: 4)
            // Orient each triangle so its geometric normal matches n.
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let a = corners[tri[0]], b = corners[tri[1]], c = corners[tri[2]]
                let g = simdCross(b - a, c - a)
                indices += simdDot(g, n) > 0 ? tri.map { base + UInt32($0) } : [base + UInt32(tri[0]), base + UInt32(tri[2]), base + UInt32(tri[1])]
            }
        }
        return MeshPrimitive(name: "box", positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: material)
    }

    static func background(_ width: Int = 200, _ height: Int = 200, _ v: UInt8 = 0) -> RGBImage {
        RGBImage(width: width, height: height, fill: (v, v, v))
    }

    static func render(_ mesh: Mesh, camera: PinholeCamera = camera(), modelToWorld: Transform3D = .identity,
                       into image: RGBImage? = nil, antialiasing: Bool = true) -> RGBImage {
        var out = image ?? background(camera.width, camera.height)
        let renderer = SceneRenderer(lighting: flat)
        renderer.antialiasing = antialiasing
        renderer.beginFrame(width: out.width, height: out.height)
        renderer.draw(RenderableMesh(mesh), modelToWorld: modelToWorld, camera: camera, into: &out)
        return out
    }
}
