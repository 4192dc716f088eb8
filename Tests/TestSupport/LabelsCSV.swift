/// Splits one line of `../shared/photos/labels.csv` into cells (double quotes group a cell that
/// holds commas). Shared by the accuracy-floor tests.
public func csvCells(_ line: String) -> [String] {
    var cells: [String] = [], cell = "", quoted = false
    for c in line {
        if c == "\"" { quoted.toggle() } else if c == ",", !quoted { cells.append(cell); cell = "" } else { cell.append(c) }
    }
    cells.append(cell)
    return cells
}
