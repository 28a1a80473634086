/// Skinned meshes drawn in their bind pose (glTF 2.0 §3.7.3). A shop's glasses exported with an
/// avatar (parented to a head bone of a humanoid rig) are skinned: the spec ignores the mesh node's
/// own transform and places each vertex by its joints, `Σ weight · world(joint) · inverseBind`.
/// The joints' world transforms are the nodes' rest TRS (animations are never applied), so the
/// result is what viewers show before playing an animation.
extension GLTFContext {
    /// Every node's world transform in the rest pose, whichever scene (or none) holds it.
    mutating func restPoseWorldTransforms() throws -> [Transform3D] {
        if let cached = restPoseCache { return cached }
        let nodes = doc.nodes ?? []
        var parent = [Int](repeating: -1, count: nodes.count)
        for (i, n) in nodes.enumerated() { for c in n.children ?? [] where c >= 0 && c < nodes.count { parent[c] = i } }
        var world = [Transform3D?](repeating: nil, count: nodes.count)
        for i in nodes.indices where world[i] == nil {
            var chain = [i]
            var p = parent[i]
            while p >= 0, world[p] == nil {
                chain.append(p)
                guard chain.count <= nodes.count else { throw fail("node hierarchy has a cycle") }
                p = parent[p]
            }
            var t = p >= 0 ? world[p]! : .identity
            for n in chain.reversed() {
                t = t * (try localTransform(nodes[n], index: n))
                world[n] = t
            }
        }
        let result = world.map { $0 ?? .identity }
        restPoseCache = result
        return result
    }

    /// Per-vertex transforms of a skinned primitive: the weighted sum of its joints' matrices.
    /// Vertices whose weights sum to zero (an exporter's unassigned vertices) keep `fallback`.
    mutating func bindPoseTransforms(skin s: Int, primitive p: GLTFDocument.Primitive, vertexCount: Int,
                                     fallback: Transform3D, name: String) throws -> [Transform3D] {
        guard let skins = doc.skins, s >= 0 && s < skins.count else { throw fail("\(name): skin \(s) does not exist") }
        let skin = skins[s]
        guard let ja = p.attributes["JOINTS_0"], let wa = p.attributes["WEIGHTS_0"] else {
            // A skin without per-vertex joints: the node transform is all there is to go by.
            return [Transform3D](repeating: fallback, count: vertexCount)
        }
        let world = try restPoseWorldTransforms()
        var inverseBind = [Transform3D](repeating: .identity, count: skin.joints.count)
        if let ibm = skin.inverseBindMatrices {
            let m = try floats(ibm, expecting: 16, name: name + " inverseBindMatrices")
            guard m.count >= 16 * skin.joints.count else { throw fail("\(name): skin \(s) has fewer inverse bind matrices than joints") }
            for j in skin.joints.indices { inverseBind[j] = Transform3D(columnMajor: Array(m[16 * j..<16 * j + 16])) }
        }
        var jointMatrices: [Transform3D] = []
        for (j, node) in skin.joints.enumerated() {
            guard node >= 0 && node < world.count else { throw fail("\(name): skin \(s) joint \(node) does not exist") }
            jointMatrices.append(world[node] * inverseBind[j])
        }
        let joints = try floats(ja, expecting: 4, name: name + " JOINTS_0")
        let weights = try floats(wa, expecting: 4, name: name + " WEIGHTS_0")
        guard joints.count == 4 * vertexCount, weights.count == 4 * vertexCount else {
            throw fail("\(name): JOINTS_0/WEIGHTS_0 count differs from POSITION count")
        }
        var out = [Transform3D](repeating: fallback, count: vertexCount)
        for v in 0..<vertexCount {
            var sum = Transform3D(columns: .zero, .zero, .zero)
            var total: Float = 0
            for k in 0..<4 {
                let w = weights[4 * v + k]
                guard w > 0 else { continue }
                let j = Int(joints[4 * v + k])
                guard j >= 0 && j < jointMatrices.count else {
                    throw fail("\(name): JOINTS_0 refers to joint \(j), the skin has \(jointMatrices.count)")
                }
                let m = jointMatrices[j]
                sum.c0 += w * m.c0; sum.c1 += w * m.c1; sum.c2 += w * m.c2; sum.translation += w * m.translation
                total += w
            }
            if total > 0 {
                // Weights should sum to 1; exporters round them, so renormalise rather than shrink.
                let k = 1 / total
                out[v] = Transform3D(columns: sum.c0 * k, sum.c1 * k, sum.c2 * k, translation: sum.translation * k)
            }
        }
        return out
    }
}
