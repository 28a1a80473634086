/// Where the millimetres come from (the `--scale` choice), reported with every number.
/// - `iris`: the horizontal visible iris diameter is taken as 11.7 mm (population SD 0.4 mm).
/// - `card`: an ISO/IEC 7810 ID-1 card (85.60 × 53.98 mm) held flat on the forehead or under the nose.
/// - `camera`: the metric head pose (PnP with the mean face) seen by the given intrinsics.
public enum ScaleMethod: String, Sendable, CaseIterable {
    case iris, card, camera
}
