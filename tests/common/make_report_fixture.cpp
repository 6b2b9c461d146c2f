// make_report_fixture OUT.cnpdb: writes the report golden tests' workspace (tests/common/ReportFixture.h)
// so the golden files can be written by `cnp report` (docs/reports.md, "Golden files").
#include "ReportFixture.h"

#include "core/InputError.h"

#include <cstdio>
#include <filesystem>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_report_fixture OUT.cnpdb\n");
        return 1;
    }
    try {
        if (std::filesystem::exists(argv[1])) {
            std::fprintf(stderr, "make_report_fixture: %s exists; refusing to overwrite it\n", argv[1]);
            return 2;
        }
        cnp::Workspace ws(argv[1], cnp::Workspace::Mode::CreateIfMissing);
        cnp::testing::buildReportFixture(ws);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_report_fixture: %s\n", e.what());
        return 2;
    }
    return 0;
}
