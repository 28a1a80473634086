import Imaging
import Meshes
import Rendering

/// Where on screen the head occluder can hide part of the glasses: the screen boxes of the glasses
/// triangles that reach back to the occluder's front, one box per side of the head.
///
/// The occluder lies wholly behind its front plane (z ≥ `frontZ` in its own frame: the smallest z of
/// its vertices, and its facets are chords of those vertices). A glasses point in front of that plane,
/// seen by a camera also in front of it, is joined to the camera by a segment that stays in front of
/// the plane, so nothing of the occluder can cover it. The lenses, rims and bridge sit 12 mm ahead of
/// the corneas, the occluder's front 6 mm ahead: mostly the temples reach behind it. Drawing the
/// occluder's depth only inside the reaching triangles' boxes therefore hides exactly what drawing
/// it over the whole pair of glasses hid, over fewer pixels: on a frontal face, the temples' and the tilted
/// lower rims' boxes, leaving out the bridge, the top rims and the lenses' upper parts.
///
/// Reused frame after frame: its scratch buffers allocate only for a larger mesh.
final class OccluderReach {
    /// The occluder's front plane in its model frame (mm): the smallest z of its vertices.
    let frontZ: Float
    /// Per glasses vertex: z and x in the occluder's frame, and the camera-space position. `head` and
    /// `modelView` place the occluder and the glasses in world space, which the camera views.
    private var depths: [Float] = []
    private var sides: [Float] = []
    private var points: [SIMD3<Float>] = []

    init(occluder: Mesh) {
        var z = Float.infinity
        for p in occluder.primitives { for v in p.positions { z = min(z, v.z) } }
        frontZ = z
    }

    /// The boxes (within `glassesBox`) where `head` (occluder model → world) can hide a part of
    /// `glasses` placed by `modelView`, into `regions` (empty when every part is in front of the
    /// occluder). False when that cannot be shown (camera behind the occluder's front, or a reaching
    /// vertex behind the near plane): then the whole glasses box must be drawn.
    func regions(glasses: Mesh, modelView: Transform3D, head: Transform3D, camera: PinholeCamera,
                 within glassesBox: PixelRect, into regions: inout [PixelRect]) -> Bool {
        regions.removeAll(keepingCapacity: true)
        // Occluder-frame x and z of a camera-space point: rows 0 and 2 of the inverse of `head`'s linear part.
        let det = head.determinant
        guard det != 0, det.isFinite else { return false }
        let rowX = simdCross(head.c1, head.c2) / det, rowZ = simdCross(head.c0, head.c1) / det
        let t = head.translation
        // A 0.05 mm margin (float rounding at 1 m is 0.0001 mm) keeps rounding on the safe side.
        let plane = frontZ - 0.05
        // The camera's centre in world space (where `cameraFromWorld` takes it to the origin).
        let view = camera.cameraFromWorld, viewDet = view.determinant
        guard viewDet != 0, viewDet.isFinite else { return false }
        let centre = -SIMD3(simdDot(simdCross(view.c1, view.c2), view.translation), simdDot(simdCross(view.c2, view.c0), view.translation),
                            simdDot(simdCross(view.c0, view.c1), view.translation)) / viewDet
        guard simdDot(rowZ, centre - t) < plane else { return false }
        // Per side of the head (occluder-frame x < 0, >= 0): the box of the reaching triangles.
        var lo = (SIMD2<Float>(repeating: .infinity), SIMD2<Float>(repeating: .infinity))
        var hi = (SIMD2<Float>(repeating: -.infinity), SIMD2<Float>(repeating: -.infinity))
        var bounded = true
        let mirrored = viewDet * modelView.determinant < 0
        for p in glasses.primitives {
            let n = p.positions.count
            if depths.count < n {
                depths = [Float](repeating: 0, count: n)
                sides = depths
                points = [SIMD3<Float>](repeating: .zero, count: n)
            }
            // Back faces of single-sided materials are culled (as `SceneRenderer.draw` does): a tube's
            // far side reaching behind the occluder's front draws nothing the occluder could hide.
            let culled = !(p.materialIndex < glasses.materials.count && glasses.materials[p.materialIndex].doubleSided)
            depths.withUnsafeMutableBufferPointer { depth in
            sides.withUnsafeMutableBufferPointer { side in
            points.withUnsafeMutableBufferPointer { point in
                p.positions.withUnsafeBufferPointer { src in
                    for v in 0..<n {
                        let world = modelView.apply(src[v])
                        let d = world - t
                        depth[v] = simdDot(rowZ, d)
                        side[v] = simdDot(rowX, d)
                        point[v] = view.apply(world)
                    }
                }
                p.indices.withUnsafeBufferPointer { idx in
                    for k in stride(from: 0, to: idx.count - 2, by: 3) {
                        let a = Int(idx[k]), b = Int(idx[k + 1]), c = Int(idx[k + 2])
                        guard max(depth[a], depth[b], depth[c]) >= plane else { continue }
                        let pa = point[a], pb = point[b], pc = point[c]
                        if culled && (simdDot(simdCross(pb - pa, pc - pa), pa) < 0) == mirrored { continue }
                        guard min(pa.z, pb.z, pc.z) >= camera.nearPlane else { bounded = false; return }
                        @inline(__always) func project(_ q: SIMD3<Float>) -> SIMD2<Float> {
                            SIMD2(camera.fx * q.x / q.z + camera.cx, camera.fy * q.y / q.z + camera.cy)
                        }
                        let sa = project(pa), sb = project(pb), sc = project(pc)
                        let l = pointwiseMin(sa, pointwiseMin(sb, sc)), h = pointwiseMax(sa, pointwiseMax(sb, sc))
                        if side[a] + side[b] + side[c] < 0 {
                            lo.0 = pointwiseMin(lo.0, l); hi.0 = pointwiseMax(hi.0, h)
                        } else {
                            lo.1 = pointwiseMin(lo.1, l); hi.1 = pointwiseMax(hi.1, h)
                        }
                    }
                }
            }
            }
            }
            if !bounded { return false }
        }
        // Two pixels of margin: the anti-aliasing fringe reaches half a pixel beyond a triangle.
        @inline(__always) func box(_ l: SIMD2<Float>, _ h: SIMD2<Float>) -> PixelRect? {
            guard l.x <= h.x, l.y <= h.y else { return nil }
            return PixelRect(firstX: Int(max(-1e6, (l.x - 2).rounded(.down))), firstY: Int(max(-1e6, (l.y - 2).rounded(.down))),
                             lastX: Int(min(1e6, (h.x + 2).rounded(.up))), lastY: Int(min(1e6, (h.y + 2).rounded(.up))))
                .overlap(glassesBox)
        }
        let left = box(lo.0, hi.0), right = box(lo.1, hi.1)
        if let l = left, let r = right, l.overlap(r) != nil {
            // Overlapping boxes (a turned head): one box, so no pixel's depth is drawn twice.
            regions.append(l.union(r))
        } else {
            if let left { regions.append(left) }
            if let right { regions.append(right) }
        }
        return true
    }
}
