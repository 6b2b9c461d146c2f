// bench_gui_responsiveness: how long the workbench's GUI thread is blocked, next to floors measured in
// the same run. These were wall-clock assertions in the test suite (tst_ingest's 100 ms stall watchdog,
// tst_ablationpage's 500 ms to the first chart); a loaded or sanitized machine made them flaky, so the
// tests now check what is machine-independent (the ingest runs on a worker thread, the chart holds the
// computed bars) and the times are measured here.
//
//   bench_gui_responsiveness [--repeats N]   (default 5; medians, min and max are printed)
//
// 1. GUI stall during an ingest: the longest interval between two ticks of a 5 ms GUI-thread timer while
//    the window ingests resources/demo/demo_base.json.gz on its worker thread, and for 200 ms after it
//    (the dock and the pages react to the new run). Floor: the same watchdog over an idle event loop for
//    the same time (the timer's own jitter on this machine). Goal (issue 15): <= 100 ms.
// 2. Open -> first drawn ablation chart: MainWindow on the Ablation page opens the four-configuration demo
//    workspace, until the page's contentReady. Floor: computeAblation() on the same workspace, the
//    computation the page runs on its worker (what `cnp ablation` does too). Goal: <= 500 ms.
#include "IngestController.h"
#include "MainWindow.h"
#include "PageId.h"
#include "WorkbenchPage.h"
#include "core/ResourceDir.h"
#include "ingest/IngestPipeline.h"
#include "requests/AblationRequest.h"
#include "store/Workspace.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace cnp;
using namespace cnp::wb;

namespace {

const std::vector<std::string> kDemoConfigs = {"base", "ckpt", "compile", "compile_ckpt"};

std::string demoTrace(const std::string& config) {
    return resourceDir() + "/demo/demo_" + config + ".json.gz";
}

// The longest interval between two consecutive ticks of a 5 ms GUI-thread timer, in ms.
class StallWatchdog {
public:
    StallWatchdog() {
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, [this]() {
            const qint64 now = clock_.nsecsElapsed();
            if (last_ >= 0)
                worst_ = std::max(worst_, now - last_);
            last_ = now;
        });
        clock_.start();
        timer_.start();
    }
    double worstMs() const { return double(worst_) / 1e6; }
    double elapsedMs() const { return double(clock_.nsecsElapsed()) / 1e6; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = -1;
    qint64 worst_ = 0;
};

// Runs the event loop for `ms` (timers and posted events keep being served).
void spin(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until `signal` of `sender` fires. Returns false after `timeoutMs`.
template <typename Sender, typename Signal> bool waitFor(Sender* sender, Signal signal, int timeoutMs) {
    QEventLoop loop;
    bool fired = false;
    QObject::connect(sender, signal, &loop, [&]() {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return fired;
}

struct Stall {
    double worstMs = 0; // during the ingest and 200 ms after it
    double idleMs = 0;  // floor: the same watchdog over an idle loop as long
};

Stall measureIngestStall(const QString& workspace) {
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    w.openWorkspace(workspace, true);
    IngestRequest r;
    r.inputs = {demoTrace("base")};
    r.runName = "base-" + std::to_string(QDateTime::currentMSecsSinceEpoch());
    r.config = "base";
    Stall s;
    double spanMs = 0;
    {
        StallWatchdog watchdog;
        w.startIngest(r);
        if (!waitFor(&w, &MainWindow::ingestFinished, 120000))
            std::fprintf(stderr, "ingest did not finish in 120 s\n");
        spin(200);
        s.worstMs = watchdog.worstMs();
        spanMs = watchdog.elapsedMs();
    }
    StallWatchdog idle;
    spin(int(spanMs));
    s.idleMs = idle.worstMs();
    return s;
}

QString buildDemoWorkspace(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("demo.cnpdb"));
    Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
    for (const std::string& c : kDemoConfigs) {
        IngestRequest r;
        r.inputs = {demoTrace(c)};
        r.runName = c;
        r.config = c;
        r.tokensPerStep = 8192;
        ingest(ws, r);
    }
    ws.setPlanOrder(kDemoConfigs);
    return path;
}

struct FirstChart {
    double pageMs = 0;  // openWorkspace -> the Ablation page's contentReady
    double floorMs = 0; // computeAblation() alone on the same workspace
};

FirstChart measureFirstChart(const QString& workspace) {
    FirstChart f;
    {
        MainWindow w;
        w.setPersistSettings(false);
        w.resize(1280, 800);
        w.showPage(PageId::Ablation);
        w.show();
        spin(100);
        WorkbenchPage* page = w.page(PageId::Ablation);
        QElapsedTimer t;
        QEventLoop loop;
        QObject::connect(page, &WorkbenchPage::contentReady, &loop, &QEventLoop::quit);
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        t.start();
        w.openWorkspace(workspace);
        loop.exec();
        f.pageMs = double(t.nsecsElapsed()) / 1e6;
    }
    QElapsedTimer t;
    t.start();
    Workspace ws(workspace.toStdString(), Workspace::Mode::ReadOnly);
    const AblationResult r = computeAblation(ws);
    f.floorMs = double(t.nsecsElapsed()) / 1e6;
    if (r.configs.size() != kDemoConfigs.size())
        std::fprintf(stderr, "unexpected: %zu configurations\n", r.configs.size());
    return f;
}

struct Summary {
    double min = 0, median = 0, max = 0;
};

Summary summarise(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v.front(), v[v.size() / 2], v.back()};
}

void printRow(const char* what, const std::vector<double>& figure, const std::vector<double>& floor,
              double goalMs) {
    const Summary a = summarise(figure);
    const Summary b = summarise(floor);
    std::printf(
        "%-34s median %7.1f ms (min %6.1f, max %6.1f) | floor median %7.1f ms | ratio %5.2f | goal <= "
        "%.0f ms\n",
        what, a.median, a.min, a.max, b.median, b.median > 0 ? a.median / b.median : 0.0, goalMs);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int repeats = 5;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--repeats") == 0)
            repeats = std::max(1, std::atoi(argv[i + 1]));
    QTemporaryDir dir;
    const QString demo = buildDemoWorkspace(dir);
    const QString ingestInto = dir.filePath(QStringLiteral("ingest.cnpdb"));
    std::vector<double> stall, idle, page, compute;
    for (int i = 0; i < repeats; ++i) {
        const Stall s = measureIngestStall(ingestInto);
        stall.push_back(s.worstMs);
        idle.push_back(s.idleMs);
        const FirstChart f = measureFirstChart(demo);
        page.push_back(f.pageMs);
        compute.push_back(f.floorMs);
    }
    std::printf("bench_gui_responsiveness: %d repeats, QT_QPA_PLATFORM=%s\n", repeats,
                qPrintable(QGuiApplication::platformName()));
    printRow("worst GUI stall, ingest + refresh", stall, idle, 100);
    printRow("open -> first ablation chart", page, compute, 500);
    return 0;
}
