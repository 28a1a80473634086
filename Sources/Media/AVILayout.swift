/// Constants of the AVI 1.0 (Microsoft RIFF AVI) and OpenDML AVI 2.0 file formats that the
/// reader and the writer share.
enum AVILayout {
    /// Size of the `avih` main header (AVIMAINHEADER without its chunk header).
    static let mainHeaderSize = 56
    /// Size of the `strh` stream header.
    static let streamHeaderSize = 56
    /// Size of a BITMAPINFOHEADER (`strf` of a video stream).
    static let bitmapInfoHeaderSize = 40
    /// Size of the OpenDML `dmlh` extended header as written by common muxers.
    static let extendedHeaderSize = 248
    /// Entries reserved in the OpenDML super index: one per RIFF segment of up to 1 GB.
    static let superIndexEntries = 256

    // avih dwFlags
    static let flagHasIndex: UInt32 = 0x10
    static let flagIsInterleaved: UInt32 = 0x100
    static let flagTrustChunkType: UInt32 = 0x800

    // idx1 entry flags
    static let indexKeyFrame: UInt32 = 0x10

    // OpenDML index types (bIndexType)
    static let indexOfIndexes: UInt8 = 0x00
    static let indexOfChunks: UInt8 = 0x01
}
