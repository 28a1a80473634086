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
/// Materials are shaded by `Rasterizer.rasterizeQueued` (eight fragments at a time; wide triangles
/// eight neighbouring pixels at a time, `Rasterizer.drawSpans`) and occluders by
/// `Rasterizer.rasterizeDepth` (eight pixels at a time); `usesReferenceRasterizer` selects the
/// one-fragment-at-a-time `Rasterizer.rasterize` they are tested against.
public final class SceneRenderer {
    public var depth = DepthBuffer(width: 0, height: 0)
    public var lighting: Lighting
    public var antialiasing = true
    /// When set, drawing touches only these pixels. Set it to the glasses' `screenBounds` before
    /// drawing the head occluder: depth outside the glasses is never tested, and a head covers far
    /// more pixels than a pair of glasses.
    public var scissor: PixelRect?
    /// Shade with the straightforward rasteriser, one fragment at a time (`Rasterizer.rasterize`),
    /// instead of the batched fast path (`Rasterizer.rasterizeQueued`): the specification the fast
    /// path is tested against, pixel for pixel.
    public var usesReferenceRasterizer = false
    var queue = FragmentQueue()

    public init(lighting: Lighting = .studio) {
        self.lighting = lighting
    }

    /// Starts a frame of `width x height` pixels: empties the depth buffer.
    public func beginFrame(width: Int, height: Int) {
        depth.clear(width: width, height: height)
    }

    /// Writes `mesh`'s depth only, so later draws behind it are hidden. Both faces of open
    /// surfaces are drawn; a closed, consistently wound primitive (`RenderableMesh.outwardWinding`)
    /// only shows its outside to a camera outside it, so its inward-facing triangles — half the
    /// work — are skipped: the nearest depth is the same.
    public func drawOccluder(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage) {
        drawOccluder(mesh, modelToWorld: modelToWorld, camera: camera, into: &image, touching: scissor) { triangles, image, depth in
            rasterizeDepth(triangles, scissor: scissor, image: &image, depth: &depth)
        }
    }

    /// `drawOccluder` inside each of `regions` only (each also within `scissor` when set): the
    /// triangles are built once and rasterised once per region. Regions should not overlap (an
    /// overlap's depth is drawn twice, to the same result).
    public func drawOccluder(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage,
                             within regions: [PixelRect]) {
        guard var union = regions.first else { return }
        for r in regions.dropFirst() { union = union.union(r) }
        if let scissor { guard let u = union.overlap(scissor) else { return }; union = u }
        drawOccluder(mesh, modelToWorld: modelToWorld, camera: camera, into: &image, touching: union) { triangles, image, depth in
            for r in regions {
                guard let clip = scissor.map({ r.overlap($0) }) ?? r else { continue }
                rasterizeDepth(triangles, scissor: clip, image: &image, depth: &depth)
            }
        }
    }

    /// Builds the occluder's triangles that can touch `bounds` (nil: all), and hands them to `rasterize`.
    private func drawOccluder(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage,
                              touching bounds: PixelRect?, rasterize: ([ScreenTriangle], inout RGBImage, inout DepthBuffer) -> Void) {
        prepare(mesh, modelToWorld: modelToWorld, camera: camera, image: image, shading: false)
        for i in mesh.mesh.primitives.indices {
            buildTriangles(mesh, primitive: i, camera: camera, keep: mesh.outwardWinding[i], smooth: false, sortFarToNear: false,
                           touching: bounds)
            rasterize(mesh.triangles, &image, &depth)
        }
    }

    private func rasterizeDepth(_ triangles: [ScreenTriangle], scissor: PixelRect?, image: inout RGBImage, depth: inout DepthBuffer) {
        if usesReferenceRasterizer {
            Rasterizer.rasterize(triangles, shader: DepthOnlyShader(), color: &image, depth: &depth, scissor: scissor)
        } else {
            Rasterizer.rasterizeDepth(triangles, depth: &depth, scissor: scissor)
        }
    }

    /// Renders `mesh` placed by `modelToWorld` as seen by `camera`, into `image`.
    public func draw(_ mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera, into image: inout RGBImage) {
        prepare(mesh, modelToWorld: modelToWorld, camera: camera, image: image, shading: true)
        let prims = mesh.mesh.primitives
        // Translucent primitives wait for the second pass, sorted far to near by mean depth
        // (insertion sort into reused scratch: a handful of primitives, no allocation per frame).
        var translucent = mesh.translucentOrder
        mesh.translucentOrder = []
        translucent.removeAll(keepingCapacity: true)
        defer { mesh.translucentOrder = translucent }
        for i in prims.indices {
            let material = mesh.mesh.materials[prims[i].materialIndex]
            if material.isTranslucent {
                let meanZ = mesh.cameraPositions[i].withUnsafeBufferPointer { zs in
                    var sum: Float = 0
                    for v in zs { sum += v.z }
                    return zs.isEmpty ? 0 : sum / Float(zs.count)
                }
                var k = translucent.count
                translucent.append(SortKey(depth: meanZ, triangle: Int32(i)))
                while k > 0 && translucent[k - 1].depth < meanZ { translucent.swapAt(k - 1, k); k -= 1 }
                continue
            }
            buildTriangles(mesh, primitive: i, camera: camera, keep: material.doubleSided ? nil : true, smooth: antialiasing, sortFarToNear: false)
            shade(mesh, primitive: i, image: &image)
        }
        for key in translucent {
            let i = Int(key.triangle)
            let material = mesh.mesh.materials[prims[i].materialIndex]
            buildTriangles(mesh, primitive: i, camera: camera, keep: material.doubleSided ? nil : true, smooth: antialiasing, sortFarToNear: true)
            shade(mesh, primitive: i, image: &image)
        }
    }

    /// The pixels `mesh` can cover (its vertices' projections, one pixel of anti-aliasing margin),
    /// clamped to the camera's image; nil when it is entirely off screen or behind the camera.
    /// Vertices behind the near plane make the whole image the answer (clipping can reach any pixel).
    public func screenBounds(of mesh: RenderableMesh, modelToWorld: Transform3D, camera: PinholeCamera) -> PixelRect? {
        let cameraFromModel = camera.cameraFromWorld * modelToWorld
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        let image = PixelRect(x: 0, y: 0, width: camera.width, height: camera.height)
        for p in mesh.mesh.primitives {
            for v in p.positions {
                let c = cameraFromModel.apply(v)
                guard c.z >= camera.nearPlane else { return image }
                let u = SIMD2<Float>(camera.fx * c.x / c.z + camera.cx, camera.fy * c.y / c.z + camera.cy)
                lo = pointwiseMin(lo, u); hi = pointwiseMax(hi, u)
            }
        }
        guard lo.x <= hi.x else { return nil }
        let box = PixelRect(firstX: Int(max(-1e6, (lo.x - 1).rounded(.down))), firstY: Int(max(-1e6, (lo.y - 1).rounded(.down))),
                            lastX: Int(min(1e6, (hi.x + 1).rounded(.up))), lastY: Int(min(1e6, (hi.y + 1).rounded(.up))))
        return box.overlap(image)
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
            let fx = camera.fx, fy = camera.fy, cx = camera.cx, cy = camera.cy
            p.positions.withUnsafeBufferPointer { src in
                mesh.cameraPositions[i].withUnsafeMutableBufferPointer { dst in
                    mesh.screenPositions[i].withUnsafeMutableBufferPointer { screen in
                        // Projected once per vertex (valid in front of the near plane; clipped corners are reprojected).
                        for v in 0..<src.count {
                            let c = cameraFromModel.apply(src[v])
                            dst[v] = c
                            let iz = 1 / c.z
                            screen[v] = SIMD3<Float>(fx * c.x * iz + cx, fy * c.y * iz + cy, iz)
                        }
                    }
                }
            }
            if shading {
                mesh.cameraPositions[i].withUnsafeBufferPointer { src in
                    mesh.towardCamera[i].withUnsafeMutableBufferPointer { view in
                        for v in 0..<src.count { view[v] = -simdNormalize(src[v]) }
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

    /// Fills `mesh.triangles` with the visible, near-clipped screen triangles of one primitive:
    /// `keep` true keeps front-facing triangles only, false back-facing only, nil both.
    /// With `bounds`, triangles in front of the near plane whose pixel box misses it are left out: a
    /// head occluder drawn only beside the temples sets up only the triangles there.
    func buildTriangles(_ mesh: RenderableMesh, primitive i: Int, camera: PinholeCamera, keep: Bool?, smooth: Bool, sortFarToNear: Bool,
                        touching bounds: PixelRect? = nil) {
        // Work on local arrays (moved out and back) so appends need no class-property access.
        var triangles = mesh.triangles
        mesh.triangles = []
        triangles.removeAll(keepingCapacity: true)
        defer { mesh.triangles = triangles }
        var order = mesh.sortKeys
        mesh.sortKeys = []
        order.removeAll(keepingCapacity: true)
        defer { mesh.sortKeys = order }
        let p = mesh.mesh.primitives[i]
        let near = camera.nearPlane
        let fx = camera.fx, fy = camera.fy, cx = camera.cx, cy = camera.cy
        @inline(__always) func project(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let iz = 1 / c.z
            return SIMD3<Float>(fx * c.x * iz + cx, fy * c.y * iz + cy, iz)
        }
        let cull = keep != nil, wanted = keep ?? true
        let contacts = mesh.contacts[i]
        p.indices.withUnsafeBufferPointer { idx in
        mesh.facing[i].withUnsafeBufferPointer { facing in
        mesh.neighbours[i].withUnsafeBufferPointer { neighbours in
        mesh.cameraPositions[i].withUnsafeBufferPointer { cp in
        mesh.screenPositions[i].withUnsafeBufferPointer { screen in
            if sortFarToNear {
                for t in 0..<facing.count where !(cull && facing[t] != wanted) {
                    let z = cp[Int(idx[3 * t])].z + cp[Int(idx[3 * t + 1])].z + cp[Int(idx[3 * t + 2])].z
                    order.append(SortKey(depth: z, triangle: Int32(t)))
                }
                mesh.sortFarToNear(&order)
            }
            let count = sortFarToNear ? order.count : facing.count
            for n in 0..<count {
                let t = sortFarToNear ? Int(order[n].triangle) : n
                let front = facing[t]
                if cull && front != wanted { continue }
                let i0 = Int(idx[3 * t]), i1 = Int(idx[3 * t + 1]), i2 = Int(idx[3 * t + 2])
                let c0 = cp[i0], c1 = cp[i1], c2 = cp[i2]
                var edges: UInt8 = 0
                if smooth {
                    let nb = neighbours[t]
                    if nb.x < 0 || facing[Int(nb.x)] != front { edges |= 1 }
                    if nb.y < 0 || facing[Int(nb.y)] != front { edges |= 2 }
                    if nb.z < 0 || facing[Int(nb.z)] != front { edges |= 4 }
                    edges &= ~contacts[t]
                }
                if c0.z >= near && c1.z >= near && c2.z >= near {
                    if let bounds {
                        // A pixel (centre) is drawn only inside the triangle, so outside its box ± 1.
                        let s0 = screen[i0], s1 = screen[i1], s2 = screen[i2]
                        if max(s0.x, s1.x, s2.x) < Float(bounds.x) - 1 || min(s0.x, s1.x, s2.x) > Float(bounds.lastX) + 1
                            || max(s0.y, s1.y, s2.y) < Float(bounds.y) - 1 || min(s0.y, s1.y, s2.y) > Float(bounds.lastY) + 1 { continue }
                    }
                    triangles.append(ScreenTriangle(p0: screen[i0], p1: screen[i1], p2: screen[i2], source: Int32(t),
                                                    smoothEdges: edges, frontFacing: front))
                    continue
                }
                if c0.z < near && c1.z < near && c2.z < near { continue }
                // Sutherland-Hodgman against z = near (at most four corners, each with its barycentric
                // in the source triangle); clipped pieces are not edge-smoothed.
                var poly = (SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero)
                var bary = poly
                var m = 0
                @inline(__always) func emit(_ c: SIMD3<Float>, _ b: SIMD3<Float>) {
                    switch m {
                    case 0: poly.0 = c; bary.0 = b
                    case 1: poly.1 = c; bary.1 = b
                    case 2: poly.2 = c; bary.2 = b
                    default: poly.3 = c; bary.3 = b
                    }
                    m += 1
                }
                @inline(__always) func clipEdge(_ a: SIMD3<Float>, _ ba: SIMD3<Float>, _ b: SIMD3<Float>, _ bb: SIMD3<Float>) {
                    if a.z >= near { emit(a, ba) }
                    if (a.z >= near) != (b.z >= near) {
                        let s = (near - a.z) / (b.z - a.z)
                        emit(a + (b - a) * s, ba + (bb - ba) * s)
                    }
                }
                let e0 = SIMD3<Float>(1, 0, 0), e1 = SIMD3<Float>(0, 1, 0), e2 = SIMD3<Float>(0, 0, 1)
                clipEdge(c0, e0, c1, e1)
                clipEdge(c1, e1, c2, e2)
                clipEdge(c2, e2, c0, e0)
                guard m >= 3 else { continue }
                triangles.append(ScreenTriangle(p0: project(poly.0), p1: project(poly.1), p2: project(poly.2),
                                                source: Int32(t), smoothEdges: 0, frontFacing: front, b0: bary.0, b1: bary.1, b2: bary.2))
                if m == 4 {
                    triangles.append(ScreenTriangle(p0: project(poly.0), p1: project(poly.2), p2: project(poly.3),
                                                    source: Int32(t), smoothEdges: 0, frontFacing: front, b0: bary.0, b1: bary.2, b2: bary.3))
                }
            }
        }
        }
        }
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
                            mesh.screenPositions[i].withUnsafeBufferPointer { screen in
                                let view = PrimitiveView(indices: idx, towardCamera: toward, normals: nor, uvs: uv,
                                                         diffuseFront: front, diffuseBack: back, screen: screen)
                                if material.isLens {
                                    let shader = LensShader(view: view, material: material, texture: texture, lighting: lighting)
                                    if usesReferenceRasterizer {
                                        Rasterizer.rasterize(mesh.triangles, shader: shader, color: &image, depth: &depth, scissor: scissor)
                                    } else {
                                        Rasterizer.rasterizeQueued(mesh.triangles, shader: shader, color: &image, depth: &depth,
                                                                   scissor: scissor, queue: &queue)
                                    }
                                } else {
                                    let shader = SurfaceShader(view: view, material: material, texture: texture, lighting: lighting)
                                    if usesReferenceRasterizer {
                                        Rasterizer.rasterize(mesh.triangles, shader: shader, color: &image, depth: &depth, scissor: scissor)
                                    } else {
                                        Rasterizer.rasterizeQueued(mesh.triangles, shader: shader, color: &image, depth: &depth,
                                                                   scissor: scissor, queue: &queue)
                                    }
                                }
                            }
                            }
                        }
                    }
                }
            }
        }
    }
}
