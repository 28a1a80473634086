// In-place forms of resizing and copying for the per-frame scratch arrays of the cascade and its crop:
// the tracker and the detection fit run every frame and should allocate only when a face grows past
// its largest size.
extension Array {
    /// Gives the array exactly `count` elements without giving up its storage when it is unshared;
    /// added elements are `filler`, the others keep their (unspecified) values: every caller overwrites them.
    mutating func resize(to count: Int, filler: Element) {
        if self.count > count {
            removeLast(self.count - count)
        } else if self.count < count {
            append(contentsOf: repeatElement(filler, count: count - self.count))
        }
    }

    /// Makes the array an element-for-element copy of `source` in its own storage (when unshared and
    /// large enough), rather than sharing `source`'s, which the next in-place write to either would copy.
    mutating func overwrite(with source: [Element]) {
        replaceSubrange(indices, with: source)
    }
}
