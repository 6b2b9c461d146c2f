#include "report/PdfWriter.h"

#include <zlib.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cnp::pdf {

namespace {

// Advance widths (1/1000 em) of WinAnsi codes 32..255, written from the Adobe AFM files of the standard
// Type1 fonts (Helvetica.afm, Helvetica-Bold.afm; WinAnsi names: 39 quotesingle, 96 grave, 128 Euro ...).
// 0 marks codes WinAnsi leaves undefined (127, 129, 141, 143, 144, 157); toWinAnsi never produces them.
constexpr std::array<std::uint16_t, 224> kHelvetica = {
    278,  278, 355, 556, 556, 889,  667,  191,  333, 333,  389, 584, 278,  333, 278, 278, // 32
    556,  556, 556, 556, 556, 556,  556,  556,  556, 556,  278, 278, 584,  584, 584, 556, // 48
    1015, 667, 667, 722, 722, 667,  611,  778,  722, 278,  500, 667, 556,  833, 722, 778, // 64
    667,  778, 722, 667, 611, 722,  667,  944,  667, 667,  611, 278, 278,  278, 469, 556, // 80
    333,  556, 556, 500, 556, 556,  278,  556,  556, 222,  222, 500, 222,  833, 556, 556, // 96
    556,  556, 333, 500, 278, 556,  500,  722,  500, 500,  500, 334, 260,  334, 584, 0,   // 112
    556,  0,   222, 556, 333, 1000, 556,  556,  333, 1000, 667, 333, 1000, 0,   611, 0,   // 128
    0,    222, 222, 333, 333, 350,  556,  1000, 333, 1000, 500, 333, 944,  0,   500, 667, // 144
    278,  333, 556, 556, 556, 556,  260,  556,  333, 737,  370, 556, 584,  333, 737, 333, // 160
    400,  584, 333, 333, 333, 556,  537,  278,  333, 333,  365, 556, 834,  834, 834, 611, // 176
    667,  667, 667, 667, 667, 667,  1000, 722,  667, 667,  667, 667, 278,  278, 278, 278, // 192
    722,  722, 778, 778, 778, 778,  778,  584,  778, 722,  722, 722, 722,  667, 667, 611, // 208
    556,  556, 556, 556, 556, 556,  889,  500,  556, 556,  556, 556, 278,  278, 278, 278, // 224
    556,  556, 556, 556, 556, 556,  556,  584,  611, 556,  556, 556, 556,  500, 556, 500, // 240
};
constexpr std::array<std::uint16_t, 224> kHelveticaBold = {
    278, 333, 474, 556, 556, 889,  722,  238,  333, 333,  389, 584, 278,  333, 278, 278, // 32
    556, 556, 556, 556, 556, 556,  556,  556,  556, 556,  333, 333, 584,  584, 584, 611, // 48
    975, 722, 722, 722, 722, 667,  611,  778,  722, 278,  556, 722, 611,  833, 722, 778, // 64
    667, 778, 722, 667, 611, 722,  667,  944,  667, 667,  611, 333, 278,  333, 584, 556, // 80
    333, 556, 611, 556, 611, 556,  333,  611,  611, 278,  278, 556, 278,  889, 611, 611, // 96
    611, 611, 389, 556, 333, 611,  556,  778,  556, 556,  500, 389, 280,  389, 584, 0,   // 112
    556, 0,   278, 556, 500, 1000, 556,  556,  333, 1000, 667, 333, 1000, 0,   611, 0,   // 128
    0,   278, 278, 500, 500, 350,  556,  1000, 333, 1000, 556, 333, 944,  0,   500, 667, // 144
    278, 333, 556, 556, 556, 556,  280,  556,  333, 737,  370, 556, 584,  333, 737, 333, // 160
    400, 584, 333, 333, 333, 611,  556,  278,  333, 333,  365, 556, 834,  834, 834, 611, // 176
    722, 722, 722, 722, 722, 722,  1000, 722,  667, 667,  667, 667, 278,  278, 278, 278, // 192
    722, 722, 778, 778, 778, 778,  778,  584,  778, 722,  722, 722, 722,  667, 667, 611, // 208
    556, 556, 556, 556, 556, 556,  889,  556,  556, 556,  556, 556, 278,  278, 278, 278, // 224
    611, 611, 611, 611, 611, 611,  611,  584,  611, 611,  611, 611, 611,  556, 611, 556, // 240
};

// Unicode code points of WinAnsi 0x80..0x9F (0 = undefined in WinAnsi).
constexpr std::array<char32_t, 32> kWinAnsiHigh = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

constexpr char32_t kInvalid = 0xFFFD;
// Text "fits" a width up to this much over it (points), so that a width computed as the sum of the same
// glyph widths never fails to fit because of floating-point rounding.
constexpr double kWidthTolerance = 1e-6;

// Decodes UTF-8; every malformed byte decodes to U+FFFD on its own. O(n).
std::vector<char32_t> decodeUtf8(std::string_view s) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
            out.push_back(kInvalid);
            ++i;
            continue;
        }
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        bool ok = true;
        for (int k = 1; k < len; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((cc >> 6) != 0x2) {
                ok = false;
                break;
            }
            cp = (cp << 6) | (cc & 0x3F);
        }
        if (!ok) {
            out.push_back(kInvalid);
            ++i;
            continue;
        }
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

unsigned char winAnsiCode(char32_t cp) {
    if (cp == '\t')
        return ' ';
    if ((cp >= 0x20 && cp < 0x7F) || (cp >= 0xA0 && cp <= 0xFF))
        return static_cast<unsigned char>(cp);
    for (std::size_t i = 0; i < kWinAnsiHigh.size(); ++i)
        if (kWinAnsiHigh[i] != 0 && kWinAnsiHigh[i] == cp)
            return static_cast<unsigned char>(0x80 + i);
    return '?';
}

double widthOf(const std::vector<char32_t>& cps, std::size_t n, Font font, double size) {
    long units = 0;
    for (std::size_t i = 0; i < n; ++i)
        units += glyphWidth(winAnsiCode(cps[i]), font);
    return static_cast<double>(units) * size / 1000.0;
}

// A PDF number: fixed point with at most 2 decimals, trailing zeros dropped, locale-independent.
std::string num(double v) {
    if (!std::isfinite(v))
        v = 0;
    char buf[48];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 2);
    std::string s(buf, r.ptr);
    while (s.size() > 1 && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    if (s == "-0")
        s = "0";
    return s;
}

std::string colorOps(Rgb c, bool stroke) {
    return num(c.r) + ' ' + num(c.g) + ' ' + num(c.b) + (stroke ? " RG\n" : " rg\n");
}

// Text for the Info dictionary: UTF-16BE with a byte-order mark, as a hex string (any Unicode title).
std::string utf16HexString(std::string_view utf8) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out = "<FEFF";
    auto unit = [&](unsigned u) {
        for (int shift = 12; shift >= 0; shift -= 4)
            out += hex[(u >> shift) & 0xF];
    };
    for (char32_t cp : decodeUtf8(utf8)) {
        if (cp >= 0x10000) {
            cp -= 0x10000;
            unit(0xD800 + static_cast<unsigned>(cp >> 10));
            unit(0xDC00 + static_cast<unsigned>(cp & 0x3FF));
        } else {
            unit(static_cast<unsigned>(cp));
        }
    }
    return out + '>';
}

std::string deflate(const std::string& in) {
    uLongf size = compressBound(static_cast<uLong>(in.size()));
    std::string out(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data()),
                  static_cast<uLong>(in.size()), Z_BEST_COMPRESSION) != Z_OK)
        throw std::runtime_error("zlib compression of a PDF page failed");
    out.resize(size);
    return out;
}

} // namespace

Rgb Rgb::fromHex(std::string_view hex) {
    if (hex.size() != 7 || hex[0] != '#')
        return {};
    unsigned v = 0;
    const auto r = std::from_chars(hex.data() + 1, hex.data() + 7, v, 16);
    if (r.ptr != hex.data() + 7)
        return {};
    return {((v >> 16) & 0xFF) / 255.0, ((v >> 8) & 0xFF) / 255.0, (v & 0xFF) / 255.0};
}

std::string toWinAnsi(std::string_view utf8) {
    std::string out;
    for (char32_t cp : decodeUtf8(utf8))
        out += static_cast<char>(winAnsiCode(cp));
    return out;
}

std::string escapeLiteral(std::string_view winAnsi) {
    std::string out;
    out.reserve(winAnsi.size() + 8);
    for (char c : winAnsi) {
        if (c == '(' || c == ')' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

int glyphWidth(unsigned char code, Font font) {
    if (code < 32)
        return 0;
    const auto& table = font == Font::HelveticaBold ? kHelveticaBold : kHelvetica;
    return table[code - 32];
}

double textWidth(std::string_view utf8, Font font, double size) {
    const auto cps = decodeUtf8(utf8);
    return widthOf(cps, cps.size(), font, size);
}

std::string fitText(std::string_view utf8, Font font, double size, double maxWidth) {
    const auto cps = decodeUtf8(utf8);
    if (widthOf(cps, cps.size(), font, size) <= maxWidth + kWidthTolerance)
        return std::string(utf8);
    const double ellipsis = glyphWidth(0x85, font) * size / 1000.0;
    std::size_t n = cps.size();
    while (n > 0 && widthOf(cps, n, font, size) + ellipsis > maxWidth)
        --n;
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        appendUtf8(out, cps[i]);
    appendUtf8(out, 0x2026);
    return out;
}

std::vector<std::string> wrapText(std::string_view utf8, Font font, double size, double maxWidth) {
    // Tokens end at break opportunities: a space (dropped) or a '/' or '-' right after a letter (kept on
    // the first line, so "elementwise/reduction" may become "elementwise/" + "reduction").
    struct Token {
        std::string text;
        bool spaceBefore;
    };
    std::vector<Token> tokens;
    std::string cur;
    bool spaceBefore = false;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c == ' ') {
            if (!cur.empty())
                tokens.push_back({cur, spaceBefore});
            cur.clear();
            spaceBefore = true;
            continue;
        }
        cur += c;
        const bool afterLetter = i > 0 && std::isalpha(static_cast<unsigned char>(utf8[i - 1]));
        if ((c == '/' || c == '-') && afterLetter && i + 1 < utf8.size() && utf8[i + 1] != ' ') {
            tokens.push_back({cur, spaceBefore});
            cur.clear();
            spaceBefore = false;
        }
    }
    if (!cur.empty())
        tokens.push_back({cur, spaceBefore});

    std::vector<std::string> lines;
    std::string line;
    for (const auto& t : tokens) {
        const std::string candidate = line.empty() ? t.text : line + (t.spaceBefore ? " " : "") + t.text;
        if (line.empty() || textWidth(candidate, font, size) <= maxWidth + kWidthTolerance) {
            line = candidate;
        } else {
            lines.push_back(line);
            line = t.text;
        }
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

PdfWriter::PdfWriter(bool compress) : compress_(compress) {}

void PdfWriter::beginPage() {
    pages_.emplace_back();
    current_ = static_cast<int>(pages_.size()) - 1;
}

void PdfWriter::selectPage(int index) {
    if (index < 0 || index >= pageCount())
        throw std::out_of_range("PdfWriter::selectPage: no such page");
    current_ = index;
}

std::string& PdfWriter::content() {
    if (current_ < 0)
        beginPage();
    return pages_[static_cast<std::size_t>(current_)];
}

void PdfWriter::text(double x, double baselineY, std::string_view utf8, Font font, double size, Rgb color) {
    if (utf8.empty())
        return;
    auto& c = content();
    c += colorOps(color, false);
    c += "BT /" + std::string(font == Font::HelveticaBold ? "F2 " : "F1 ") + num(size) + " Tf " + num(x) +
         ' ' + num(kPageHeight - baselineY) + " Td (" + escapeLiteral(toWinAnsi(utf8)) + ") Tj ET\n";
}

void PdfWriter::fillRect(double x, double y, double w, double h, Rgb color) {
    auto& c = content();
    c += colorOps(color, false);
    c += num(x) + ' ' + num(kPageHeight - y - h) + ' ' + num(w) + ' ' + num(h) + " re f\n";
}

void PdfWriter::strokeRect(double x, double y, double w, double h, double lineWidth, Rgb color) {
    auto& c = content();
    c += colorOps(color, true);
    c += num(lineWidth) + " w " + num(x) + ' ' + num(kPageHeight - y - h) + ' ' + num(w) + ' ' + num(h) +
         " re S\n";
}

void PdfWriter::line(double x1, double y1, double x2, double y2, double lineWidth, Rgb color) {
    auto& c = content();
    c += colorOps(color, true);
    c += num(lineWidth) + " w " + num(x1) + ' ' + num(kPageHeight - y1) + " m " + num(x2) + ' ' +
         num(kPageHeight - y2) + " l S\n";
}

void PdfWriter::write(std::ostream& out) {
    if (pages_.empty())
        beginPage();
    const std::size_t pageObjects = 2 * pages_.size();
    const std::size_t objectCount = 5 + pageObjects; // objects 1..objectCount
    std::vector<std::size_t> offsets(objectCount + 1, 0);
    std::string doc = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
    auto begin = [&](std::size_t n) {
        offsets[n] = doc.size();
        doc += std::to_string(n) + " 0 obj\n";
    };
    const std::string end = "\nendobj\n";

    begin(1);
    doc += "<< /Type /Catalog /Pages 2 0 R >>" + end;
    begin(2);
    doc += "<< /Type /Pages /Kids [";
    for (std::size_t i = 0; i < pages_.size(); ++i)
        doc += (i ? " " : "") + std::to_string(6 + 2 * i) + " 0 R";
    doc += "] /Count " + std::to_string(pages_.size()) + " >>" + end;
    begin(3);
    doc += "<< /Producer (CNP Workbench)";
    if (!title_.empty())
        doc += " /Title " + utf16HexString(title_);
    doc += " >>" + end;
    begin(4);
    doc += "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>" + end;
    begin(5);
    doc += "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>" + end;
    for (std::size_t i = 0; i < pages_.size(); ++i) {
        const std::size_t page = 6 + 2 * i, contents = page + 1;
        begin(page);
        doc += "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(kPageWidth) + ' ' + num(kPageHeight) +
               "] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents " + std::to_string(contents) +
               " 0 R >>" + end;
        const std::string data = compress_ ? deflate(pages_[i]) : pages_[i];
        begin(contents);
        // /Length counts the bytes between "stream\n" and the "\n" before "endstream".
        doc += "<< /Length " + std::to_string(data.size()) + (compress_ ? " /Filter /FlateDecode" : "") +
               " >>\nstream\n" + data + "\nendstream" + end;
    }
    const std::size_t xref = doc.size();
    doc += "xref\n0 " + std::to_string(objectCount + 1) + "\n0000000000 65535 f \n";
    for (std::size_t n = 1; n <= objectCount; ++n) {
        char entry[21];
        std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", offsets[n]);
        doc += entry; // exactly 20 bytes, as the xref format requires
    }
    doc += "trailer\n<< /Size " + std::to_string(objectCount + 1) +
           " /Root 1 0 R /Info 3 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
    out.write(doc.data(), static_cast<std::streamsize>(doc.size()));
}

} // namespace cnp::pdf
