extension HTMLEscaping {
    /// A link destination ready for an `href` or `src` attribute, encoded as cmark's own HTML renderer does:
    /// characters that may stand in a URL (letters, digits and `-_.+!*(),%#@?=;:/$~`) stay, `&` and `'`
    /// become HTML entities, and every other byte of the UTF-8 text becomes `%XX` (so `/my uri` is
    /// `/my%20uri` and `ä` is `%C3%A4`). An existing `%XX` is kept, not encoded twice.
    public static func escapeURL(_ destination: String) -> String {
        var result = ""
        result.reserveCapacity(destination.utf8.count)
        for byte in destination.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;"
            case UInt8(ascii: "'"): result += "&#x27;"
            case _ where isURLSafe(byte): result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static func isURLSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-_.+!*(),%#@?=;:/$~".utf8.contains(byte)
        }
    }
}
