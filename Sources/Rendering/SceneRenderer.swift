import Imaging
import Meshes

/// Draws meshes into a frame in place: the try-on compositor's rendering half.
///
/// Per frame: `beginFrame` clears depth; `drawOccluder` writes the head proxy's depth only;
/// `draw` renders a model — vertices to camera space, back-face culling for single-sided
/// materials, near-plane clipping, then opaque and MASK primitives front-to-back order-independent
/// with depth writes, then translucent primitives (lenses, BLEND) far to near, each sorted by
/// triangle depth, tested against but not writing depth. Silhouette edges are anti-aliased when
/// `antialiasing` is on. The camera's units are the models' (millimetres for the try-on).
public final class SceneRenderer {
    public var depth = DepthBuffer(width: 0, height: 0)
    public var lighting: Lighting
    public var antialiasing = true
    /// When set, drawing touches only these pixels. Set it to the glasses' `screenBounds` before
    /// drawing the head occluder: depth outside the glasses is never tested, and a head covers far
    /// more pixels than a pair of glasses.
    public var scissor: PixelBounds?

    public init(lighting: Lighting = .studio) {
        self.lighting = lighting
    }

    /// Starts a frame of `width x height` pixels: empties the depth buffer.
    public func beginFrame(width: Int, height: Int) {
        depth.clear(width: width, height: height)
    }

    /// Writes `mesh`'s depth only (both faces), so later draws behind it are hidden.
    public func drawOccluder(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage) {
        prepare(mesh, modelToWorld: modelToWorld, camera: camera, image: image, shading: false)
        for i in mesh.mesh.primitives.indices {
            buildTriangles(mesh, primitive: i, camera: camera, cull: false, smooth: false, sortFarToNear: false)
            Rasterizer.rasterize(mesh.triangles, shader: DepthOnlyShader(), color: &image, depth: &depth, scissor: scissor)
        }
    }

    /// Renders `mesh` placed by `modelToWorld` as seen by `camera`, into `image`.
    public func draw(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage) {
        prepare(mesh, modelToWorld: modelToWorld, camera: camera, image: image, shading: true)
        let prims = mesh.mesh.primitives
        var translucent: [(depth: Float, index: Int)] = []
        for i in prims.indices {
            let material = mesh.mesh.materials[prims[i].materialIndex]
            if material.isTranslucent {
                let zs = mesh.cameraPositions[i]
                let meanZ = zs.isEmpty ? 0 : zs.reduce(Float(0)) { $0 + $1.z } / Float(zs.count)
                translucent.append((meanZ, i))
                continue
            }
            buildTriangles(mesh, primitive: i, camera: camera, cull: !material.doubleSided, smooth: antialiasing, sortFarToNear: false)
            shade(mesh, primitive: i, image: &image)
        }
        for (_, i) in translucent.sorted(by: { $0.depth > $1.depth }) {
            let material = mesh.mesh.materials[prims[i].materialIndex]
            buildTriangles(mesh, primitive: i, camera: camera, cull: !material.doubleSided, smooth: antialiasing, sortFarToNear: true)
            shade(mesh, primitive: i, image: &image)
        }
    }

    /// The pixels `mesh` can cover (its vertices' projections, one pixel of anti-aliasing margin),
    /// clamped to the camera's image; nil when it is entirely off screen or behind the camera.
    /// Vertices behind the near plane make the whole image the answer (clipping can reach any pixel).
    public func screenBounds(of mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera) -> PixelBounds? {
        let cameraFromModel = camera.cameraFromWorld * modelToWorld
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        let image = PixelBounds(minX: 0, minY: 0, maxX: camera.width - 1, maxY: camera.height - 1)
        for p in mesh.mesh.primitives {
            for v in p.positions {
                let c = cameraFromModel.apply(v)
                guard c.z >= camera.nearPlane else { return image }
                let u = SIMD2<Float>(camera.fx * c.x / c.z + camera.cx, camera.fy * c.y / c.z + camera.cy)
                lo = pointwiseMin(lo, u); hi = pointwiseMax(hi, u)
            }
        }
        guard lo.x <= hi.x else { return nil }
        let box = PixelBounds(minX: Int(max(-1e6, (lo.x - 1).rounded(.down))), minY: Int(max(-1e6, (lo.y - 1).rounded(.down))),
                              maxX: Int(min(1e6, (hi.x + 1).rounded(.up))), maxY: Int(min(1e6, (hi.y + 1).rounded(.up))))
        return box.intersection(image)
    }

    // MARK: Stages

    func prepare(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, image: RGBImage, shading: Bool) {
        if depth.width != image.width || depth.height != image.height { depth.clear(width: image.width, height: image.height) }
        let cameraFromModel = camera.cameraFromWorld * modelToWorld
        var normalMatrix = cameraFromModel.normalMatrix
        // A rotation times a uniform scale keeps unit normals at one common length: scale that
        // out once instead of normalising every vertex (the shaders renormalise per pixel anyway).
        let l0 = simdLength(normalMatrix.c0), l1 = simdLength(normalMatrix.c1), l2 = simdLength(normalMatrix.c2)
        let conformal = abs(l0 - l1) <= 1e-4 * l0 && abs(l0 - l2) <= 1e-4 * l0
            && abs(simdDot(normalMatrix.c0, normalMatrix.c1)) <= 1e-4 * l0 * l0 && abs(simdDot(normalMatrix.c0, normalMatrix.c2)) <= 1e-4 * l0 * l0
            && abs(simdDot(normalMatrix.c1, normalMatrix.c2)) <= 1e-4 * l0 * l0 && l0 > 0
        if conformal {
            let s = 1 / l0
            normalMatrix = Transform3D(columns: normalMatrix.c0 * s, normalMatrix.c1 * s, normalMatrix.c2 * s)
        }
        for (i, p) in mesh.mesh.primitives.enumerated() {
            p.positions.withUnsafeBufferPointer { src in
                mesh.cameraPositions[i].withUnsafeMutableBufferPointer { dst in
                    mesh.towardCamera[i].withUnsafeMutableBufferPointer { view in
                        for v in 0..<src.count {
                            let c = cameraFromModel.apply(src[v])
                            dst[v] = c
                            view[v] = -simdNormalize(c)
                        }
                    }
                }
            }
            p.normals.withUnsafeBufferPointer { src in
                mesh.cameraNormals[i].withUnsafeMutableBufferPointer { dst in
                    if conformal {
                        for v in 0..<src.count { dst[v] = normalMatrix.applyLinear(src[v]) }
                    } else {
                        for v in 0..<src.count { dst[v] = simdNormalize(normalMatrix.applyLinear(src[v])) }
                    }
                }
            }
            if shading {
                let lighting = self.lighting
                let twoSided = mesh.mesh.materials[p.materialIndex].doubleSided
                mesh.cameraNormals[i].withUnsafeBufferPointer { nor in
                    mesh.diffuseFront[i].withUnsafeMutableBufferPointer { front in
                        for v in 0..<nor.count { front[v] = lighting.diffuse(normal: nor[v]) }
                    }
                    guard twoSided else { return }
                    mesh.diffuseBack[i].withUnsafeMutableBufferPointer { back in
                        for v in 0..<nor.count { back[v] = lighting.diffuseBehind(normal: nor[v]) }
                    }
                }
            }
            // Facing from the geometric normal: the camera sits at the origin of camera space.
            let mirrored = cameraFromModel.determinant < 0
            mesh.cameraPositions[i].withUnsafeBufferPointer { cp in
                p.indices.withUnsafeBufferPointer { idx in
                    mesh.facing[i].withUnsafeMutableBufferPointer { f in
                        for t in 0..<f.count {
                            let a = cp[Int(idx[3 * t])], b = cp[Int(idx[3 * t + 1])], c = cp[Int(idx[3 * t + 2])]
                            let front = simdDot(simdCross(b - a, c - a), a) < 0
                            f[t] = front != mirrored
                        }
                    }
                }
            }
        }
    }

    /// Fills `mesh.triangles` with the visible, near-clipped screen triangles of one primitive.
    func buildTriangles(_ mesh: RenderableMesh, primitive i: Int, camera: PinholeCamera, cull: Bool, smooth: Bool, sortFarToNear: Bool) {
        // Work on a local array (moved out and back) so appends need no class-property access.
        var triangles = mesh.triangles
        mesh.triangles = []
        triangles.removeAll(keepingCapacity: true)
        defer { mesh.triangles = triangles }
        let p = mesh.mesh.primitives[i]
        let near = camera.nearPlane
        let fx = camera.fx, fy = camera.fy, cx = camera.cx, cy = camera.cy
        @inline(__always) func project(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let iz = 1 / c.z
            return SIMD3<Float>(fx * c.x * iz + cx, fy * c.y * iz + cy, iz)
        }
        let facing = mesh.facing[i]
        let neighbours = mesh.neighbours[i]
        let cp = mesh.cameraPositions[i]
        if sortFarToNear {
            mesh.sortKeys.removeAll(keepingCapacity: true)
            for t in 0..<p.triangleCount where !(cull && !facing[t]) {
                let z = cp[Int(p.indices[3 * t])].z + cp[Int(p.indices[3 * t + 1])].z + cp[Int(p.indices[3 * t + 2])].z
                mesh.sortKeys.append((z, Int32(t)))
            }
            mesh.sortKeys.sort { $0.0 > $1.0 }
        }
        let count = sortFarToNear ? mesh.sortKeys.count : p.triangleCount
        for n in 0..<count {
            let t = sortFarToNear ? Int(mesh.sortKeys[n].1) : n
            let front = facing[t]
            if cull && !front { continue }
            let c0 = cp[Int(p.indices[3 * t])], c1 = cp[Int(p.indices[3 * t + 1])], c2 = cp[Int(p.indices[3 * t + 2])]
            var edges: UInt8 = 0
            if smooth {
                let nb = neighbours[t]
                for k in 0..<3 where nb[k] < 0 || facing[Int(nb[k])] != front { edges |= 1 << UInt8(k) }
            }
            if c0.z >= near && c1.z >= near && c2.z >= near {
                triangles.append(ScreenTriangle(p0: project(c0), p1: project(c1), p2: project(c2), source: Int32(t),
                                                     smoothEdges: edges, frontFacing: front))
                continue
            }
            if c0.z < near && c1.z < near && c2.z < near { continue }
            // Sutherland-Hodgman against z = near; clipped pieces are not edge-smoothed.
            let corners: [(SIMD3<Float>, SIMD3<Float>)] = [(c0, [1, 0, 0]), (c1, [0, 1, 0]), (c2, [0, 0, 1])]
            var poly: [(SIMD3<Float>, SIMD3<Float>)] = []
            for k in 0..<3 {
                let (a, ba) = corners[k], (b, bb) = corners[(k + 1) % 3]
                if a.z >= near { poly.append((a, ba)) }
                if (a.z >= near) != (b.z >= near) {
                    let s = (near - a.z) / (b.z - a.z)
                    poly.append((a + (b - a) * s, ba + (bb - ba) * s))
                }
            }
            guard poly.count >= 3 else { continue }
            for k in 1..<(poly.count - 1) {
                triangles.append(ScreenTriangle(p0: project(poly[0].0), p1: project(poly[k].0), p2: project(poly[k + 1].0),
                                                     source: Int32(t), smoothEdges: 0, frontFacing: front,
                                                     b0: poly[0].1, b1: poly[k].1, b2: poly[k + 1].1))
            }
        }
    }

    func shade(_ mesh: RenderableMesh, primitive i: Int, image: inout RGBImage) {
        let p = mesh.mesh.primitives[i]
        let material = mesh.mesh.materials[p.materialIndex]
        let texture = material.baseColorTexture.flatMap { $0 < mesh.mesh.textures.count ? mesh.mesh.textures[$0] : nil }
        let lighting = self.lighting
        p.indices.withUnsafeBufferPointer { idx in
            mesh.towardCamera[i].withUnsafeBufferPointer { toward in
                mesh.cameraNormals[i].withUnsafeBufferPointer { nor in
                    p.uvs.withUnsafeBufferPointer { uv in
                        mesh.diffuseFront[i].withUnsafeBufferPointer { front in
                            mesh.diffuseBack[i].withUnsafeBufferPointer { back in
                                let view = PrimitiveView(indices: idx, towardCamera: toward, normals: nor, uvs: uv,
                                                         diffuseFront: front, diffuseBack: back)
                                if material.isLens {
                                    let shader = LensShader(view: view, material: material, texture: texture, lighting: lighting)
                                    Rasterizer.rasterize(mesh.triangles, shader: shader, color: &image, depth: &depth, scissor: scissor)
                                } else {
                                    let shader = SurfaceShader(view: view, material: material, texture: texture, lighting: lighting)
                                    Rasterizer.rasterize(mesh.triangles, shader: shader, color: &image, depth: &depth, scissor: scissor)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
