/// A fixed-width bitmap font for debug and HUD text over video: printable ASCII 32...126 drawn
/// as 5x7 glyphs (8 rows with one descender row) in a 6x9 cell.
///
/// The glyph set was drawn for this project in the style of the classic 5x7 LCD/terminal fonts;
/// it is part of the source, so no font file is needed. Characters outside 32...126 draw as '?'.
/// Metrics are in font pixels; drawing multiplies them by an integer scale.
public struct BitmapFont: Sendable {
    /// Ink width of a glyph.
    public let glyphWidth: Int
    /// Rows of a glyph including the descender row; the baseline is below row `glyphHeight - 2`.
    public let glyphHeight: Int
    /// Horizontal distance between consecutive glyph origins (glyph plus one blank column).
    public let advance: Int
    /// Vertical distance between consecutive lines.
    public let lineHeight: Int
    /// `glyphHeight` bytes per character 32...126; bit (glyphWidth - 1 - column) set = ink.
    let rows: [UInt8]

    /// The built-in 5x7 font.
    public static let standard = BitmapFont(glyphWidth: 5, glyphHeight: 8, advance: 6, lineHeight: 9,
                                            rows: parseGlyphs(standardGlyphs, width: 5, height: 8))

    /// Ink rows of `character` (the '?' glyph for anything unprintable).
    func glyph(_ scalar: Unicode.Scalar) -> ArraySlice<UInt8> {
        var v = Int(scalar.value)
        if v < 32 || v > 126 { v = Int(UInt8(ascii: "?")) }
        let start = (v - 32) * glyphHeight
        return rows[start ..< start + glyphHeight]
    }

    /// Whether the glyph of `character` has ink at (column, row) in font pixels.
    public func hasInk(_ character: Character, column: Int, row: Int) -> Bool {
        guard column >= 0, column < glyphWidth, row >= 0, row < glyphHeight,
              let s = character.unicodeScalars.first else { return false }
        return glyph(s)[glyph(s).startIndex + row] >> UInt8(glyphWidth - 1 - column) & 1 == 1
    }

    /// Size in image pixels of `text` drawn at `scale`: the width of the longest line (from the
    /// first glyph's left edge to the last glyph's right edge, no trailing gap) and the height
    /// from the top of the first line to the bottom of the last line's descender row. Lines are
    /// separated by "\n"; an empty string measures (0, 0).
    public func measure(_ text: String, scale: Int = 1) -> (width: Int, height: Int) {
        if text.isEmpty { return (0, 0) }
        var widest = 0, lines = 1, current = 0
        for s in text.unicodeScalars {
            if s == "\n" { widest = max(widest, current); current = 0; lines += 1 } else { current += 1 }
        }
        widest = max(widest, current)
        let w = widest == 0 ? 0 : widest * advance - (advance - glyphWidth)
        let h = (lines - 1) * lineHeight + glyphHeight
        return (w * scale, h * scale)
    }

    static func parseGlyphs(_ table: [String], width: Int, height: Int) -> [UInt8] {
        precondition(table.count == 95, "font table must cover ASCII 32...126")
        var out: [UInt8] = []
        out.reserveCapacity(95 * height)
        for glyph in table {
            let rowStrings = glyph.split(separator: " ")
            precondition(rowStrings.count == height, "glyph \(glyph) has \(rowStrings.count) rows")
            for r in rowStrings {
                precondition(r.count == width, "glyph row \(r) is not \(width) wide")
                var bits: UInt8 = 0
                for c in r { bits = bits << 1 | (c == "#" ? 1 : 0) }
                out.append(bits)
            }
        }
        return out
    }

    /// ASCII 32...126 in order, 8 rows of 5 columns each ('#' = ink), rows separated by spaces.
    static let standardGlyphs: [String] = [
        "..... ..... ..... ..... ..... ..... ..... .....", // space
        "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#.. .....", // !
        ".#.#. .#.#. .#.#. ..... ..... ..... ..... .....", // "
        ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#. .....", // #
        "..#.. .#### #.#.. .###. ..#.# ####. ..#.. .....", // $
        "##... ##..# ...#. ..#.. .#... #..## ...## .....", // %
        ".##.. #..#. #.#.. .#... #.#.# #..#. .##.# .....", // &
        "..#.. ..#.. .#... ..... ..... ..... ..... .....", // '
        "...#. ..#.. .#... .#... .#... ..#.. ...#. .....", // (
        ".#... ..#.. ...#. ...#. ...#. ..#.. .#... .....", // )
        "..... ..#.. #.#.# .###. #.#.# ..#.. ..... .....", // *
        "..... ..#.. ..#.. ##### ..#.. ..#.. ..... .....", // +
        "..... ..... ..... ..... ..... .##.. ..#.. .#...", // ,
        "..... ..... ..... ##### ..... ..... ..... .....", // -
        "..... ..... ..... ..... ..... .##.. .##.. .....", // .
        "..... ....# ...#. ..#.. .#... #.... ..... .....", // /
        ".###. #...# #..## #.#.# ##..# #...# .###. .....", // 0
        "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###. .....", // 1
        ".###. #...# ....# ...#. ..#.. .#... ##### .....", // 2
        "##### ...#. ..#.. ...#. ....# #...# .###. .....", // 3
        "...#. ..##. .#.#. #..#. ##### ...#. ...#. .....", // 4
        "##### #.... ####. ....# ....# #...# .###. .....", // 5
        "..##. .#... #.... ####. #...# #...# .###. .....", // 6
        "##### ....# ...#. ..#.. .#... .#... .#... .....", // 7
        ".###. #...# #...# .###. #...# #...# .###. .....", // 8
        ".###. #...# #...# .#### ....# ...#. .##.. .....", // 9
        "..... .##.. .##.. ..... .##.. .##.. ..... .....", // :
        "..... .##.. .##.. ..... .##.. ..#.. .#... .....", // ;
        "...#. ..#.. .#... #.... .#... ..#.. ...#. .....", // <
        "..... ..... ##### ..... ##### ..... ..... .....", // =
        ".#... ..#.. ...#. ....# ...#. ..#.. .#... .....", // >
        ".###. #...# ....# ...#. ..#.. ..... ..#.. .....", // ?
        ".###. #...# ....# .##.# #.#.# #.#.# .###. .....", // @
        ".###. #...# #...# ##### #...# #...# #...# .....", // A
        "####. #...# #...# ####. #...# #...# ####. .....", // B
        ".###. #...# #.... #.... #.... #...# .###. .....", // C
        "###.. #..#. #...# #...# #...# #..#. ###.. .....", // D
        "##### #.... #.... ####. #.... #.... ##### .....", // E
        "##### #.... #.... ####. #.... #.... #.... .....", // F
        ".###. #...# #.... #.### #...# #...# .#### .....", // G
        "#...# #...# #...# ##### #...# #...# #...# .....", // H
        ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###. .....", // I
        "..### ...#. ...#. ...#. ...#. #..#. .##.. .....", // J
        "#...# #..#. #.#.. ##... #.#.. #..#. #...# .....", // K
        "#.... #.... #.... #.... #.... #.... ##### .....", // L
        "#...# ##.## #.#.# #.#.# #...# #...# #...# .....", // M
        "#...# #...# ##..# #.#.# #..## #...# #...# .....", // N
        ".###. #...# #...# #...# #...# #...# .###. .....", // O
        "####. #...# #...# ####. #.... #.... #.... .....", // P
        ".###. #...# #...# #...# #.#.# #..#. .##.# .....", // Q
        "####. #...# #...# ####. #.#.. #..#. #...# .....", // R
        ".#### #.... #.... .###. ....# ....# ####. .....", // S
        "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. .....", // T
        "#...# #...# #...# #...# #...# #...# .###. .....", // U
        "#...# #...# #...# #...# #...# .#.#. ..#.. .....", // V
        "#...# #...# #...# #.#.# #.#.# #.#.# .#.#. .....", // W
        "#...# #...# .#.#. ..#.. .#.#. #...# #...# .....", // X
        "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#.. .....", // Y
        "##### ....# ...#. ..#.. .#... #.... ##### .....", // Z
        ".###. .#... .#... .#... .#... .#... .###. .....", // [
        "..... #.... .#... ..#.. ...#. ....# ..... .....", // backslash
        ".###. ...#. ...#. ...#. ...#. ...#. .###. .....", // ]
        "..#.. .#.#. #...# ..... ..... ..... ..... .....", // ^
        "..... ..... ..... ..... ..... ..... ..... #####", // _
        ".#... ..#.. ...#. ..... ..... ..... ..... .....", // `
        "..... ..... .###. ....# .#### #...# .#### .....", // a
        "#.... #.... #.##. ##..# #...# #...# ####. .....", // b
        "..... ..... .###. #.... #.... #...# .###. .....", // c
        "....# ....# .##.# #..## #...# #...# .#### .....", // d
        "..... ..... .###. #...# ##### #.... .###. .....", // e
        "..##. .#..# .#... ###.. .#... .#... .#... .....", // f
        "..... ..... .#### #...# #...# .#### ....# .###.", // g
        "#.... #.... #.##. ##..# #...# #...# #...# .....", // h
        "..#.. ..... .##.. ..#.. ..#.. ..#.. .###. .....", // i
        "...#. ..... ..##. ...#. ...#. ...#. #..#. .##..", // j
        "#.... #.... #..#. #.#.. ##... #.#.. #..#. .....", // k
        ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###. .....", // l
        "..... ..... ##.#. #.#.# #.#.# #...# #...# .....", // m
        "..... ..... #.##. ##..# #...# #...# #...# .....", // n
        "..... ..... .###. #...# #...# #...# .###. .....", // o
        "..... ..... ####. #...# #...# ####. #.... #....", // p
        "..... ..... .#### #...# #...# .#### ....# ....#", // q
        "..... ..... #.##. ##..# #.... #.... #.... .....", // r
        "..... ..... .###. #.... .###. ....# ####. .....", // s
        ".#... .#... ###.. .#... .#... .#..# ..##. .....", // t
        "..... ..... #...# #...# #...# #..## .##.# .....", // u
        "..... ..... #...# #...# #...# .#.#. ..#.. .....", // v
        "..... ..... #...# #...# #.#.# #.#.# .#.#. .....", // w
        "..... ..... #...# .#.#. ..#.. .#.#. #...# .....", // x
        "..... ..... #...# #...# #...# .#### ....# .###.", // y
        "..... ..... ##### ...#. ..#.. .#... ##### .....", // z
        "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#. .....", // {
        "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. .....", // |
        ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#... .....", // }
        "..... ..... .#... #.#.# ...#. ..... ..... .....", // ~
    ]
}
