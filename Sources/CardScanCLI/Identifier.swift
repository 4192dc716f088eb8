import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import Foundation

/// Reads and matches one photo: the shared step of `identify`, `scan` and `import`.
/// Owns one reader (one Tesseract engine); use one per thread.
final class Identifier {
    let reader: CardReader
    let matcher: CardMatcher

    init(catalog: CardCatalog, tessdata: String?) throws {
        reader = try CardReader(options: .init(tessdataPath: tessdata, resolveSetCode: { catalog.resolveSetCode($0, printedSize: $1) },
                                                    resolveTitle: { catalog.resolveTitle($0) }))
        matcher = CardMatcher(catalog: catalog)
    }

    /// Every card found in the photo, one record each (the main card first); never throws: a bad
    /// file becomes one `error` record naming the file and the cause.
    func identifyAll(_ path: String) -> [ScanRecord] {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            return try reader.readAll(contentsOf: path).map { reading in
                var reading = reading
                let matchStart = DispatchTime.now().uptimeNanoseconds
                let match = try matcher.match(reading.fields)
                reading.timings.match = Double(DispatchTime.now().uptimeNanoseconds - matchStart) / 1e6
                reading.timings.total += reading.timings.match
                return ScanRecord(file: path, reading: reading, match: match)
            }
        } catch {
            let message = (error as? OCRError)?.description ?? "\(path): \(error)"
            return [ScanRecord(file: path, error: message, totalMilliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)]
        }
    }

    /// Never throws: a bad file becomes an `error` record naming the file and the cause. With
    /// `keepPhoto` the photo is decoded in colour and handed back (for `--annotate`), still once.
    func identify(_ path: String, keepPhoto: Bool = false)
        -> (record: ScanRecord, reading: CardReading?, match: MatchResult?, photo: Image?) {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            var photo: Image?
            var reading: CardReading
            if keepPhoto {
                (reading, photo) = try reader.readKeepingPhoto(contentsOf: path)
            } else {
                reading = try reader.read(contentsOf: path)
            }
            let matchStart = DispatchTime.now().uptimeNanoseconds
            let match = try matcher.match(reading.fields)
            let end = DispatchTime.now().uptimeNanoseconds
            reading.timings.match = Double(end - matchStart) / 1e6
            reading.timings.total = Double(end - start) / 1e6
            return (ScanRecord(file: path, reading: reading, match: match), reading, match, photo)
        } catch {
            let message = (error as? OCRError)?.description ?? "\(path): \(error)"
            return (ScanRecord(file: path, error: message, totalMilliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6), nil, nil, nil)
        }
    }
}
