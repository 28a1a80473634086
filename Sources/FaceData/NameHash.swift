/// FNV-1a (64-bit) over a string's UTF-8 bytes: stable across runs and platforms (unlike
/// `hashValue`), so the dataset's split, the trainers' folds and `eval photos`' scene seeds that are
/// cut by a face's or photo's name stay the same from one run and machine to the next.
public func nameHash(_ key: String) -> UInt64 {
    key.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}
