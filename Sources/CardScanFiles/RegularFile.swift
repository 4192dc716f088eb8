import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The check made before reading any file a user named (a photo, a card-data file, a file to
/// hash): only a regular file is read. Reading a FIFO blocks for ever, a device such as
/// `/dev/zero` never ends, and a folder or a dangling link is no file at all; each is one reason
/// in words, said before any byte is read.
public enum RegularFile {
    /// Why `path` cannot be read as a regular file, or nil when it is one (stat follows links).
    public static func problem(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return missing(path, errno: errno) }
        return kind(st.st_mode)
    }

    /// A file that cannot be opened or is no regular file: the reason in words.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let reason: String
        public var description: String { reason }
    }

    /// Opens `path` for reading. The open does not wait (a FIFO with no writer would block it),
    /// and the file's type is checked on the open descriptor, so nothing swapped in after a
    /// check by name is read. Returns a blocking, close-on-exec descriptor the caller closes.
    public static func open(_ path: String) -> Result<Int32, Problem> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return .failure(Problem(reason: code == EACCES ? "permission denied" : problem(path) ?? String(cString: strerror(code))))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(Problem(reason: reason))
        }
        if let reason = kind(st.st_mode) {
            close(fd)
            return .failure(Problem(reason: reason))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// Why a path that `stat` could not follow is not there.
    private static func missing(_ path: String, errno code: Int32) -> String {
        var link = stat()
        switch code {
        case ELOOP: return "symbolic link loop"
        case ENOENT where lstat(path, &link) == 0: return "broken symbolic link"
        case ENOENT where path.unicodeScalars.contains("\u{FFFD}"):
            // Swift strings are Unicode: a name's bytes that are not UTF-8 arrive replaced.
            return "the file name is not valid UTF-8, so it cannot be opened; rename the file, e.g. with convmv -f latin1 -t utf8"
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES: return "permission denied"
        default: return String(cString: strerror(code))
        }
    }

    /// Nil for a regular file, else what it is.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file"
        case S_IFSOCK: return "is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
        default: return "not a regular file"
        }
    }
}
