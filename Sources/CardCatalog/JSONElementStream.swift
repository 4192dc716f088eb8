import Foundation

/// A scalar JSON value seen while walking the structure around the streamed elements.
enum JSONScalar: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    var string: String? { if case let .string(s) = self { return s }; return nil }
    var int: Int? {
        switch self {
        case let .number(d): return Int(exactly: d.rounded()) 
        case let .string(s): return Int(s)
        default: return nil
        }
    }
    var bool: Bool? { if case let .bool(b) = self { return b }; return nil }
}

/// What a streamed piece of JSON is, by where it sits in the file.
enum JSONStreamEvent {
    /// An element of a top-level array (a Scryfall bulk file).
    case rootArrayElement(Data)
    /// An element of a top-level `data` array (a Scryfall API list: sets, cards, bulk-data index).
    case dataArrayElement(Data)
    /// The top-level `meta` value (MTGJSON).
    case meta(Data)
    /// An element of `data.cards` or `data.<SET>.cards` (MTGJSON per-set file / AllPrintings).
    case mtgjsonCard(Data)
    /// The end of an MTGJSON set object that had `cards`: its scalar fields (`code`, `name`, ...).
    case mtgjsonSet([String: JSONScalar])
}

/// Splits a JSON file into its interesting elements without holding more than one element in memory.
///
/// A hand-written byte scanner walks the outer structure (top-level array, or `meta` / `data` /
/// `data.<SET>` objects) and copies each element of the arrays that hold card records into a reused
/// buffer, which the handler decodes. Memory use is bounded by the largest single element, not the file.
final class JSONElementStream {
    private let reader: CompressedFileReader
    private let chunk: UnsafeMutableRawBufferPointer
    private var pos = 0
    private var end = 0
    private var eof = false
    private var consumedBefore = 0
    private var capture = Data()
    private static let chunkSize = 1 << 20

    init(reader: CompressedFileReader) {
        self.reader = reader
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        capture.reserveCapacity(1 << 16)
    }

    deinit { chunk.deallocate() }

    /// Uncompressed bytes scanned so far.
    var offset: Int { consumedBefore + pos }

    /// Walks the whole file, calling `handler` for each event in file order.
    func run(_ handler: (JSONStreamEvent) throws -> Void) throws {
        try skipByteOrderMark()
        guard let first = try peekNonWhitespace() else { throw error("empty file") }
        switch first {
        case UInt8(ascii: "["):
            pos += 1
            try iterateArray { try captureValue(); try handler(.rootArrayElement(capture)) }
        case UInt8(ascii: "{"):
            pos += 1
            try iterateObject { key in
                guard let b = try peekNonWhitespace() else { throw error("unexpected end of file") }
                switch (key, b) {
                case ("meta", _):
                    try captureValue(); try handler(.meta(capture))
                case ("data", UInt8(ascii: "[")):
                    pos += 1
                    try iterateArray { try captureValue(); try handler(.dataArrayElement(capture)) }
                case ("data", UInt8(ascii: "{")):
                    pos += 1
                    try walkSetLike(level: 2, handler)
                default:
                    try skipOrScalar()
                }
            }
        default:
            throw error("not a JSON array or object (starts with byte \(first))")
        }
        if try peekNonWhitespace() != nil { throw error("unexpected data after the end of the JSON value") }
    }

    /// Walks an object that may be an MTGJSON set (has `cards`) or, at level 2 of AllPrintings, a map of sets.
    private func walkSetLike(level: Int, _ handler: (JSONStreamEvent) throws -> Void) throws {
        var scalars: [String: JSONScalar] = [:]
        var hadCards = false
        try iterateObject { key in
            guard let b = try peekNonWhitespace() else { throw error("unexpected end of file") }
            if key == "cards", b == UInt8(ascii: "[") {
                hadCards = true
                pos += 1
                try iterateArray { try captureValue(); try handler(.mtgjsonCard(capture)) }
            } else if b == UInt8(ascii: "{"), level == 2 {
                pos += 1
                try walkSetLike(level: 3, handler)
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                try scanComposite(copy: false)
            } else {
                scalars[key] = try readScalar()
            }
        }
        if hadCards { try handler(.mtgjsonSet(scalars)) }
    }

    /// Skips a UTF-8 byte-order mark at the start of the file.
    private func skipByteOrderMark() throws {
        guard try peekByte() == 0xEF, end - pos >= 3 else { return }
        if chunk[pos + 1] == 0xBB && chunk[pos + 2] == 0xBF { pos += 3 }
    }

    // MARK: - Structure

    private func iterateArray(_ body: () throws -> Void) throws {
        guard let b = try peekNonWhitespace() else { throw error("unexpected end of file in an array") }
        if b == UInt8(ascii: "]") { pos += 1; return }
        while true {
            try body()
            guard let sep = try peekNonWhitespace() else { throw error("unexpected end of file in an array") }
            pos += 1
            if sep == UInt8(ascii: ",") { continue }
            if sep == UInt8(ascii: "]") { return }
            throw error("expected ',' or ']' in an array")
        }
    }

    private func iterateObject(_ body: (String) throws -> Void) throws {
        guard let b = try peekNonWhitespace() else { throw error("unexpected end of file in an object") }
        if b == UInt8(ascii: "}") { pos += 1; return }
        while true {
            guard try peekNonWhitespace() == UInt8(ascii: "\"") else { throw error("expected a key in an object") }
            pos += 1
            let key = try readStringBody()
            guard try peekNonWhitespace() == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            pos += 1
            try body(key)
            guard let sep = try peekNonWhitespace() else { throw error("unexpected end of file in an object") }
            pos += 1
            if sep == UInt8(ascii: ",") { continue }
            if sep == UInt8(ascii: "}") { return }
            throw error("expected ',' or '}' in an object")
        }
    }

    private func skipOrScalar() throws {
        guard let b = try peekNonWhitespace() else { throw error("unexpected end of file") }
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { try scanComposite(copy: false) } else { _ = try readScalar() }
    }

    /// Copies the next value (normally an object) into `capture`.
    private func captureValue() throws {
        capture.removeAll(keepingCapacity: true)
        guard let b = try peekNonWhitespace() else { throw error("unexpected end of file") }
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            try scanComposite(copy: true)
        } else {
            let scalar = try readScalar()
            // Re-encode scalars so the handler always gets JSON text.
            let text: String
            switch scalar {
            case let .string(s): text = String(decoding: try JSONEncoder().encode(s), as: UTF8.self)
            case let .number(d): text = String(d)
            case let .bool(v): text = v ? "true" : "false"
            case .null: text = "null"
            }
            capture.append(contentsOf: Array(text.utf8))
        }
    }

    /// The hot loop: scans one object/array, tracking only strings and nesting depth.
    private func scanComposite(copy: Bool) throws {
        var depth = 0
        var inString = false
        var escaped = false
        while true {
            if pos >= end { guard try refill() else { throw error("unexpected end of file inside a value (file truncated?)") } }
            let base = chunk.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var i = pos
            var done = false
            let limit = end
            while i < limit {
                let c = base[i]
                i += 1
                if inString {
                    if escaped { escaped = false }
                    else if c == 0x5C { escaped = true }
                    else if c == 0x22 { inString = false }
                    continue
                }
                switch c {
                case 0x22: inString = true
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D:
                    depth -= 1
                    if depth == 0 { done = true }
                default: break
                }
                if done { break }
            }
            if copy { capture.append(UnsafeRawBufferPointer(start: base + pos, count: i - pos).assumingMemoryBound(to: UInt8.self)) }
            pos = i
            if done { return }
        }
    }

    // MARK: - Scalars

    private func readScalar() throws -> JSONScalar {
        guard let b = try peekNonWhitespace() else { throw error("unexpected end of file") }
        switch b {
        case UInt8(ascii: "\""):
            pos += 1
            return .string(try readStringBody())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default:
            var text = [UInt8]()
            while let c = try peekByte(), c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                    || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || (c >= 0x30 && c <= 0x39) {
                text.append(c); pos += 1
            }
            guard let d = Double(String(decoding: text, as: UTF8.self)) else { throw error("invalid JSON value") }
            return .number(d)
        }
    }

    private func expectLiteral(_ literal: String) throws {
        for c in literal.utf8 {
            guard try peekByte() == c else { throw error("invalid JSON literal") }
            pos += 1
        }
    }

    /// Reads a string after its opening quote, decoding escapes.
    private func readStringBody() throws -> String {
        var bytes = [UInt8]()
        while true {
            guard let c = try peekByte() else { throw error("unexpected end of file in a string") }
            pos += 1
            if c == 0x22 { break }
            if c != 0x5C { bytes.append(c); continue }
            guard let e = try peekByte() else { throw error("unexpected end of file in a string") }
            pos += 1
            switch e {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800..<0xDC00).contains(scalar), try peekByte() == 0x5C {
                    pos += 1
                    guard try peekByte() == UInt8(ascii: "u") else { throw error("invalid escape in a string") }
                    pos += 1
                    let low = try readHex4()
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default: bytes.append(e)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func readHex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try peekByte(), let d = hexValue(c) else { throw error("invalid \\u escape") }
            v = v << 4 | d; pos += 1
        }
        return v
    }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x41...0x46: return UInt32(c - 0x41 + 10)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)
        default: return nil
        }
    }

    // MARK: - Buffer

    private func peekByte() throws -> UInt8? {
        if pos >= end { guard try refill() else { return nil } }
        return chunk[pos]
    }

    private func peekNonWhitespace() throws -> UInt8? {
        while true {
            guard let c = try peekByte() else { return nil }
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1; continue }
            return c
        }
    }

    private func refill() throws -> Bool {
        if eof { return false }
        consumedBefore += end
        pos = 0
        end = try reader.read(into: chunk)
        if end == 0 { eof = true; return false }
        return true
    }

    private func error(_ reason: String) -> CatalogError {
        .malformedFile(path: reader.path, reason: "\(reason) at byte \(offset)")
    }
}
