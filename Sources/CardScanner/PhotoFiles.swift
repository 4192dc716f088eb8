import CardScanOCR
import Foundation

/// Expands the paths a person gave (files and folders) into image files: the CLI and the
/// server's import read the same files from the same paths.
public enum PhotoFiles {
    /// Extensions treated as photos (HEIC is listed so it gets a clear "not supported" error).
    public static let extensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp", "gif", "heic", "heif"]

    /// Files given directly are always included; folders contribute their image files (sorted),
    /// recursively with `recursive`. Missing paths are returned in `missing`.
    public static func expand(_ paths: [String], recursive: Bool) -> (files: [String], missing: [String]) {
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

    /// Why a path given on the command line was not found: a name that is not UTF-8 reaches
    /// cardscan with U+FFFD in place of its bytes and cannot be opened, which is said as such.
    public static func whyMissing(_ path: String) -> String {
        Image.notARegularFile(path) ?? "no such file or folder"
    }

    public static func isImage(_ name: String) -> Bool { extensions.contains((name as NSString).pathExtension.lowercased()) }

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
