/// A versioned, checksummed container for the models this project ships in `Models/`.
///
/// Layout (little-endian):
/// ```
/// "LRGN"            magic
/// u32 formatVersion container layout version (1)
/// 4 bytes kind      e.g. "LMRK" landmark cascade, "FDET" face detector
/// u32 version       the model kind's own version; readers state which they support
/// u32 n, n x (str key, str value)          metadata (feature spec, training command, seed, ...)
/// u32 m, m x tensor                        str name, u8 encoding, u8 rank, rank x u32 dims, payload
/// u32 crc32         IEEE CRC-32 of every byte before it
/// ```
/// `str` is a u32 byte count then UTF-8. Payloads: float32; float16; int8 with one float32 scale per
/// row (the last dimension is the row), value = int8 * scale.
///
/// Like dlib's versioned serialisation, a reader names exactly what it expected when a file is not it.
///
/// A file with a correct checksum is still untrusted (anyone can compute a CRC): a tensor's shape is
/// multiplied out without overflow and checked against the bytes left before its values are
/// allocated, and every value must be finite and within `maximumMagnitude`.
public struct ModelArchive: Sendable {
    public static let magic: [UInt8] = Array("LRGN".utf8)
    public static let formatVersion: UInt32 = 1
    /// Largest magnitude of a stored value. The shipped models' largest is 48.6 (the landmark mean
    /// shape, in reference pixels; weights stay under 50): 1e6 leaves a factor of 20,000 for other
    /// training runs, and keeps a dot product over 5,000 features of such values far from Float's
    /// range. Landmark weights of 3e38 once made the tracker try to allocate 276 TB.
    public static let maximumMagnitude: Float = 1e6
    /// Largest tensor rank read (the models use 1, 2 and 4).
    public static let maximumRank = 8

    public enum Encoding: UInt8, Sendable { case float32 = 0, float16 = 1, int8 = 2 }

    /// A dense tensor, row-major. Values are always handed out as Float; `encoding` is how it is stored.
    ///
    /// Invariant, checked here (a module built with Swift's checks) and not changeable afterwards:
    /// `values.count` is the product of `shape`. Read from a file, every value is also finite and at
    /// most `maximumMagnitude` in size. The model loaders in the kernel modules (built -Ounchecked)
    /// rely on exactly this: once a loader has compared `shape` with its expected layout, every index
    /// it computes from that layout is inside `values`.
    public struct Tensor: Sendable {
        public let shape: [Int]
        public let values: [Float]
        public let encoding: Encoding

        public init(shape: [Int], values: [Float], encoding: Encoding = .float32) {
            precondition(shape.reduce(1, *) == values.count, "tensor shape \(shape) does not hold \(values.count) values")
            self.shape = shape
            self.values = values
            self.encoding = encoding
        }
    }

    public var kind: String
    public var version: Int
    public var metadata: [String: String]
    public var tensors: [String: Tensor]

    public init(kind: String, version: Int, metadata: [String: String] = [:], tensors: [String: Tensor] = [:]) {
        precondition(kind.utf8.count == 4, "model kind must be 4 ASCII characters")
        self.kind = kind
        self.version = version
        self.metadata = metadata
        self.tensors = tensors
    }

    /// The tensor named `name`, or a `ModelArchiveError.missingTensor`.
    public func tensor(_ name: String) throws -> Tensor {
        guard let t = tensors[name] else { throw ModelArchiveError.missingTensor(kind: kind, name: name) }
        return t
    }

    // MARK: Writing

    public func serialized() -> [UInt8] {
        var w = ByteWriter()
        w.bytes(Self.magic)
        w.u32(Self.formatVersion)
        w.bytes(Array(kind.utf8))
        w.u32(UInt32(version))
        w.u32(UInt32(metadata.count))
        for key in metadata.keys.sorted() { w.string(key); w.string(metadata[key]!) }
        w.u32(UInt32(tensors.count))
        for name in tensors.keys.sorted() {
            let t = tensors[name]!
            w.string(name)
            w.u8(t.encoding.rawValue)
            w.u8(UInt8(t.shape.count))
            for d in t.shape { w.u32(UInt32(d)) }
            switch t.encoding {
            case .float32:
                for v in t.values { w.u32(v.bitPattern) }
            case .float16:
                for v in t.values { w.u16(Float16(v).bitPattern) }
            case .int8:
                let row = t.shape.last ?? 1
                let rows = row == 0 ? 0 : t.values.count / row
                for r in 0..<rows {
                    let slice = t.values[(r * row)..<((r + 1) * row)]
                    let peak = slice.reduce(Float(0)) { max($0, abs($1)) }
                    let scale = peak > 0 ? peak / 127 : 1
                    w.u32(scale.bitPattern)
                    for v in slice { w.u8(UInt8(bitPattern: Int8(max(-127, min(127, (v / scale).rounded()))))) }
                }
            }
        }
        w.u32(CRC32.checksum(w.data))
        return w.data
    }

    // MARK: Reading

    /// Parses and verifies a model file. Throws, naming the problem, when the bytes are not a
    /// `kind` model of a supported version, are truncated, or fail the checksum.
    public init(bytes: [UInt8], expectedKind: String, supportedVersions: ClosedRange<Int>) throws {
        guard bytes.count >= 20 else { throw ModelArchiveError.truncated(expectedKind: expectedKind, size: bytes.count) }
        guard Array(bytes[0..<4]) == Self.magic else { throw ModelArchiveError.notAModel(expectedKind: expectedKind) }
        var r = ByteReader(bytes: bytes, expectedKind: expectedKind)
        r.offset = 4
        let format = try r.u32()
        guard format == Self.formatVersion else {
            throw ModelArchiveError.unsupportedFormat(found: Int(format), supported: Int(Self.formatVersion))
        }
        let kind = String(decoding: try r.take(4), as: UTF8.self)
        guard kind == expectedKind else { throw ModelArchiveError.wrongKind(found: kind, expected: expectedKind) }
        let version = Int(try r.u32())
        guard supportedVersions.contains(version) else {
            throw ModelArchiveError.unsupportedVersion(kind: kind, found: version, supported: supportedVersions)
        }
        // Verify the checksum before trusting any count read from the body.
        let stored = UInt32(bytes[bytes.count - 4]) | UInt32(bytes[bytes.count - 3]) << 8
            | UInt32(bytes[bytes.count - 2]) << 16 | UInt32(bytes[bytes.count - 1]) << 24
        let actual = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
        guard stored == actual else { throw ModelArchiveError.checksumMismatch(kind: kind) }
        r.end = bytes.count - 4

        var metadata: [String: String] = [:]
        for _ in 0..<(try r.u32()) { let k = try r.string(); metadata[k] = try r.string() }
        var tensors: [String: Tensor] = [:]
        for _ in 0..<(try r.u32()) {
            let name = try r.string()
            guard let encoding = Encoding(rawValue: try r.u8()) else { throw ModelArchiveError.corrupt(kind: kind, detail: "tensor \(name): unknown encoding") }
            let rank = Int(try r.u8())
            guard rank <= Self.maximumRank else { throw ModelArchiveError.corrupt(kind: kind, detail: "tensor \(name): rank \(rank) exceeds the limit of \(Self.maximumRank)") }
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try r.u32())) }
            let count = try Self.valueCount(shape: shape, encoding: encoding, bytesLeft: r.end - r.offset, tensor: name, kind: kind)
            let values = try Self.decodeValues(count: count, encoding: encoding, row: shape.last ?? 1, from: &r)
            if let bad = values.firstIndex(where: { !(abs($0) <= Self.maximumMagnitude) }) {
                throw ModelArchiveError.corrupt(kind: kind, detail: "tensor \(name): value \(values[bad]) at \(bad) is not finite or exceeds the limit of \(Self.maximumMagnitude) in magnitude")
            }
            tensors[name] = Tensor(shape: shape, values: values, encoding: encoding)
        }
        guard r.offset == r.end else { throw ModelArchiveError.corrupt(kind: kind, detail: "\(r.end - r.offset) unexpected bytes after the last tensor") }
        self.init(kind: kind, version: version, metadata: metadata, tensors: tensors)
    }

    /// The `count` values of one tensor's payload, which starts at `r.offset`.
    ///
    /// Every loop runs over buffers whose sizes were settled before it starts: `r.take` refuses a
    /// payload longer than the bytes left (so the source holds exactly `width x count` bytes) and the
    /// destination holds `count` values, so each index below is in range by construction and the
    /// loops read through pointers, without a bounds check per value. Checked, indexing the arrays
    /// made the landmark model's float16 weights a quarter of a 3.4 ms parse in `perf` (about 0.9 ms);
    /// through pointers, all but the checksum is 0.4 ms of a 0.9 ms parse (Bench/README.md, "Checked parsers").
    static func decodeValues(count: Int, encoding: Encoding, row: Int, from r: inout ByteReader) throws -> [Float] {
        switch encoding {
        case .float32:
            let raw = try r.take(4 * count)
            return raw.withUnsafeBytes { src in
                precondition(src.count == 4 * count)
                return [Float](unsafeUninitializedCapacity: count) { dst, initialized in
                    for i in 0..<count { dst[i] = Float(bitPattern: UInt32(littleEndian: src.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))) }
                    initialized = count
                }
            }
        case .float16:
            let raw = try r.take(2 * count)
            return raw.withUnsafeBytes { src in
                precondition(src.count == 2 * count)
                return [Float](unsafeUninitializedCapacity: count) { dst, initialized in
                    for i in 0..<count { dst[i] = Float(Float16(bitPattern: UInt16(littleEndian: src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))) }
                    initialized = count
                }
            }
        case .int8:
            // `valueCount` has checked that count / row rows, each a 4-byte scale and `row` bytes, fit.
            let rows = row == 0 ? 0 : count / row
            var values = [Float](repeating: 0, count: count)
            try values.withUnsafeMutableBufferPointer { dst in
                for rIndex in 0..<rows {
                    let scale = Float(bitPattern: try r.u32())
                    let raw = try r.take(row)
                    raw.withUnsafeBytes { src in
                        precondition(src.count == row && (rIndex + 1) * row <= dst.count)
                        for j in 0..<row { dst[rIndex * row + j] = Float(Int8(bitPattern: src[j])) * scale }
                    }
                }
            }
            return values
        }
    }

    /// The number of values a tensor of `shape` holds, refused when the product overflows or when
    /// its payload would need more than the `bytesLeft` before the checksum: a small file cannot
    /// make the reader allocate for 6.4e9 values.
    static func valueCount(shape: [Int], encoding: Encoding, bytesLeft: Int, tensor name: String, kind: String) throws -> Int {
        var count = 1
        for d in shape {
            let product = count.multipliedReportingOverflow(by: d)
            guard !product.overflow else {
                throw ModelArchiveError.corrupt(kind: kind, detail: "tensor \(name): shape \(shape) overflows when multiplied out")
            }
            count = product.partialValue
        }
        // Payload bytes: 4 or 2 per value; int8 is one byte per value plus a 4-byte scale per row.
        let payload: (partialValue: Int, overflow: Bool)
        switch encoding {
        case .float32: payload = count.multipliedReportingOverflow(by: 4)
        case .float16: payload = count.multipliedReportingOverflow(by: 2)
        case .int8:
            let row = shape.last ?? 1
            let scaleBytes = (row == 0 ? 0 : count / row).multipliedReportingOverflow(by: 4)
            let sum = count.addingReportingOverflow(scaleBytes.partialValue)
            payload = (sum.partialValue, scaleBytes.overflow || sum.overflow)
        }
        guard !payload.overflow, payload.partialValue <= bytesLeft else {
            throw ModelArchiveError.corrupt(kind: kind, detail: "tensor \(name): shape \(shape) declares \(count) values, more than the \(bytesLeft) bytes left in the file hold")
        }
        return count
    }
}

/// Why a model file was refused. Each message names the model kind and what was wrong.
public enum ModelArchiveError: Error, Equatable, CustomStringConvertible {
    case notAModel(expectedKind: String)
    case truncated(expectedKind: String, size: Int)
    case unsupportedFormat(found: Int, supported: Int)
    case wrongKind(found: String, expected: String)
    case unsupportedVersion(kind: String, found: Int, supported: ClosedRange<Int>)
    case checksumMismatch(kind: String)
    case corrupt(kind: String, detail: String)
    case missingTensor(kind: String, name: String)

    public var description: String {
        switch self {
        case .notAModel(let k): return "not a Lorgnette model file (expected a \(k) model; bad magic)"
        case .truncated(let k, let n): return "\(k) model file is truncated (\(n) bytes)"
        case .unsupportedFormat(let f, let s): return "model container format \(f) is not supported (this build reads format \(s))"
        case .wrongKind(let f, let e): return "model file holds a \(f) model, expected \(e)"
        case .unsupportedVersion(let k, let f, let s): return "\(k) model version \(f) is not supported (this build reads \(s.lowerBound)...\(s.upperBound))"
        case .checksumMismatch(let k): return "\(k) model file is corrupt (checksum mismatch)"
        case .corrupt(let k, let d): return "\(k) model file is corrupt: \(d)"
        case .missingTensor(let k, let n): return "\(k) model file lacks tensor '\(n)'"
        }
    }
}

struct ByteWriter {
    var data: [UInt8] = []
    mutating func u8(_ v: UInt8) { data.append(v) }
    mutating func u16(_ v: UInt16) { data.append(UInt8(v & 0xff)); data.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { data.append(UInt8((v >> UInt32(s)) & 0xff)) } }
    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }
    mutating func string(_ s: String) { let b = Array(s.utf8); u32(UInt32(b.count)); bytes(b) }
}

struct ByteReader {
    let bytes: [UInt8]
    let expectedKind: String
    var offset = 0
    var end: Int

    init(bytes: [UInt8], expectedKind: String) {
        self.bytes = bytes
        self.expectedKind = expectedKind
        self.end = bytes.count
    }

    mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, offset + n <= end else { throw ModelArchiveError.truncated(expectedKind: expectedKind, size: bytes.count) }
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }
    mutating func u8() throws -> UInt8 { try take(1).first! }
    mutating func u32() throws -> UInt32 {
        let b = try take(4)
        return b.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
    }
    mutating func string() throws -> String {
        let n = Int(try u32())
        return String(decoding: try take(n), as: UTF8.self)
    }
}
