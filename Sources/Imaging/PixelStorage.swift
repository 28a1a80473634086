/// Packs `rows` rows of `rowBytes` bytes, starting at `start` and `stride` apart in `source`, into
/// `destination` (already sized): the copy of a gray or RGB view.
func copyRows(_ source: [UInt8], start: Int, stride: Int, rowBytes: Int, rows: Int, into destination: inout [UInt8]) {
    source.withUnsafeBufferPointer { src in
        destination.withUnsafeMutableBufferPointer { dst in
            let s = src.baseAddress!, d = dst.baseAddress!
            for y in 0 ..< rows {
                (d + y * rowBytes).update(from: s + (start + y * stride), count: rowBytes)
            }
        }
    }
}

/// Sets `pixels` to `count` bytes, reusing its storage when it is large enough (a decoder's
/// steady-state frames then allocate nothing); the contents are unspecified afterwards.
func resizeKeepingCapacity(_ pixels: inout [UInt8], to count: Int) {
    guard pixels.count != count else { return }
    if pixels.capacity >= count {
        pixels.removeAll(keepingCapacity: true)
        pixels.append(contentsOf: repeatElement(0, count: count))
    } else {
        pixels = [UInt8](repeating: 0, count: count)
    }
}
