import Foundation

/// Where the files a model names (glTF buffer and image URIs, OBJ `mtllib`, MTL `map_Kd`) may be:
/// inside the model's own folder. A model downloaded from anywhere could otherwise read any file
/// the user can (`"uri": "../../etc/passwd"` or `"/home/me/.ssh/id_rsa"` was read as a buffer),
/// and the preview serves what it renders. `allowOutside` (the CLI's `--allow-outside-uris`)
/// restores the old reading for a user's own models that share textures across folders.
enum ModelFolder {
    /// The path of `name` relative to `directory` (the model file's folder, "" for the current one).
    /// Throws the reason when `name` is absolute, climbs with `..`, or (through a symlink) resolves
    /// outside the folder, unless `allowOutside`.
    static func path(of name: String, in directory: String, allowOutside: Bool) throws(OutsideModelFolder) -> String {
        let isAbsolute = name.hasPrefix("/")
        let path = isAbsolute ? name : (directory.isEmpty ? name : directory + "/" + name)
        if allowOutside { return path }
        if isAbsolute || name.split(separator: "/").contains("..") { throw OutsideModelFolder(name: name) }
        // A symlink inside the folder may still point out of it: compare the resolved paths.
        if let real = realPath(path), let folder = realPath(directory.isEmpty ? "." : directory),
           !(real == folder || real.hasPrefix(folder == "/" ? "/" : folder + "/")) {
            throw OutsideModelFolder(name: name)
        }
        return path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A model names a file outside its folder.
struct OutsideModelFolder: Error, CustomStringConvertible {
    let name: String
    var description: String { "'\(name)' is outside the model's folder (give --allow-outside-uris to read it)" }
}
