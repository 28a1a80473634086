import Foundation

/// Sorted-key JSON, so string checks on the output do not depend on key order.
enum JSONEncoderShim {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
