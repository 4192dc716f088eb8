import CardCatalog
import CardReader

public extension CardReader.Options {
    /// Reader settings whose vocabularies come from `catalog`: set codes (snapped with the printed
    /// set size) and card titles, as `cardscan identify` reads.
    static func vocabularies(of catalog: CardCatalog, tessdataPath: String? = nil) -> CardReader.Options {
        CardReader.Options(tessdataPath: tessdataPath,
                           resolveSetCode: { catalog.resolveSetCode($0, printedSize: $1) },
                           resolveTitle: { catalog.resolveTitle($0) })
    }
}
