import ArgumentParser
import CardScanner
import Foundation

extension PhotoFiles {
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
}
