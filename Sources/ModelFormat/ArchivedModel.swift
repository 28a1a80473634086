import Foundation

/// Why a model file was refused for its content: a missing or inconsistent tensor or metadata entry
/// (the container's own errors — magic, kind, version, truncation, checksum — are `ModelArchiveError`).
public struct ModelFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A model kept in one `ModelArchive` file. Reading it from bytes or from disk is the same for every
/// kind; each kind checks only its own tensors and metadata in `init(archive:)`.
public protocol ArchivedModel {
    /// The archive's four-letter kind.
    static var archiveKind: String { get }
    /// The layout versions this build reads.
    static var supportedVersions: ClosedRange<Int> { get }
    /// What the model is called in messages ("landmark model").
    static var modelName: String { get }
    init(archive: ModelArchive) throws
}

extension ArchivedModel {
    /// Parses a model file's bytes (see `init(archive:)`).
    public init(bytes: [UInt8]) throws {
        try self.init(archive: ModelArchive(bytes: bytes, expectedKind: Self.archiveKind, supportedVersions: Self.supportedVersions))
    }

    /// Loads a model file from disk.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelFileError("cannot read \(Self.modelName) \(path)")
        }
        try self.init(bytes: [UInt8](data))
    }
}
