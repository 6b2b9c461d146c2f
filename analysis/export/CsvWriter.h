#pragma once
// RFC 4180 CSV onto an OutputFile: fields separated by commas, records ended by CRLF; a field that
// holds a comma, a double quote, CR or LF (or starts/ends with a space) is enclosed in double quotes
// with inner quotes doubled. Integers are written exactly; doubles in the shortest form that reads
// back to the same value (std::to_chars); non-finite doubles as an empty field.
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

    // The quoted form of one field (exposed for tests).
    static std::string quote(std::string_view s);
    static bool needsQuotes(std::string_view s);

private:
    void separator();
    OutputFile& out_;
    bool firstInRow_ = true;
    std::int64_t rows_ = 0;
};

} // namespace cnp
