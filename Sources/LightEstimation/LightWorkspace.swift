import Synchronization

/// The per-frame buffers of `LightEstimator`, sized once for its proxy's samples: the kept samples'
/// basis values, targets, normals and regions, the masks, and scratch for medians and the dominant
/// light search. Allocated once, reused by every estimate, so estimating allocates nothing.
final class LightWorkspace {
    let capacity: Int
    let basis: UnsafeMutablePointer<Float>                  // 9 per sample
    let targets: UnsafeMutablePointer<SIMD3<Float>>
    let normals: UnsafeMutablePointer<SIMD3<Float>>
    let regions: UnsafeMutablePointer<FaceLightProxy.Region>
    let keep: UnsafeMutablePointer<Bool>
    let lowerFace: UnsafeMutablePointer<Bool>
    let luminances: UnsafeMutablePointer<Float>
    let residuals: UnsafeMutablePointer<Float>
    let scratch: UnsafeMutablePointer<Float>
    let packedNormals: UnsafeMutablePointer<SIMD3<Float>>
    let packedLuminance: UnsafeMutablePointer<Float>
    var solver = RidgeSolver9()
    /// The kept samples' normal moments, for the dominant light search.
    var moments = NormalMoments()

    init(capacity: Int) {
        let n = max(capacity, 1)
        self.capacity = n
        basis = .allocate(capacity: 9 * n); basis.initialize(repeating: 0, count: 9 * n)
        targets = .allocate(capacity: n); targets.initialize(repeating: .zero, count: n)
        normals = .allocate(capacity: n); normals.initialize(repeating: .zero, count: n)
        regions = .allocate(capacity: n); regions.initialize(repeating: .nose, count: n)
        keep = .allocate(capacity: n); keep.initialize(repeating: false, count: n)
        lowerFace = .allocate(capacity: n); lowerFace.initialize(repeating: false, count: n)
        luminances = .allocate(capacity: n); luminances.initialize(repeating: 0, count: n)
        residuals = .allocate(capacity: n); residuals.initialize(repeating: 0, count: n)
        scratch = .allocate(capacity: n); scratch.initialize(repeating: 0, count: n)
        packedNormals = .allocate(capacity: n); packedNormals.initialize(repeating: .zero, count: n)
        packedLuminance = .allocate(capacity: n); packedLuminance.initialize(repeating: 0, count: n)
    }

    deinit {
        basis.deallocate(); targets.deallocate(); normals.deallocate(); regions.deallocate()
        keep.deallocate(); lowerFace.deallocate(); luminances.deallocate(); residuals.deallocate()
        scratch.deallocate(); packedNormals.deallocate(); packedLuminance.deallocate()
    }
}

/// One `LightWorkspace` shared by the copies of an estimator, taken under a lock: a call that
/// finds it busy (another thread estimating with the same estimator) uses a fresh one instead.
final class SharedLightWorkspace: Sendable {
    private let workspace: Mutex<LightWorkspace>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        workspace = Mutex(LightWorkspace(capacity: capacity))
    }

    func with(_ body: (LightWorkspace) -> LightEstimate?) -> LightEstimate? {
        if let result = workspace.withLockIfAvailable({ body($0) }) { return result }
        return body(LightWorkspace(capacity: capacity))
    }
}
