import CTesseract

/// An owned Leptonica image (`PIX *`): destroyed exactly once, by `pixDestroy` when the value ends.
///
/// Non-copyable, so the compiler proves there is one owner: a function that turns one image into
/// another takes it `consuming` and returns the new one (the old is destroyed when it goes out of
/// scope), and no error path can leak or destroy it twice. C functions that only read or write the
/// pixels get `pointer`, borrowed for the duration of the call. Package-internal: no C type leaves
/// the package. (Not named `Pix`: that is Leptonica's own struct, and both would be in scope.)
package struct OwnedPix: ~Copyable {
    /// The Leptonica image; valid as long as this value lives. Never destroy it yourself.
    package let pointer: UnsafeMutablePointer<PIX>

    /// Takes ownership of the image a Leptonica constructor returned (`pixCreate`, `pixReadMem`,
    /// `pixConvertTo8`, ...); nil when it returned NULL (out of memory, or the call failed).
    package init?(_ created: UnsafeMutablePointer<PIX>?) {
        guard let created else { return nil }
        pointer = created
    }

    /// A new image of `width` x `height` pixels at `depth` bits a pixel, zeroed (`pixCreate`);
    /// nil when Leptonica cannot allocate it.
    package init?(width: Int, height: Int, depth: Int32) {
        self.init(pixCreate(Int32(width), Int32(height), depth))
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pointer
        pixDestroy(&p)
    }

    /// Width in pixels (`pixGetWidth`).
    package var width: Int { Int(pixGetWidth(pointer)) }
    /// Height in pixels (`pixGetHeight`).
    package var height: Int { Int(pixGetHeight(pointer)) }
    /// Bits a pixel: 8 for grey, 32 for RGB (`pixGetDepth`).
    package var depth: Int32 { pixGetDepth(pointer) }
    /// 32-bit words a row (`pixGetWpl`).
    package var wordsPerLine: Int32 { pixGetWpl(pointer) }
    /// The raster, row by row (`pixGetData`); nil when the image has none.
    package var data: UnsafeMutablePointer<UInt32>? { pixGetData(pointer) }
}
