/// How a face anchor was obtained on its frame: `detected` (the detector found it this frame and the
/// landmarks were fitted from its box), `tracked` (landmarks regressed from the previous frame's shape),
/// `lost` (tracking failed this frame; the anchor is reported once so callers can hide attached content).
public enum TrackingState: String, Sendable {
    case detected, tracked, lost
}
