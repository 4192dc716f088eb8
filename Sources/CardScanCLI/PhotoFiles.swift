import ArgumentParser
import CardScanOCR
import Foundation

/// Expands command-line paths into image files.
enum PhotoFiles {
    /// Extensions treated as photos (HEIC is listed so it gets a clear "not supported" error).
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp", "gif", "heic", "heif"]

    /// Files given directly are always included; folders contribute their image files (sorted),
    /// recursively with `recursive`. Missing paths are returned in `missing`.
    static func expand(_ paths: [String], recursive: Bool) -> (files: [String], missing: [String]) {
        var files: [String] = [], missing: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { missing.append(path); continue }
            guard isDir.boolValue else { files.append(path); continue }
            var found: [String] = []
            if recursive {
                var visited = Set<String>()
                walk(path, into: &found, visited: &visited)
            } else if let names = try? fm.contentsOfDirectory(atPath: path) {
                found = names.filter { isImage($0) && !$0.hasPrefix(".") }.map { (path as NSString).appendingPathComponent($0) }
            }
            files += found.sorted()
        }
        return (files, missing)
    }

    /// `expand` for a batch command (`scan`, `import`): tells each missing path on stderr, one
    /// line each, and throws when nothing is left to read, exit 2, saying "no image files found"
    /// only of the paths that were there (a path already told as missing is not told twice).
    static func expandBatch(_ paths: [String], recursive: Bool) throws -> (files: [String], missing: [String]) {
        let (files, missing) = expand(paths, recursive: recursive)
        for path in missing { Terminal.note("\(path): \(whyMissing(path))") }
        guard files.isEmpty else { return (files, missing) }
        let there = paths.filter { !missing.contains($0) }
        if there.isEmpty { throw ExitCode(ExitStatus.error) }
        throw CLIError("no image files found in \(there.joined(separator: ", "))")
    }

    /// Why a path given on the command line was not found: a name that is not UTF-8 reaches
    /// cardscan with U+FFFD in place of its bytes and cannot be opened, which is said as such.
    static func whyMissing(_ path: String) -> String {
        Image.notARegularFile(path) ?? "no such file or folder"
    }

    static func isImage(_ name: String) -> Bool { extensions.contains((name as NSString).pathExtension.lowercased()) }

    /// Depth-first walk that follows symlinked folders once (a symlink loop is visited only once).
    private static func walk(_ dir: String, into found: inout [String], visited: inout Set<String>) {
        // realpath(3): NSString.resolvingSymlinksInPath resolves a relative link such as `up -> ../..`
        // against the wrong folder on Linux (it gave "/"), so a loop was walked ~40 levels deep.
        let real = realpath(dir, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? dir
        guard visited.insert(real).inserted, let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = (dir as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue { walk(path, into: &found, visited: &visited) } else if isImage(name) { found.append(path) }
        }
    }
}
