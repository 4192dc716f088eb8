import CardCollection
import CardReader
import CardScanOCR
import Foundation
import Hummingbird

/// Card crops cut from the stored photo and quad once, then served from a file named by the
/// photo's hash and the quad (so an edit of an entry never shows a stale crop).
final class CropCache: Sendable {
    let directory: URL
    /// Crop height in pixels (the page shows them at about half that).
    static let height = 560

    init(directory: URL) { self.directory = directory }

    /// The JPEG bytes of the card at `place` in the photo at `path` (hash `hash`).
    func jpeg(path: String, hash: String, place: CardPlace) throws -> Data {
        let key = SHA256Hasher.hex(of: Data((hash + place.text).utf8))
        let file = directory.appendingPathComponent(String(key.prefix(32)) + ".jpg")
        if let data = try? Data(contentsOf: file) { return data }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Decoded smaller when the format allows: the crop needs far fewer pixels than the photo has.
        let photo: Image
        do {
            photo = try Image(contentsOf: path, options: .init(reducedSide: Self.height * 3))
        } catch {
            throw HTTPError(.notFound, message: "\(path): the photo cannot be read any more (\((error as? OCRError)?.description ?? "\(error)"))")
        }
        let crop = CardCrop.cut(photo, corners: place.corners.map { PixelPoint(x: $0.x, y: $0.y) },
                                photoWidth: place.width, photoHeight: place.height, height: Self.height)
        try ImageWriter.writeJPEG(crop, to: file.path)
        return try Data(contentsOf: file)
    }
}

extension CardScanServer {
    /// The crop of review item or entry `id`.
    func crop(kind: String, id: Int64) throws -> Data {
        let (path, hash, quad): (String?, String?, String?)
        if kind == "review" {
            let item = try store.reviewItem(id: id)
            (path, hash, quad) = (item.sourcePath, item.sourceHash, item.quad)
        } else {
            let e = try store.entry(id: id)
            (path, hash, quad) = (e.sourcePath, e.sourceHash, e.quad)
        }
        guard let path, let hash, let place = quad.flatMap(CardPlace.init(text:)) else {
            throw HTTPError(.notFound, message: "\(kind) \(id): no card crop (not imported from a photo, or imported before crops were kept)")
        }
        return try crops.jpeg(path: path, hash: hash, place: place)
    }
}
