import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps Tesseract's OpenMP loops single-threaded.
///
/// Tesseract 5 hard-codes `num_threads(...)` on its parallel loops, so `OMP_NUM_THREADS` does nothing,
/// and libgomp reads `OMP_THREAD_LIMIT` only when it is loaded (before `main`). What works from inside
/// the process is `omp_set_max_active_levels(0)`: no parallel region becomes active, so every loop runs
/// on the calling thread. We look the symbol up with `dlsym` so builds without OpenMP still work.
/// Parallelism comes from several engines on several threads instead (see the benchmark for figures).
enum OpenMPControl {
    private typealias SetLevels = @convention(c) (Int32) -> Void

    private static let setMaxActiveLevels: SetLevels? = {
        guard let handle = dlopen(nil, RTLD_NOW), let sym = dlsym(handle, "omp_set_max_active_levels") else {
            return nil
        }
        return unsafeBitCast(sym, to: SetLevels.self)
    }()

    /// True when the running process honours `CARDSCAN_OPENMP=1` (for measuring the default behaviour).
    static let keepDefault: Bool = ProcessInfo.processInfo.environment["CARDSCAN_OPENMP"] == "1"

    /// Disables nested/parallel OpenMP regions for work started from the calling thread.
    /// Cheap; call it before each recognition (the setting is per thread in newer libgomp).
    static func singleThreadCurrentThread() {
        guard !keepDefault else { return }
        setMaxActiveLevels?(0)
    }

    /// Whether the OpenMP runtime was found in the process.
    static var isAvailable: Bool { setMaxActiveLevels != nil }
}
