// bench_timeline_screenshots: renders the timeline page on the demo workspace (the real H200 trace
// resources/demo/demo_base.json.gz, and demo_compile.json.gz for compare mode, ingested with
// cnp::ingest into a temporary workspace) at overview, mid (one step) and kernel-level zoom, into
// docs/images/timeline-*.png (or the folder given as argv[1]). Prints how long each view took to draw.
#include "core/ResourceDir.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"
#include "timeline/EventDetails.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>

#include <cstdio>

using namespace cnp;
using namespace cnp::timeline;

namespace {
void waitFor(cnp::wb::TimelinePage& page) {
    QEventLoop loop;
    QObject::connect(&page, &cnp::wb::TimelinePage::runLoaded, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
}
void settle() {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 400)
        QApplication::processEvents();
}
} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString out = argc > 1 ? argv[1] : QString::fromStdString(cnp::resourceDir() + "/../docs/images");
    QTemporaryDir dir;
    auto ws = std::make_shared<Workspace>(dir.filePath("demo.cnpdb").toStdString(),
                                          Workspace::Mode::CreateIfMissing);
    RunId base;
    for (const char* name : {"base", "compile"}) {
        IngestRequest r;
        r.inputs = {cnp::resourceDir() + "/demo/demo_" + name + ".json.gz"};
        r.runName = name;
        const IngestResult res = ingest(*ws, r);
        if (std::string(name) == "base")
            base = res.runId;
    }
    cnp::wb::TimelinePage page;
    page.resize(1600, 900);
    page.show();
    page.setWorkspace(ws);
    page.showRun(base);
    waitFor(page);
    settle();
    auto* v = page.view();
    auto shot = [&](const char* file) {
        QElapsedTimer t;
        t.start();
        const QPixmap px = page.grab();
        px.save(out + "/" + file);
        std::printf("%s: %lld ms\n", file, static_cast<long long>(t.elapsed()));
    };
    shot("timeline-overview.png");
    // Mid: the second profiled step, with the "flash" kernels searched and highlighted.
    const TimelineModel& m = *v->model();
    if (m.steps.size() > 1) {
        const StepRange& s = m.steps[1];
        v->zoomTo(s.gpuStart, s.gpuEnd);
    }
    page.findChild<QLineEdit*>("searchEdit")->setText("flash");
    settle();
    shot("timeline-mid.png");
    page.findChild<QLineEdit*>("searchEdit")->setText("");
    settle();
    // Kernel level: ~300 us around the first gemm kernel of step 2, selected, with its launching call.
    EventRef k;
    for (int r = 0; r < static_cast<int>(m.rows.size()) && !k.valid(); ++r) {
        if (m.rows[r].kind != RowKind::GpuStream)
            continue;
        const EventTrack& tr = m.rows[r].lanes[0];
        const Ns from = m.steps.size() > 1 ? m.steps[1].gpuStart : m.runStart;
        for (std::size_t i = tr.firstStartingAtOrAfter(from); i < tr.size(); ++i)
            if (m.styles[tr.style(i)] == "gemm") {
                k = {r, 0, static_cast<std::uint32_t>(i)};
                break;
            }
    }
    if (k.valid()) {
        const Ns s = m.rows[k.row].lanes[0].start(k.index);
        v->zoomTo(s - 150000, s + 150000);
        const QPoint p(v->labelWidth() + static_cast<int>(v->axis().x(s + 1)), v->laneY(k.row, 0) + 8);
        QMouseEvent press(QEvent::MouseButtonPress, p, v->mapToGlobal(p), Qt::LeftButton, Qt::LeftButton, {});
        QMouseEvent release(QEvent::MouseButtonRelease, p, v->mapToGlobal(p), Qt::LeftButton, Qt::NoButton,
                            {});
        QApplication::sendEvent(v, &press);
        QApplication::sendEvent(v, &release);
        settle();
        shot("timeline-kernel.png");
        auto* details = page.findChild<QTextBrowser*>("details");
        emit details->anchorClicked(QUrl("cnp:link"));
        emit details->anchorClicked(QUrl("cnp:link"));
        // Range statistics over the same window via a shift-drag.
        const int y = v->laneY(k.row, 0) + 8;
        const QPoint a(v->labelWidth() + 20, y), b(v->labelWidth() + v->axis().width() - 20, y);
        QMouseEvent p1(QEvent::MouseButtonPress, a, v->mapToGlobal(a), Qt::LeftButton, Qt::LeftButton,
                       Qt::ShiftModifier);
        QMouseEvent mv(QEvent::MouseMove, b, v->mapToGlobal(b), Qt::LeftButton, Qt::LeftButton,
                       Qt::ShiftModifier);
        QMouseEvent r1(QEvent::MouseButtonRelease, b, v->mapToGlobal(b), Qt::LeftButton, Qt::NoButton,
                       Qt::ShiftModifier);
        QApplication::sendEvent(v, &p1);
        QApplication::sendEvent(v, &mv);
        QApplication::sendEvent(v, &r1);
        settle();
        shot("timeline-flow-range.png");
    }
    // Compare: base above, torch.compile below, aligned at step 1.
    auto* combo = page.findChild<QComboBox*>("compareRun");
    combo->setCurrentIndex(combo->findText("compile"));
    waitFor(page);
    page.findChild<QSpinBox*>("alignStep")->setValue(1);
    if (m.steps.size() > 1)
        v->zoomTo(m.steps[1].gpuStart, m.steps[1].gpuEnd);
    emit v->axisChanged();
    settle();
    shot("timeline-compare.png");
    return 0;
}
