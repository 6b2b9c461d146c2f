#include "report/PdfReport.h"

#include "core/InputError.h"
#include "core/Interrupt.h"
#include "report/PdfLayout.h"

#include <cairo-pdf.h>

namespace cnp {

namespace {

cairo_status_t discard(void*, const unsigned char*, unsigned int) {
    return CAIRO_STATUS_SUCCESS;
}

cairo_status_t toStream(void* closure, const unsigned char* data, unsigned int length) {
    auto* out = static_cast<std::ostream*>(closure);
    out->write(reinterpret_cast<const char*>(data), length);
    return *out ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

// One pass over the whole document; returns the page count. totalPages 0 = not known yet.
int render(const report::ReportModel& m, report::PageGeometry page, cairo_write_func_t write, void* closure,
           int totalPages) {
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(write, closure, page.width, page.height);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, m.title.c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "CNP Workbench");
    // Without a timestamp the document must be byte-for-byte reproducible: a fixed creation date.
    if (m.generated.empty())
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z");
    cairo_t* cr = cairo_create(surface);
    report::PdfLayout layout(cr, page, m.title + " · " + m.workspace, totalPages);
    layout.title(m.title, m.metaLine());
    bool cancelled = false; // an interrupt stops between sections (charts check it too: drawChart)
    for (const auto& s : m.sections) {
        if ((cancelled = interruptRequested()))
            break;
        layout.section(s.title, s.blocks);
    }
    int pages = 0;
    if (!cancelled) {
        layout.appendix();
        pages = layout.finish();
    }
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    const cairo_status_t status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (cancelled)
        throw Cancelled();
    if (status != CAIRO_STATUS_SUCCESS)
        throw InputError("PDF report", cairo_status_to_string(status));
    return pages;
}

} // namespace

void writePdfReport(const report::ReportModel& model, std::ostream& out, PaperSize paper) {
    const auto page = report::PageGeometry::of(paper);
    // First pass for the page count the footers print; the layout is deterministic.
    const int pages = render(model, page, discard, nullptr, 0);
    render(model, page, toStream, &out, pages);
}

void writePdfReport(const Workspace& ws, std::ostream& out, const ReportOptions& options) {
    writePdfReport(report::buildReportModel(ws, options), out, options.paper);
}

} // namespace cnp
