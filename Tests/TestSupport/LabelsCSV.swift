import CSV

/// Splits one line of `../shared/photos/labels.csv` into cells with CSV.swift (double quotes group
/// a cell that holds commas; doubled quotes are one quote). Shared by the accuracy-floor tests.
public func csvCells(_ line: String) -> [String] {
    (try? CSVReader(string: line, hasHeaderRow: false))?.next() ?? [line]
}
