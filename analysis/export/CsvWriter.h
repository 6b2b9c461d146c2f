#pragma once
// RFC 4180 CSV onto an OutputFile: fields separated by commas, records ended by CRLF; a field that
// holds a comma, a double quote, CR or LF (or starts/ends with a space) is enclosed in double quotes
// with inner quotes doubled. Integers are written exactly; doubles in the shortest form that reads
// back to the same value (std::to_chars); non-finite doubles as an empty field.
// Formula injection (OWASP "CSV Injection"): a text field starting with = + - @ TAB or CR would run as
// a formula when the file is opened in a spreadsheet, so it is written with a leading single quote
// ("=HYPERLINK(...)" becomes "'=HYPERLINK(...)"). Numbers written with field(int64/double), and text
// fields that are a plain decimal number ("-1.5", "+3e8"), stay as they are: a number is no formula.
#include "export/OutputFile.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cnp {

class CsvWriter {
public:
    explicit CsvWriter(OutputFile& out) : out_(out) {}

    CsvWriter& field(std::string_view s);
    CsvWriter& field(const char* s) { return field(std::string_view(s)); }
    CsvWriter& field(const std::string& s) { return field(std::string_view(s)); }
    CsvWriter& field(std::int64_t v);
    CsvWriter& field(std::int32_t v) { return field(static_cast<std::int64_t>(v)); }
    CsvWriter& field(std::uint32_t v) { return field(static_cast<std::int64_t>(v)); }
    CsvWriter& field(double v);
    CsvWriter& empty(); // an empty field (e.g. an unknown value)
    void endRow();
    std::int64_t rows() const { return rows_; }

    // The written form of one text field: neutralised, then quoted when needed (also used by the
    // workbench's CSV copy).
    static std::string quote(std::string_view s);
    static bool needsQuotes(std::string_view s);
    // True when a spreadsheet could take `s` for a formula (see above).
    static bool needsNeutralising(std::string_view s);

private:
    void separator();
    OutputFile& out_;
    bool firstInRow_ = true;
    std::int64_t rows_ = 0;
};

} // namespace cnp
