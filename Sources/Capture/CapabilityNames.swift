/// Human-readable names for V4L2 `device_caps` bits, in bit order, as `lorgnette devices` prints them.
/// Unknown bits come out as hex so nothing is silently hidden.
public enum CapabilityNames {
    static let known: [(UInt32, String)] = [
        (0x0000_0001, "video-capture"), (0x0000_0002, "video-output"), (0x0000_0004, "video-overlay"),
        (0x0000_0010, "vbi-capture"), (0x0000_0020, "vbi-output"), (0x0000_0040, "sliced-vbi-capture"),
        (0x0000_0080, "sliced-vbi-output"), (0x0000_0100, "rds-capture"), (0x0000_0200, "video-output-overlay"),
        (0x0000_0400, "hw-freq-seek"), (0x0000_0800, "rds-output"), (0x0000_1000, "video-capture-mplane"),
        (0x0000_2000, "video-output-mplane"), (0x0000_4000, "video-m2m-mplane"), (0x0000_8000, "video-m2m"),
        (0x0001_0000, "tuner"), (0x0002_0000, "audio"), (0x0004_0000, "radio"), (0x0008_0000, "modulator"),
        (0x0010_0000, "sdr-capture"), (0x0020_0000, "ext-pix-format"), (0x0040_0000, "sdr-output"),
        (0x0080_0000, "meta-capture"), (0x0100_0000, "readwrite"), (0x0400_0000, "streaming"),
        (0x0800_0000, "meta-output"), (0x1000_0000, "touch"), (0x2000_0000, "io-mc"),
        (0x8000_0000, "device-caps"),
    ]

    public static func names(_ bits: UInt32) -> [String] {
        var remaining = bits
        var out: [String] = []
        for (bit, name) in known where bits & bit != 0 {
            out.append(name)
            remaining &= ~bit
        }
        var bit: UInt32 = 1
        while remaining != 0 {
            if remaining & bit != 0 {
                out.append("0x" + String(bit, radix: 16))
                remaining &= ~bit
            }
            bit <<= 1
        }
        return out
    }

    /// "6.1.0" from the kernel's KERNEL_VERSION-packed `version` field.
    public static func version(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }
}
