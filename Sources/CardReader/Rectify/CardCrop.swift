import CardScanOCR

/// The card cut out of its photo in colour, upright and undistorted (what the review and
/// collection pages show), with the same homography and sampler the reader reads through.
public enum CardCrop {
    /// The card whose corners (TL, TR, BR, BL of the upright card) were found in a photo of
    /// `photoWidth` × `photoHeight` pixels, cut out of `photo` (the same photo, possibly decoded
    /// smaller) at `height` pixels high and the card's 63:88 width.
    public static func cut(_ photo: Image, corners: [PixelPoint], photoWidth: Int, photoHeight: Int, height: Int) -> RGBImage {
        let sx = Double(photo.width) / Double(max(1, photoWidth)), sy = Double(photo.height) / Double(max(1, photoHeight))
        let scaled = corners.map { PixelPoint(x: $0.x * sx, y: $0.y * sy) }
        let homography = Homography(corners: scaled)
        let whole = CardRegion(u0: 0, v0: 0, u1: 1, v1: 1)
        let rgb = photo.rgbPixels()
        // One channel at a time through the reader's grey sampler.
        let channels = (0..<3).map { c in
            var plane = [UInt8](repeating: 0, count: rgb.width * rgb.height)
            for i in 0..<plane.count { plane[i] = rgb.pixels[i * 3 + c] }
            return Rectifier.warp(GrayImage(width: rgb.width, height: rgb.height, pixels: plane), homography: homography,
                                  region: whole, cardHeightPixels: height)
        }
        let w = channels[0].width, h = channels[0].height
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) {
            out[i * 3] = channels[0].pixels[i]; out[i * 3 + 1] = channels[1].pixels[i]; out[i * 3 + 2] = channels[2].pixels[i]
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
