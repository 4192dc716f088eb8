import CardCatalog
import CardReader

extension CardReader.Options {
    /// These settings with vocabularies from `catalog`: set codes (snapped with the printed set
    /// size) and card titles, and which names may print a number in their copyright line, as
    /// `cardscan identify` reads.
    public func withVocabularies(of catalog: CardCatalog) -> CardReader.Options {
        var options = self
        options.resolveSetCode = { catalog.resolveSetCode($0, printedSize: $1) }
        options.resolveTitle = { catalog.resolveTitle($0) }
        options.printsNumberInCopyright = { catalog.printsNumberInCopyright($0) }
        return options
    }
}
