/// `EXT_meshopt_compression`: a bufferView whose bytes are decoded from another buffer's range.
extension GLTFContext {
    /// The decoded bytes of compressed bufferView `v` (cached: several accessors share a view).
    /// A layout the extension forbids, a range outside the buffer or bytes the codec refuses are
    /// one `MeshError` naming the extension and the bufferView.
    mutating func meshoptView(_ v: Int, view: GLTFDocument.BufferView, _ ext: GLTFDocument.BufferViewExtensions.Meshopt,
                              decoder: any MeshoptDecoding) throws -> [UInt8] {
        if let cached = decodedViews[v] { return cached }
        func refuse(_ reason: String) -> MeshError { fail("EXT_meshopt_compression: bufferView \(v): \(reason)") }
        guard let mode = MeshoptLayout.Mode(rawValue: ext.mode) else { throw refuse("unknown mode '\(ext.mode)'") }
        guard let filter = MeshoptLayout.Filter(rawValue: ext.filter ?? "NONE") else { throw refuse("unknown filter '\(ext.filter ?? "")'") }
        if let reason = MeshoptLayout.violation(mode: mode, filter: filter, count: ext.count, byteStride: ext.byteStride) {
            throw refuse(reason)
        }
        let layout = MeshoptLayout(mode: mode, filter: filter, count: ext.count, byteStride: ext.byteStride)
        let size = ext.count.multipliedReportingOverflow(by: ext.byteStride)
        guard !size.overflow, size.partialValue <= MeshLimits.maximumDecodedViewBytes else {
            throw refuse("\(ext.count) elements of \(ext.byteStride) bytes exceed the limit of \(MeshLimits.maximumDecodedViewBytes) decoded bytes")
        }
        // The decoded data is the bufferView's content: it must fill what accessors may read.
        guard view.byteLength >= 0, size.partialValue <= view.byteLength else {
            throw refuse("decodes to \(size.partialValue) bytes, more than the bufferView's byteLength \(view.byteLength)")
        }
        let source = try buffer(ext.buffer)
        let offset = ext.byteOffset ?? 0
        guard offset >= 0, ext.byteLength >= 0, offset <= source.count, ext.byteLength <= source.count - offset else {
            throw refuse("compressed range (byteOffset \(offset), byteLength \(ext.byteLength)) is out of range of buffer \(ext.buffer) (\(source.count) bytes)")
        }
        var bytes: [UInt8]
        do { bytes = try decoder.decode(source[offset..<offset + ext.byteLength], layout: layout) } catch {
            throw refuse("cannot be decoded (\(error))")
        }
        guard bytes.count == size.partialValue else { throw refuse("decoder returned \(bytes.count) bytes, expected \(size.partialValue)") }
        // A bufferView longer than count × byteStride keeps zeros past the decoded elements.
        if bytes.count < view.byteLength { bytes += [UInt8](repeating: 0, count: view.byteLength - bytes.count) }
        decodedViews[v] = bytes
        return bytes
    }
}
