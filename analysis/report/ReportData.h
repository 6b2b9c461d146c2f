#pragma once
// The report's numbers as data: a CSV bundle (a folder with one RFC 4180 CSV per table, raw values in
// base units as the column keys say, plus tables.csv listing them) and one JSON document of the same
// tables. Both come from the report model, so they carry exactly the numbers the HTML and PDF show.
#include "export/OutputFile.h"
#include "report/ReportModel.h"

#include <string>

namespace cnp {

// Creates `dir` when missing; each file appears only when complete (OutputFile). Throws InputError
// naming the file that cannot be written.
void writeCsvBundle(const report::ReportModel& model, const std::string& dir);
void writeJsonReport(const report::ReportModel& model, OutputFile& out);

namespace report {
// A file name for a table id: ASCII letters, digits, '-', '_', '.', '+' and non-ASCII UTF-8 kept, every other
// byte (path separators, spaces, quotes) replaced by '_'.
std::string csvFileName(const std::string& tableId);
} // namespace report

} // namespace cnp
