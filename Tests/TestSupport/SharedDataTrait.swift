import Foundation
import Testing

extension Tag {
    /// The test reads `../shared` beside the checkout (real photos, card data, interop exports).
    @Tag public static var sharedData: Self
}

extension SharedCardData {
    /// Whether `../shared` is there (its photo labels and card data).
    public static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("photos/labels.csv").path)
            && FileManager.default.fileExists(atPath: scryfall2019)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only when `../shared` is beside the checkout, and otherwise skips it
    /// with a message naming the missing folder. Suites that need it carry this trait and the
    /// `.sharedData` tag.
    public static var needsSharedData: Self {
        .enabled(if: SharedCardData.isPresent, "needs ../shared (real photos and card data) beside the checkout: \(SharedCardData.root.path) is missing")
    }
}
