import Foundation
import TestSupport
import Testing

/// `cardscan identify` on a real photo with the catalog of both shared card-data files: what
/// decided, in words.
@Suite("identify: what decided (real binary, real photo, shared card data)", .tags(.sharedData), .needsSharedData)
struct IdentifyEvidenceCLITests {
    @Test("a Spanish card whose collector lines fit two printings is told apart by the artist read beside them")
    func artistDecides() throws {
        _ = try SharedCardData.catalog.get()
        let catalog = SharedCardData.catalogURL.path
        let photo = SharedCardData.root.appendingPathComponent("photos/notavu/test_images/Zangano_cultivador.jpeg").path
        let result = try CLI.run(["identify", photo, "--catalog", catalog])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("Cultivator Drone — OGW #42"), "\(result.out)")
        #expect(result.out.contains("decided by number and set size, the printing by its artist"), "\(result.out)")
    }
}
