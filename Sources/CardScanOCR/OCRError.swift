import Foundation

/// Errors raised by image loading and text recognition. Every case that concerns a file names it,
/// and `description` is one line suitable for a terminal.
public enum OCRError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (missing, unreadable, a directory…).
    case unreadableFile(path: String, reason: String)
    /// The file is empty (0 bytes).
    case emptyFile(path: String)
    /// The bytes are not an image format cardscan can decode.
    case unsupportedFormat(path: String, detail: String)
    /// The bytes look like a supported format but decoding failed (corrupt or truncated), with the
    /// decoder's reason when it gave one (libjpeg's message for a JPEG).
    case corruptImage(path: String, format: String, reason: String? = nil)
    /// Decoding would take more memory than allowed (a progressive JPEG keeps every coefficient
    /// of the image); refused before decoding.
    case decoderMemory(path: String, format: String, needed: Int, limit: Int)
    /// The image is larger than the pixel limit; refused before decoding.
    case imageTooLarge(path: String, width: Int, height: Int, limit: Int)
    /// The image is too small to hold readable text.
    case imageTooSmall(path: String, width: Int, height: Int)
    /// The Tesseract language model is not installed where cardscan looked.
    case missingLanguageModel(language: String, searched: [String])
    /// Tesseract refused to initialise for another reason.
    case engineInitFailed(String)
    /// Recognition failed (Tesseract returned an error, or there was nothing to read).
    case recognitionFailed(String)
    /// Recognition went past its deadline (`RecognitionOptions.deadlineMilliseconds`): the machine
    /// was too loaded or the region too large, not a fault of the image or the engine.
    case deadlineExceeded(milliseconds: Int)
    /// Layout analysis found more words than `RecognitionOptions.maximumWords` allows; nothing was
    /// recognised (the caller judged that much text to be noise).
    case tooManyWords(found: Int, limit: Int)
    /// Writing an output image failed.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            return "\(path): cannot read file (\(reason))"
        case let .emptyFile(path):
            return "\(path): file is empty (0 bytes)"
        case let .unsupportedFormat(path, detail):
            return "\(path): unsupported image format (\(detail)); cardscan reads JPEG, PNG, TIFF, WebP, BMP, GIF"
        case let .corruptImage(path, format, reason):
            return "\(path): corrupt or truncated \(format) image" + (reason.map { " (\($0))" } ?? "")
        case let .decoderMemory(path, format, needed, limit):
            let mb = { (bytes: Int) in "\((bytes + 999_999) / 1_000_000) MB" }
            return "\(path): this progressive \(format) needs \(mb(needed)) to decode (every coefficient of the image is kept), "
                + "above the limit of \(mb(limit)); refused before decoding. As a baseline JPEG it decodes row by row: "
                + "jpegtran -copy all IN > OUT"
        case let .imageTooLarge(path, w, h, limit):
            return "\(path): image is \(w)x\(h) = \(w * h) pixels, above the limit of \(limit); refused before decoding"
        case let .imageTooSmall(path, w, h):
            return "\(path): image is only \(w)x\(h) pixels, too small to read"
        case let .missingLanguageModel(language, searched):
            let places = searched.isEmpty ? "nowhere" : searched.joined(separator: ", ")
            if OwnModels.all.contains(language) {
                let origin = OwnModels.origin(of: language)
                return "cardscan's model '\(language).traineddata' not found (looked in \(places)). "
                    + "It belongs in the checkout's Models/ (\(origin.madeBy) makes it); set CARDSCAN_MODELS to its folder, or pass \(origin.without)."
            }
            return "Tesseract language model '\(language).traineddata' not found (looked in \(places)). "
                + "Install it with `sudo apt-get install tesseract-ocr-\(language)`, or pass --tessdata / set TESSDATA_PREFIX."
        case let .engineInitFailed(message):
            return "Tesseract failed to initialise: \(message)"
        case let .recognitionFailed(message):
            return "text recognition failed: \(message)"
        case let .deadlineExceeded(milliseconds):
            return "text recognition gave no result within \(milliseconds) ms (the OCR deadline)"
        case let .tooManyWords(found, limit):
            return "layout found \(found) words, more than the limit of \(limit); not recognised"
        case let .writeFailed(path, reason):
            return "\(path): cannot write image (\(reason))"
        }
    }

    /// The file the error concerns, if any.
    public var path: String? {
        switch self {
        case let .unreadableFile(path, _), let .emptyFile(path), let .unsupportedFormat(path, _),
             let .corruptImage(path, _, _), let .decoderMemory(path, _, _, _), let .imageTooLarge(path, _, _, _),
             let .imageTooSmall(path, _, _),
             let .writeFailed(path, _):
            return path
        case .missingLanguageModel, .engineInitFailed, .recognitionFailed, .deadlineExceeded, .tooManyWords:
            return nil
        }
    }
}
