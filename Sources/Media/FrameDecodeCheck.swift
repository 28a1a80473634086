import Imaging

/// Whether a recorded frame decodes, for `lorgnette info`: decoded small (DCT-scaled to 1/8, so a
/// long recording is checked quickly), with the decoder's count of corrupt-data warnings.
public final class FrameDecodeCheck {
    public enum Verdict {
        case clean
        case warnings(Int)
        case fails(any Error)
    }

    let decoder: any JPEGDecoding
    private var scratch = GrayImage(width: 0, height: 0)

    public init(decoder: any JPEGDecoding) { self.decoder = decoder }

    public func check(_ jpeg: [UInt8]) -> Verdict {
        do {
            try decoder.decodeGray(jpeg, scale: .eighth, into: &scratch)
            return decoder.lastWarningCount > 0 ? .warnings(decoder.lastWarningCount) : .clean
        } catch {
            return .fails(error)
        }
    }
}
