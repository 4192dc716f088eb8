import Foundation

/// The photo's capture day as evidence: a card cannot be photographed before it was printed.
///
/// The camera's clock can be wrong, so a day is trusted only when it is plausible: from 2000 on
/// (EXIF dates before it are rare and often a clock at a factory default), not a 1 January (the
/// usual default of a reset clock), and not after today. Cards reach players a little before their
/// set's release date (prerelease events, early sales), so printings released up to
/// `slackDays` after the photo still count as in it.
enum CaptureDate {
    /// Days after the capture day a printing's release date may fall.
    static let slackDays = 60

    /// Release dates are calendar days: a UTC Gregorian calendar, made once.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The latest release date (`YYYY-MM-DD`) of a printing that can be in a photo taken on
    /// `captureDay`, or nil when the day is not a trustworthy date.
    static func latestRelease(captureDay: String, today: Date = Date()) -> String? {
        let parts = captureDay.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, parts[0] >= 2000, !(parts[1] == 1 && parts[2] == 1) else { return nil }
        guard let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
              calendar.component(.day, from: day) == parts[2], // not 31 April
              day <= today.addingTimeInterval(86_400),
              let latest = calendar.date(byAdding: .day, value: slackDays, to: day) else { return nil }
        let c = calendar.dateComponents([.year, .month, .day], from: latest)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
