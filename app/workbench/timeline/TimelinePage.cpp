#include "timeline/TimelinePage.h"

#include "BackgroundTask.h"
#include "ElidedLabel.h"
#include "EventFetchController.h"
#include "UnitFormat.h"
#include "metrics/CategoryRules.h"
#include "requests/CriticalPathRequest.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"
#include "timeline/CriticalPathPanel.h"
#include "timeline/EventDetails.h"
#include "timeline/RangeStatistics.h"
#include "timeline/TimelineLoader.h"
#include "timeline/TimelineNavigator.h"
#include "timeline/TimelineOverview.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineSearch.h"
#include "timeline/TimelineView.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <atomic>
#include <map>
#include <optional>
#include <utility>

namespace cnp::wb {

using namespace cnp::timeline;

namespace {
QString dur(Ns ns) {
    return UnitFormat::duration(static_cast<double>(ns));
}
QString html(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
} // namespace

class TimelinePageImpl {
public:
    TimelinePage* q = nullptr;
    std::shared_ptr<const cnp::Workspace> ws;
    std::vector<std::string> computePriority;
    std::map<RunId, std::shared_ptr<const TimelineModel>> cache; // loaded runs
    std::map<RunId, std::shared_ptr<std::atomic<bool>>> loading; // run -> cancel flag
    RunId runA, runB;                                            // RunId(): none
    struct PendingJump {
        RankId rank;
        Ns start, end;
        std::vector<std::int32_t> openRanks; // non-empty: open only these ranks' groups (a collective)
    };
    std::optional<PendingJump> pendingJump;
    bool pendingSearchJump = false; // showComparison(): go to the first match once both runs are loaded

    TimelineView* viewA = nullptr;
    TimelineView* viewB = nullptr;
    QMainWindow* inner = nullptr;
    QToolBar* bar = nullptr;
    QToolBar* compareBar = nullptr; // the comparison controls; a row of their own when narrow
    QDockWidget* detailsDock = nullptr;
    bool dockPlaced = false; // the default placement is decided once, at the first show
    QComboBox* runPicker = nullptr;
    QAction* fit = nullptr;  // a tool button beside Back and Forward (a push button's width pushed
                             // the first toolbar into its overflow menu at 1024 px)
    QAction* back = nullptr; // run A's history (B follows at the aligned step)
    QAction* forward = nullptr;
    QAction* addBookmark = nullptr;      // Ctrl+B
    QToolButton* bookmarkList = nullptr; // its menu: add, the run's bookmarks (jump), remove all
    QToolButton* prev = nullptr;
    QToolButton* next = nullptr;
    ElidedLabel* runLabel = nullptr;
    QLineEdit* search = nullptr;
    QCheckBox* regex = nullptr;
    QLabel* searchCount = nullptr;
    QComboBox* compareRun = nullptr;
    QSpinBox* alignStep = nullptr;
    QTextBrowser* details = nullptr;
    QTreeWidget* rangeStats = nullptr;
    QAction* criticalPath = nullptr; // "Show Critical Path" (toolbar, Ctrl+Shift+C)
    QDockWidget* pathDock = nullptr;
    CriticalPathPanel* pathPanel = nullptr;
    std::shared_ptr<const CriticalPathReport> pathReport; // the path shown; null: none
    std::uint64_t pathTicket = 0;                         // the latest request: an older outcome is dropped
    std::shared_ptr<const TimelineSearch> searchResult;
    std::shared_ptr<const TimelineSearch> searchResultB; // the same search over run B (compare mode)
    std::int64_t searchPos = -1;
    EventRef detailsRef;
    EventDetails shown;
    bool syncing = false;
    bool runsRetried = false; // the last run list read failed and one more is scheduled

    std::shared_ptr<const TimelineModel> model(RunId run) const {
        const auto it = cache.find(run);
        return it == cache.end() ? nullptr : it->second;
    }
    void load(RunId run);
    void modelReady(RunId run);
    // A run whose events stayed on the cluster (EventsElsewhere): the details offer to fetch them.
    void offerEventFetch(RunId run, const QString& why);
    EventFetchController* eventFetch = nullptr;
    RunId fetchRun; // the run the details offer to fetch
    void runSearch();
    // Marks the search's matches in run B too while it is shown beneath (its own TimelineSearch);
    // a comparison whose event only B has goes to B's first match.
    void searchCompareRun();
    // Goes to the event a comparison searches (showComparison), once both runs are searched.
    void landComparisonJump();
    void gotoHit(std::int64_t k);
    // Brings hit `h` of `v`'s model into view (zooming when it is wider than half the window), selects
    // it and shows its details; the other view follows at the aligned step.
    void revealHit(TimelineView* v, const SearchHit& h);
    QString matchCountText() const;
    void showDetails(TimelineView* v, const EventRef& ref);
    void followLink();
    void showRange(TimelineView* v, std::int32_t rank, Ns s, Ns e);
    // "Run A: NAME" / "Run B: NAME" for what `v` shows in compare mode; "" when one run is shown.
    QString runTag(const TimelineView* v) const;
    // Zooms to a jump's target with context on both sides and marks it: the event of the target's
    // rank spanning exactly [start, end] is selected (its details shown); a target that is no event
    // (an idle gap, a time window) becomes the range selection, with its statistics.
    void landJump(const PendingJump& jump);
    EventRef eventSpanning(const TimelineModel& m, std::int32_t rank, Ns start, Ns end) const;
    void updateCompare();
    // Compare mode's B pane shows some of run B in its window (aligned to A's).
    bool compareFits() const;
    void endCompare(); // back to run A alone
    // The page's parts: toolbars (run picker, search, fit, details toggle; then the comparison, on a second
    // row when narrow) over the views, inside a nested main window whose dock holds the details and range
    // statistics.
    void createControls();
    void createViews();
    void createDetailsDock();
    // Puts the comparison toolbar on a row of its own when both toolbars do not fit side by side.
    void wrapToolBars();
    // Shows the details dock: at the right when the window is wide, else beneath the rows, so the
    // event area keeps its width (it opens on every selection; the user may close or move it).
    void openDetails();
    // Gives the dock, when it opens, the size the user last gave it in its area, else (beneath the
    // rows) kDetailsHeightShare of the page; the central views' minimum keeps kMinEventsHeight.
    void sizeDetails();
    // Remembers the dock's size in its area (each resize once sizeDetails() placed it: the user's
    // separator drags, or a window too small for it).
    void rememberDetailsSize();
    bool detailsSized = false;     // sizeDetails() is queued or ran since the dock last opened
    bool detailsSizeKnown = false; // sizeDetails() ran: later resizes are the user's
    // Forgets everything that belongs to the shown run (selection, range, search hits, details): called
    // whenever the run or the workspace changes, so nothing of another run stays on screen.
    void resetRunView();
    Ns alignTime(const TimelineModel& m) const;
    void sync(TimelineView* from, TimelineView* to);
    // Back or forward in run A's history (Alt+Left / Alt+Right, the toolbar's arrows).
    void goInHistory(bool forward);
    void updateHistoryActions();
    // The critical path (docs/workbench.md, "Critical path"): the panel's dock beside the details; the
    // rank and step it is asked for (the selected event's, the range's, or the step under the cursor,
    // else in the middle of the view); computing it in the background through the same request as
    // `cnp critical-path`; showing the outcome; selecting the longest segment of a kind; forgetting it.
    void createCriticalPath();
    struct PathTarget {
        std::int32_t rank = 0;
        std::optional<std::int32_t> step; // unset: a rank without steps (the whole trace)
    };
    std::optional<PathTarget> pathTarget() const;
    void showCriticalPath();
    void openPathDock(); // shows the dock, sized beside the details the first time it opens
    void criticalPathReady(TaskOutcome<CriticalPathReport>& outcome, const PathTarget& target);
    void selectPathKind(PathKind kind);
    void clearCriticalPath();
    // Run A's bookmarks from its run attribute (none when it cannot be read: a read error is no reason to
    // lose the timeline), and the list menu rebuilt from the view's.
    void loadBookmarks(RunId run);
    RunId bookmarksRun; // the run whose bookmarks the view holds (RunId(): none)
    void fillBookmarkMenu();
    // The view's bookmarks changed: redraw, and hand the new attribute text to whoever stores it.
    void bookmarksChanged(std::vector<TimelineBookmark> bookmarks);
};

Ns TimelinePageImpl::alignTime(const TimelineModel& m) const {
    const int k = alignStep->value();
    for (const StepRange& s : m.steps)
        if (s.index == k && s.rank == m.steps.front().rank)
            return s.gpuStart >= 0 ? s.gpuStart : s.cpuStart;
    return m.runStart;
}

void TimelinePageImpl::sync(TimelineView* from, TimelineView* to) {
    if (syncing || !to->isVisible() || !from->model() || !to->model())
        return;
    syncing = true;
    TimeAxis ax = from->axis();
    const Ns shift = alignTime(*to->model()) - alignTime(*from->model());
    ax.setWindow(ax.start() + shift, ax.end() + shift);
    to->setAxis(ax);
    syncing = false;
}

void TimelinePageImpl::goInHistory(bool toForward) {
    TimelineNavigator* nav = viewA->navigator();
    if (toForward ? nav->forward() : nav->back())
        sync(viewA, viewB);
}

void TimelinePageImpl::loadBookmarks(RunId run) {
    std::vector<TimelineBookmark> b;
    try {
        if (ws)
            if (auto text = ws->runAttribute(run, kBookmarksAttribute))
                b = parseBookmarks(*text);
    } catch (const std::exception& e) {
        emit q->readFailed(
            QObject::tr("Cannot read the run's bookmarks: %1").arg(QString::fromUtf8(e.what())));
    }
    viewA->setBookmarks(std::move(b));
}

void TimelinePageImpl::fillBookmarkMenu() {
    QMenu* menu = bookmarkList->menu();
    menu->clear();
    menu->addAction(addBookmark);
    const auto& marks = viewA->bookmarks();
    if (!marks.empty())
        menu->addSeparator();
    const Ns origin = viewA->model() ? viewA->model()->runStart : 0;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const QString at = dur(marks[i].time - origin);
        const QString label = QString::fromStdString(marks[i].label);
        QAction* a = menu->addAction(label.isEmpty() ? at : QStringLiteral("%1 · %2").arg(label, at));
        QObject::connect(a, &QAction::triggered, q, [this, i]() { q->jumpToBookmark(int(i)); });
    }
    if (!marks.empty()) {
        menu->addSeparator();
        menu->addAction(QObject::tr("Remove All Bookmarks"), q, [this]() { bookmarksChanged({}); });
    }
}

void TimelinePageImpl::bookmarksChanged(std::vector<TimelineBookmark> bookmarks) {
    const std::string text = formatBookmarks(std::move(bookmarks));
    viewA->setBookmarks(parseBookmarks(text)); // exactly what is stored: sorted, cleaned, bounded
    if (runA != RunId())
        emit q->bookmarksEdited(runA, QString::fromStdString(text));
}

void TimelinePageImpl::updateHistoryActions() {
    back->setEnabled(viewA->navigator()->canGoBack());
    forward->setEnabled(viewA->navigator()->canGoForward());
}

void TimelinePageImpl::load(RunId run) {
    if (!ws || cache.count(run) || loading.count(run))
        return;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    loading[run] = cancel;
    const std::string path = ws->path();
    QPointer<TimelinePage> guard(q);
    TimelineView* view = run == runB && runB != runA ? viewB : viewA;
    view->setLoadingProgress(0);
    runInBackground<std::shared_ptr<const TimelineModel>>(
        q,
        [path, run, cancel, guard, view, impl = this]() {
            ProgressSink sink;
            sink.cancel = cancel.get();
            // The worker never dereferences `guard`: the page may be mid-destruction on the GUI thread.
            // Calls go to the application object (alive until the thread pool is joined, in
            // ~QCoreApplication) and test the guard there, on the GUI thread that deletes the page.
            sink.progress = [guard, view](double f) {
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [guard, view, f]() {
                        if (guard)
                            view->setLoadingProgress(f);
                    },
                    Qt::QueuedConnection);
            };
            Workspace ws(path, Workspace::Mode::ReadOnly);
            // First paint from the stored overview (milliseconds), then the full events.
            if (auto ov = loadOverview(ws, run)) {
                auto shared = std::make_shared<const TimelineModel>(std::move(*ov));
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [guard, impl, view, shared, run]() {
                        // Only while this view is still meant to show `run` and shows nothing of it yet
                        // (another run's events stay no longer than it takes to read the overview).
                        if (guard && (view == impl->viewA ? impl->runA : impl->runB) == run &&
                            (!view->model() || view->model()->runId != run))
                            view->setModel(shared);
                    },
                    Qt::QueuedConnection);
            }
            // A run without a stored overview (ingested before overviews were written at ingest) paints
            // when its full events arrive; the page keeps them in memory (`cache`) and never writes the
            // workspace it views.
            return std::make_shared<const TimelineModel>(loadTimeline(ws, run, sink));
        },
        [this, run](TaskOutcome<std::shared_ptr<const TimelineModel>>& o) {
            loading.erase(run);
            if (o.value) {
                cache[run] = *o.value;
                modelReady(run);
            } else {
                TimelineView* v = run == runB ? viewB : viewA;
                v->setLoadingProgress(-1);
                if (o.eventsElsewhere)
                    offerEventFetch(run, o.error);
                else if (!o.cancelled)
                    details->setHtml(QStringLiteral("<p><b>Could not load the timeline:</b> %1</p>")
                                         .arg(o.error.toHtmlEscaped()));
                if (!o.cancelled)
                    emit q->runLoadFailed(run);
            }
        });
}

void TimelinePageImpl::offerEventFetch(RunId run, const QString& why) {
    fetchRun = run;
    if (run == runA && viewA->model())
        runLabel->setFullText(QObject::tr("%1 · overview only: its events are on the cluster")
                                  .arg(QString::fromStdString(viewA->model()->runName)));
    openDetails();
    details->setHtml(
        QStringLiteral("<p><b>This run's events are on the cluster.</b> The picture above is its "
                       "stored overview; zooming in, selecting and searching need the events.</p>"
                       "<p><a href=\"cnp:fetch-events\">Fetch events</a> (every shard of the run, "
                       "through kubectl, with the plan it was made with)</p><p><small>%1</small></p>")
            .arg(why.toHtmlEscaped()));
}

void TimelinePageImpl::modelReady(RunId run) {
    if (run == runA) {
        auto m = model(run);
        viewA->setLoadingProgress(-1);
        const bool newRun = !viewA->model() || viewA->model()->runId != m->runId;
        const bool changed = viewA->model() != m.get();
        if (changed)
            viewA->setModel(m);
        // Once per run shown: the stored overview's first paint (TimelineView::setModel of the run) came
        // before this full model, and a model of the same run keeps the view's bookmarks.
        if (bookmarksRun != run) {
            loadBookmarks(run);
            bookmarksRun = run;
        }
        if (changed) {
            runLabel->setFullText(QObject::tr("%1 · %2 events · %3 rows")
                                      .arg(QString::fromStdString(m->runName))
                                      .arg(QLocale().toString(static_cast<qlonglong>(m->eventCount())))
                                      .arg(m->rows.size()));
            if (!search->text().isEmpty())
                runSearch();
        }
        const bool jumped = pendingJump.has_value();
        if (pendingJump) {
            const PendingJump jump = *pendingJump;
            pendingJump.reset();
            landJump(jump);
        }
        // B follows A's new window (issue 32.7: A showed 0-13 s, B still 130-810 ms until the next zoom),
        // and leaves when it no longer fits: A's run itself, or nothing of B's run in its aligned window.
        if (runB != RunId() && (newRun || jumped)) {
            sync(viewA, viewB);
            if (runB == runA || !compareFits())
                endCompare();
        }
        emit q->runLoaded(run);
    }
    if (run == runB && viewB->isVisible()) {
        auto m = model(run);
        viewB->setLoadingProgress(-1);
        if (viewB->model() != m.get()) {
            viewB->setModel(m);
            viewB->setTitle(QStringLiteral("B: %1").arg(QString::fromStdString(m->runName)));
        }
        sync(viewA, viewB);
        searchCompareRun();
        if (run != runA)
            emit q->runLoaded(run);
    }
}

void TimelinePageImpl::runSearch() {
    const auto m = model(runA);
    searchPos = -1;
    if (!m || search->text().isEmpty()) {
        searchResult.reset();
        searchCount->setText({});
        viewA->setSearch(nullptr);
        searchCompareRun();
        return;
    }
    auto s = std::make_shared<TimelineSearch>(*m, search->text().toStdString(), regex->isChecked());
    if (!s->error().empty()) {
        searchCount->setText(QString::fromStdString(s->error()).toHtmlEscaped());
        viewA->setSearch(nullptr);
        searchResult.reset();
        searchCompareRun();
        return;
    }
    searchResult = s;
    viewA->setSearch(s);
    searchCompareRun();
}

void TimelinePageImpl::searchCompareRun() {
    const auto m = runB != RunId() && viewB->isVisible() ? model(runB) : nullptr;
    searchResultB.reset();
    if (m && searchResult) // A's search parsed: the same text, the same mode
        searchResultB =
            std::make_shared<TimelineSearch>(*m, search->text().toStdString(), regex->isChecked());
    viewB->setSearch(searchResultB);
    if (pendingSearchJump && searchResult && (runB == RunId() || searchResultB)) { // both runs searched
        pendingSearchJump = false;
        landComparisonJump();
    }
    if (searchResult)
        searchCount->setText(matchCountText());
}

namespace {
// The time shown on each side of a jump's target [start, end]: a quarter of it, at least 1 µs.
Ns jumpContext(Ns start, Ns end) {
    return std::max<Ns>((end - start) / 4, 1000);
}

// The first of `s`'s hits in `m` that is a GPU kernel, if any. O(hits before it).
std::optional<std::size_t> firstKernelHit(const TimelineSearch& s, const TimelineModel& m) {
    for (std::size_t i = 0; i < s.count(); ++i) {
        const SearchHit& h = s.hit(i);
        if (m.rows[h.row].lanes[h.lane].kind(h.index) == EventKind::Kernel)
            return i;
    }
    return std::nullopt;
}
} // namespace

void TimelinePageImpl::landComparisonJump() {
    // A diff row names a kernel: its first launch in A, else (a kernel only B ran) in B. A CPU op of the
    // same name (torch.compile's Triton launchers) comes earlier but is not what the row counts.
    // Failing both, the first match of any kind, in A, else in B.
    const auto mB = searchResultB ? model(runB) : nullptr;
    TimelineView* v = viewA;
    std::optional<std::size_t> k = firstKernelHit(*searchResult, *model(runA));
    if (!k && mB)
        v = viewB, k = firstKernelHit(*searchResultB, *mB);
    if (!k && searchResult->count() > 0)
        v = viewA, k = 0;
    if (!k && mB && searchResultB->count() > 0)
        v = viewB, k = 0;
    if (!k)
        return;
    // Zoomed onto the launch with context, as every jump lands; the other run follows at the step.
    const SearchHit& h = (v == viewA ? searchResult : searchResultB)->hit(*k);
    const EventTrack& tr = v->model()->rows[h.row].lanes[h.lane];
    const Ns s = tr.start(h.index), e = tr.effectiveEnd(h.index), context = jumpContext(s, e);
    v->zoomTo(s - context, e + context);
    if (v == viewA)
        gotoHit(static_cast<std::int64_t>(*k));
    else
        revealHit(viewB, h);
}

QString TimelinePageImpl::matchCountText() const {
    const auto n = [](std::size_t c) { return QLocale().toString(static_cast<qulonglong>(c)); };
    QString text = searchPos >= 0
                       ? QObject::tr("%1 / %2 matches").arg(searchPos + 1).arg(n(searchResult->count()))
                       : QObject::tr("%1 matches").arg(n(searchResult->count()));
    if (searchResultB)
        text += QObject::tr(" · B: %1").arg(n(searchResultB->count()));
    return text;
}

void TimelinePageImpl::gotoHit(std::int64_t k) {
    if (!searchResult || k < 0 || k >= static_cast<std::int64_t>(searchResult->count()))
        return;
    searchPos = k;
    revealHit(viewA, searchResult->hit(static_cast<std::size_t>(k)));
    searchCount->setText(matchCountText());
}

void TimelinePageImpl::revealHit(TimelineView* v, const SearchHit& h) {
    const EventTrack& tr = v->model()->rows[h.row].lanes[h.lane];
    const EventRef ref{h.row, h.lane, h.index};
    const TimeAxis& ax = v->axis();
    const Ns s = tr.start(h.index), e = tr.effectiveEnd(h.index);
    if (e - s > ax.span() / 2)
        v->zoomTo(s, e);
    else if (s < ax.start() || e > ax.end())
        v->navigator()->showWindow(s - ax.span() / 2, s + ax.span() / 2);
    v->scrollToRow(h.row);
    v->setSelected(ref);
    showDetails(v, ref);
    sync(v, v == viewA ? viewB : viewA);
}

void TimelinePageImpl::showDetails(TimelineView* v, const EventRef& ref) {
    if (!ref.valid() || !v->model() || !ws) {
        details->clear();
        return;
    }
    const TimelineModel& m = *v->model();
    openDetails();
    detailsRef = ref;
    try {
        shown = lookupEventDetails(*ws, m, ref);
    } catch (const std::exception& e) { // a click never ends the application (issue 32.2)
        shown = EventDetails{};
        details->setPlainText(
            QObject::tr("Cannot read this event's details: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    const EventDetails& d = shown;
    QString h = QStringLiteral("<h3 style='margin:0'>%1</h3>").arg(html(d.name));
    if (const QString run = runTag(v); !run.isEmpty()) // compare mode: which run (issue 32.9)
        h += QStringLiteral("<p style='margin:0'>%1</p>").arg(run.toHtmlEscaped());
    h += QStringLiteral("<table cellspacing=2>");
    auto row = [&](const QString& k, const QString& val) {
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, val);
    };
    row(QObject::tr("Kind"), QString::fromLatin1(toString(d.kind)) +
                                 (d.extra.empty() ? QString() : QStringLiteral(" (%1)").arg(html(d.extra))));
    if (!d.category.empty())
        row(QObject::tr("Category"), html(d.category));
    row(QObject::tr("Start"),
        QStringLiteral("%1 after run start (%2 ns)").arg(dur(d.start - m.runStart)).arg(d.start));
    row(QObject::tr("End"), QStringLiteral("%1 (%2 ns)").arg(dur(d.end - m.runStart)).arg(d.end));
    row(QObject::tr("Duration"), UnitFormat::durationExact(d.end - d.start));
    row(QObject::tr("Rank"), QString::number(d.rank));
    if (d.device >= 0)
        row(QObject::tr("Device / stream"), QStringLiteral("GPU %1 · stream %2").arg(d.device).arg(d.stream));
    if (d.tid != 0)
        row(QObject::tr("Thread"), QStringLiteral("%1 (pid %2)").arg(d.tid).arg(d.pid));
    if (d.kind == EventKind::Kernel) {
        row(QObject::tr("Grid"), QStringLiteral("%1 × %2 × %3").arg(d.grid[0]).arg(d.grid[1]).arg(d.grid[2]));
        row(QObject::tr("Block"),
            QStringLiteral("%1 × %2 × %3").arg(d.block[0]).arg(d.block[1]).arg(d.block[2]));
        row(QObject::tr("Registers / thread"), QString::number(d.registers));
        row(QObject::tr("Shared memory"),
            QStringLiteral("%1 B static + %2 B dynamic").arg(d.staticSmem).arg(d.dynamicSmem));
    }
    if (d.bytes >= 0)
        row(QObject::tr("Bytes"), QLocale().toString(static_cast<qlonglong>(d.bytes)));
    if (d.correlation != 0)
        row(QObject::tr("Correlation id"), QString::number(d.correlation));
    if (!d.linkName.empty()) {
        const bool gpu = d.kind == EventKind::ApiCall;
        const QString what = gpu ? QObject::tr("Launched") : QObject::tr("Launched by");
        const QString where =
            gpu ? QStringLiteral("stream %1").arg(d.linkStream) : QStringLiteral("thread %1").arg(d.linkTid);
        row(what,
            QStringLiteral("%1 on %2 at %3").arg(html(d.linkName), where, dur(d.linkStart - m.runStart)));
        if (d.link.valid())
            h += QStringLiteral("<tr><td></td><td><a href='cnp:link'>%1</a></td></tr>")
                     .arg(gpu ? QObject::tr("→ Jump to the launched GPU activity")
                              : QObject::tr("→ Jump to the launching API call"));
    }
    h += QStringLiteral("</table>");
    details->setHtml(h);
}

void TimelinePageImpl::followLink() {
    if (!shown.link.valid() || !viewA->model())
        return;
    const EventRef from = detailsRef, to = shown.link;
    const TimelineModel& m = *viewA->model();
    // The arrow always points from the API call to its GPU activity.
    const bool fromIsCpu = m.rows[from.row].kind == RowKind::CpuThread;
    viewA->setFlow(fromIsCpu ? from : to, fromIsCpu ? to : from);
    viewA->setSelected(to);
    const Ns a = m.rows[from.row].lanes[from.lane].start(from.index);
    const Ns b = m.rows[to.row].lanes[to.lane].start(to.index);
    const Ns lo = std::min(a, b), hi = std::max({a, b, m.rows[to.row].lanes[to.lane].effectiveEnd(to.index)});
    const TimeAxis& ax = viewA->axis();
    if (lo < ax.start() || hi > ax.end())
        viewA->zoomTo(lo, hi);
    viewA->scrollToRow(to.row);
    const EventRef keepFlowFrom = fromIsCpu ? from : to, keepFlowTo = fromIsCpu ? to : from;
    showDetails(viewA, to);
    viewA->setFlow(keepFlowFrom, keepFlowTo);
    sync(viewA, viewB);
}

QString TimelinePageImpl::runTag(const TimelineView* v) const {
    if (!viewB->isVisible() || !v->model())
        return {};
    return (v == viewB ? QObject::tr("Run B: %1") : QObject::tr("Run A: %1"))
        .arg(QString::fromStdString(v->model()->runName));
}

void TimelinePageImpl::showRange(TimelineView* v, std::int32_t rank, Ns s, Ns e) {
    rangeStats->clear();
    if (!v->model())
        return;
    openDetails();
    const RangeStatistics r = computeRangeStatistics(*v->model(), rank, {s, e}, computePriority);
    const WindowBreakdown& b = r.breakdown;
    auto pct = [&](Ns x) {
        return UnitFormat::percent(b.length() ? static_cast<double>(x) / static_cast<double>(b.length())
                                              : 0.0);
    };
    const Ns origin = v->model()->runStart;
    const QString run = runTag(v);
    auto* head = new QTreeWidgetItem(
        rangeStats, {(run.isEmpty() ? QString() : run + QStringLiteral(" · ")) +
                         QObject::tr("Rank %1 · %2 → %3").arg(rank).arg(dur(s - origin), dur(e - origin)),
                     dur(b.length()), UnitFormat::percent(1.0)});
    head->setToolTip(0, QObject::tr("Range on rank %1: from %2 to %3 after the run start, %4 long")
                            .arg(rank)
                            .arg(UnitFormat::durationExact(s - origin), UnitFormat::durationExact(e - origin),
                                 UnitFormat::durationExact(e - s)));
    auto add = [&](QTreeWidgetItem* parent, const QString& k, Ns v, const QColor& c = {}) {
        auto* it = new QTreeWidgetItem(parent, {k, dur(v), pct(v)});
        it->setData(1, Qt::UserRole, static_cast<qlonglong>(v));
        if (c.isValid())
            it->setData(0, Qt::DecorationRole, c);
        return it;
    };
    auto* part = new QTreeWidgetItem(head, {QObject::tr("Breakdown")});
    add(part, QObject::tr("compute"), b.compute);
    add(part, QObject::tr("communication (exposed)"), b.communication,
        TimelinePalette::styleColor(QStringLiteral("communication")));
    add(part, QObject::tr("memory (exposed)"), b.memory,
        TimelinePalette::styleColor(QStringLiteral("memory")));
    add(part, QObject::tr("idle"), b.idle, TimelinePalette::styleColor(QStringLiteral("idle")));
    add(part, QObject::tr("overlap (comm under compute)"), b.overlap);
    auto* excl = new QTreeWidgetItem(head, {QObject::tr("Busy per category (exclusive)")});
    for (std::size_t c = 0; c < r.order.names.size() && c < b.exclusive.size(); ++c)
        if (b.exclusive[c] > 0)
            add(excl, QString::fromStdString(r.order.names[c]), b.exclusive[c],
                TimelinePalette::styleColor(QString::fromStdString(r.order.names[c])));
    add(excl, QObject::tr("idle"), b.idle, TimelinePalette::styleColor(QStringLiteral("idle")));
    auto* top = new QTreeWidgetItem(head, {QObject::tr("Top kernels (time inside the range)")});
    for (const RangeKernel& k : r.topKernels) {
        auto* it = add(top, QString::fromStdString(k.name), k.timeInRange,
                       TimelinePalette::styleColor(QString::fromStdString(k.category)));
        it->setToolTip(0, QObject::tr("%1 · %2 kernels").arg(QString::fromStdString(k.name)).arg(k.count));
    }
    rangeStats->expandAll();
}

EventRef TimelinePageImpl::eventSpanning(const TimelineModel& m, std::int32_t rank, Ns start, Ns end) const {
    // GPU rows first: a kernel and the step it ends can share their bounds. O(rows x log events).
    for (const bool gpu : {true, false})
        for (const int row : m.rowsOfRank(rank)) {
            if ((m.rows[row].kind == RowKind::GpuStream) != gpu)
                continue;
            const auto& lanes = m.rows[row].lanes;
            for (int l = 0; l < static_cast<int>(lanes.size()); ++l) {
                const std::size_t i = lanes[l].firstStartingAtOrAfter(start);
                if (i < lanes[l].size() && lanes[l].start(i) == start && lanes[l].end(i) == end)
                    return {row, l, static_cast<std::uint32_t>(i)};
            }
        }
    return {};
}

void TimelinePageImpl::landJump(const PendingJump& jump) {
    const Ns context = jumpContext(jump.start, jump.end);
    viewA->clearSelection();
    details->clear();
    rangeStats->clear();
    viewA->zoomTo(jump.start - context, jump.end + context);
    viewA->openOnlyRanks(jump.openRanks);
    viewA->scrollToRank(jump.rank);
    const EventRef ref = eventSpanning(*viewA->model(), jump.rank.value(), jump.start, jump.end);
    if (ref.valid()) {
        viewA->setSelected(ref);
        viewA->scrollToRow(ref.row);
        showDetails(viewA, ref);
    } else if (jump.end > jump.start) {
        viewA->setRange(jump.rank.value(), jump.start, jump.end);
        showRange(viewA, jump.rank.value(), jump.start, jump.end);
    }
    sync(viewA, viewB);
}

void TimelinePageImpl::createControls() {
    runPicker = new QComboBox(q);
    runPicker->setObjectName(QStringLiteral("runPicker"));
    runPicker->setToolTip(QObject::tr("The run shown (also selected in the workspace dock)"));
    runPicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    runPicker->setMinimumContentsLength(12);
    runLabel = new ElidedLabel(QObject::tr("No run selected"), q);
    runLabel->setObjectName(QStringLiteral("runLabel"));
    search = new QLineEdit(q);
    search->setObjectName(QStringLiteral("searchEdit"));
    search->setPlaceholderText(QObject::tr("Search event names…"));
    search->setClearButtonEnabled(true);
    search->setMinimumWidth(220); // never a stub: the toolbar moves other controls to its overflow first
    regex = new QCheckBox(QObject::tr("Regex"), q);
    prev = new QToolButton(q);
    prev->setText(QStringLiteral("◀"));
    prev->setToolTip(QObject::tr("Previous match (Shift+Enter)"));
    next = new QToolButton(q);
    next->setText(QStringLiteral("▶"));
    next->setToolTip(QObject::tr("Next match (Enter)"));
    searchCount = new QLabel(q);
    searchCount->setObjectName(QStringLiteral("searchCount"));
    compareRun = new QComboBox(q);
    compareRun->setObjectName(QStringLiteral("compareRun"));
    compareRun->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    compareRun->setMinimumContentsLength(10);
    compareRun->setToolTip(QObject::tr("A second run to show beneath this one, aligned at a step"));
    alignStep = new QSpinBox(q);
    alignStep->setObjectName(QStringLiteral("alignStep"));
    alignStep->setRange(0, 100000);
    alignStep->setEnabled(false);
    alignStep->setToolTip(
        QObject::tr("Both runs are aligned at the start of this step: its number (ProfilerStep#3 is step 3; "
                    "steps without numbers in their names count from 0)"));
    fit = new QAction(QObject::tr("Fit"), q);
    fit->setObjectName(QStringLiteral("timelineFit"));
    fit->setToolTip(QObject::tr("Show the whole run (F fits the selection)"));
    // Back / forward through the views shown (zooms, pans, jumps), with the platform's shortcuts while
    // the focus is in the page (Alt+Left / Alt+Right on Linux and Windows); disabled at either end.
    auto historyAction = [this](bool toForward) {
        auto* a =
            new QAction(q->style()->standardIcon(toForward ? QStyle::SP_ArrowForward : QStyle::SP_ArrowBack),
                        toForward ? QObject::tr("Forward") : QObject::tr("Back"), q);
        a->setObjectName(toForward ? QStringLiteral("timelineForward") : QStringLiteral("timelineBack"));
        a->setShortcuts(toForward ? QKeySequence::Forward : QKeySequence::Back);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        a->setToolTip(
            (toForward ? QObject::tr("Forward to the next view") : QObject::tr("Back to the previous view")) +
            (keys.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(keys)));
        a->setEnabled(false);
        q->addAction(a); // the shortcut works wherever the focus is inside the page
        QObject::connect(a, &QAction::triggered, q, [this, toForward]() { goInHistory(toForward); });
        return a;
    };
    back = historyAction(false);
    forward = historyAction(true);
    addBookmark = new QAction(QObject::tr("Add Bookmark…"), q);
    addBookmark->setObjectName(QStringLiteral("addBookmark"));
    addBookmark->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    addBookmark->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addBookmark->setToolTip(QObject::tr("Bookmark the selected event, the range or the time under the mouse "
                                        "(Ctrl+B), with an optional label"));
    q->addAction(addBookmark);
    QObject::connect(addBookmark, &QAction::triggered, q, [this]() {
        if (!viewA->model())
            return;
        const Ns t = viewA->bookmarkTime();
        bool ok = false;
        const QString label =
            QInputDialog::getText(q, QObject::tr("Add Bookmark"), QObject::tr("Label (optional):"),
                                  QLineEdit::Normal, QString(), &ok);
        if (ok)
            q->addBookmark(t, label);
    });
    bookmarkList = new QToolButton(q);
    bookmarkList->setObjectName(QStringLiteral("bookmarkList"));
    bookmarkList->setText(QObject::tr("Bookmarks"));
    bookmarkList->setToolTip(QObject::tr("The run's bookmarks: click one to go back to it"));
    bookmarkList->setPopupMode(QToolButton::InstantPopup);
    bookmarkList->setMenu(new QMenu(bookmarkList));
    QObject::connect(bookmarkList->menu(), &QMenu::aboutToShow, q, [this]() { fillBookmarkMenu(); });
}

void TimelinePageImpl::createViews() {
    inner = new QMainWindow(q);
    inner->setWindowFlags(Qt::Widget); // the constructor always makes a window; this one is embedded
    inner->setObjectName(QStringLiteral("timelineInner"));
    inner->setDockOptions(QMainWindow::AnimatedDocks);
    bar = new QToolBar(QObject::tr("Timeline"), inner);
    bar->setObjectName(QStringLiteral("timelineBar"));
    bar->setMovable(false);
    bar->setFloatable(false);
    bar->addWidget(runPicker);
    bar->addSeparator();
    bar->addWidget(search);
    bar->addWidget(regex);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(searchCount);
    bar->addSeparator();
    bar->addAction(back);
    bar->addAction(forward);
    bar->addAction(fit);
    inner->addToolBar(bar);
    // The comparison controls are a toolbar of their own, beside the first one when the page is wide
    // enough and on a second row when not (wrapToolBars()): at 1024 px they were in the overflow menu.
    // No "Compare with" label: the combo's first entry says it.
    compareBar = new QToolBar(QObject::tr("Compare"), inner);
    compareBar->setObjectName(QStringLiteral("timelineCompareBar"));
    compareBar->setMovable(false);
    compareBar->setFloatable(false);
    compareBar->addWidget(compareRun);
    compareBar->addWidget(new QLabel(QObject::tr(" at step "), q));
    compareBar->addWidget(alignStep);
    // Bookmarks with the bar that wraps to a second row when narrow (in the first, the run picker and the
    // search left no room at 1024 px: tst_pagelayout timelineCompareBarWraps).
    compareBar->addSeparator();
    compareBar->addWidget(bookmarkList);
    inner->addToolBar(compareBar);
    inner->installEventFilter(q);
    bar->installEventFilter(q); // its natural width grows with the search count's text
    viewA = new TimelineView(q);
    viewA->setObjectName(QStringLiteral("timelineView"));
    viewB = new TimelineView(q);
    viewB->setObjectName(QStringLiteral("compareView"));
    viewB->hide();
    auto* views = new QSplitter(Qt::Vertical, inner);
    views->addWidget(viewA);
    views->addWidget(viewB);
    // The dock never squeezes the events below kMinEventsHeight (QMainWindow keeps the central minimum).
    views->setMinimumHeight(TimelineView::kRulerHeight + TimelineView::kMinimapHeight +
                            TimelinePage::kMinEventsHeight);
    inner->setCentralWidget(views);
}

void TimelinePageImpl::createDetailsDock() {
    details = new QTextBrowser(q);
    details->setObjectName(QStringLiteral("details"));
    details->setOpenLinks(false);
    details->setPlaceholderText(
        QObject::tr("Click an event to see its details. Shift+drag selects a range."));
    rangeStats = new QTreeWidget(q);
    rangeStats->setObjectName(QStringLiteral("rangeStats"));
    rangeStats->setHeaderLabels({QObject::tr("Range"), QObject::tr("Time"), QObject::tr("Share")});
    rangeStats->header()->setStretchLastSection(false);
    rangeStats->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    rangeStats->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    rangeStats->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    rangeStats->setIndentation(12);
    auto* side = new QSplitter(Qt::Vertical, q);
    side->addWidget(details);
    side->addWidget(rangeStats);
    side->setChildrenCollapsible(false);
    detailsDock = new QDockWidget(QObject::tr("Details"), inner);
    detailsDock->setObjectName(QStringLiteral("timelineDetailsDock"));
    detailsDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    detailsDock->setWidget(side);
    inner->addDockWidget(Qt::RightDockWidgetArea, detailsDock);
    // Details above statistics in a side dock, beside them in a dock beneath the rows.
    QObject::connect(detailsDock, &QDockWidget::dockLocationChanged, side, [side](Qt::DockWidgetArea area) {
        side->setOrientation(area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea
                                 ? Qt::Vertical
                                 : Qt::Horizontal);
    });
    // A dock that opens gets its remembered (or compact) size once the layout has placed it.
    QObject::connect(detailsDock, &QDockWidget::visibilityChanged, q, [this](bool visible) {
        if (!visible) {
            detailsSized = detailsSizeKnown = false;
        } else if (!detailsSized) {
            detailsSized = true;
            QTimer::singleShot(0, q, [this]() { sizeDetails(); });
        }
    });
    // TimelinePage::eventFilter remembers the sizes the dock is given once it is placed.
    detailsDock->installEventFilter(q);
    QAction* toggle = detailsDock->toggleViewAction();
    toggle->setToolTip(QObject::tr("Show or hide the details of the selected event and range"));
    bar->addSeparator();
    bar->addAction(toggle);
}

void TimelinePageImpl::wrapToolBars() {
    // Size hints are the toolbars' natural widths, independent of the current layout: no oscillation.
    const bool fits = bar->sizeHint().width() + compareBar->sizeHint().width() <= inner->width();
    const bool wrapped = inner->toolBarBreak(compareBar);
    if (fits && wrapped)
        inner->removeToolBarBreak(compareBar);
    else if (!fits && !wrapped)
        inner->insertToolBarBreak(compareBar);
}

void TimelinePageImpl::openDetails() {
    detailsDock->show();
    detailsDock->raise();
}

namespace {
QString detailsSizeKey(Qt::DockWidgetArea area) {
    return area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea
               ? QStringLiteral("timeline/detailsDockWidth")
               : QStringLiteral("timeline/detailsDockHeight");
}
} // namespace

void TimelinePageImpl::sizeDetails() {
    if (!detailsDock->isVisible() || detailsDock->isFloating())
        return;
    const Qt::DockWidgetArea area = inner->dockWidgetArea(detailsDock);
    const bool side = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
    const int remembered = QSettings().value(detailsSizeKey(area), 0).toInt();
    if (side) {
        if (remembered > 0)
            inner->resizeDocks({detailsDock}, {remembered}, Qt::Horizontal);
        detailsSizeKnown = true;
        return;
    }
    const int compact = std::max(int(inner->height() * TimelinePage::kDetailsHeightShare),
                                 7 * details->fontMetrics().lineSpacing());
    inner->resizeDocks({detailsDock}, {remembered > 0 ? remembered : compact}, Qt::Vertical);
    detailsSizeKnown = true;
}

void TimelinePageImpl::rememberDetailsSize() {
    // Before sizeDetails() the dock has only its default size (its size hint).
    if (!detailsSizeKnown || !detailsDock->isVisible() || detailsDock->isFloating())
        return;
    const Qt::DockWidgetArea area = inner->dockWidgetArea(detailsDock);
    const bool side = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
    QSettings().setValue(detailsSizeKey(area), side ? detailsDock->width() : detailsDock->height());
}

void TimelinePageImpl::resetRunView() {
    viewA->clearSelection();
    viewB->clearSelection();
    viewA->setSearch(nullptr);
    viewB->setSearch(nullptr);
    details->clear();
    rangeStats->clear();
    detailsRef = {};
    shown = {};
    searchResult.reset();
    searchResultB.reset();
    searchPos = -1;
    searchCount->setText({});
    pendingJump.reset();
    clearCriticalPath();
}

bool TimelinePageImpl::compareFits() const {
    const TimelineModel* b = viewB->model();
    if (!b || !viewB->isVisible())
        return true; // not loaded yet: modelReady(runB) syncs it
    return viewB->axis().end() > b->runStart && viewB->axis().start() < b->runEnd;
}

void TimelinePageImpl::endCompare() {
    compareRun->setCurrentIndex(0); // "Compare with…"
    updateCompare();
}

void TimelinePageImpl::updateCompare() {
    const QVariant v = compareRun->currentData();
    runB = v.isValid() ? RunId(v.toLongLong()) : RunId();
    viewB->setVisible(runB != RunId());
    alignStep->setEnabled(runB != RunId());
    if (runB == RunId())
        return;
    if (model(runB))
        modelReady(runB);
    else
        load(runB);
}

void TimelinePageImpl::createCriticalPath() {
    pathPanel = new CriticalPathPanel(q);
    pathDock = new QDockWidget(QObject::tr("Critical path"), inner);
    pathDock->setObjectName(QStringLiteral("timelineCriticalPathDock"));
    pathDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    pathDock->setWidget(pathPanel);
    inner->addDockWidget(Qt::RightDockWidgetArea, pathDock);
    pathDock->hide();
    criticalPath = new QAction(QObject::tr("Critical Path"), q);
    criticalPath->setObjectName(QStringLiteral("timelineCriticalPath"));
    criticalPath->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    criticalPath->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    criticalPath->setToolTip(
        QObject::tr(
            "Show the critical path of the selected step (or the step in view) and rank: why it lasts "
            "what it lasts (%1)")
            .arg(criticalPath->shortcut().toString(QKeySequence::NativeText)));
    q->addAction(criticalPath); // the shortcut works wherever the focus is inside the page
    // First on the second toolbar: the first one has no room left at 1024 px (tst_pagelayout), and the
    // second takes a row of its own when narrow.
    QAction* first = compareBar->actions().isEmpty() ? nullptr : compareBar->actions().constFirst();
    compareBar->insertAction(first, criticalPath);
    compareBar->insertSeparator(first);
    QObject::connect(criticalPath, &QAction::triggered, q, [this]() { showCriticalPath(); });
    QObject::connect(pathPanel, &CriticalPathPanel::kindActivated, q,
                     [this](PathKind kind) { selectPathKind(kind); });
}

std::optional<TimelinePageImpl::PathTarget> TimelinePageImpl::pathTarget() const {
    const TimelineModel* m = viewA->model();
    if (!m || m->rows.empty())
        return std::nullopt;
    // The rank: the selection's, the range's, else the first row in view. The time: the selected event's
    // start, the range's, the cursor's when it is over the rows, else the middle of the view.
    const EventRef sel = viewA->selected();
    PathTarget t;
    Ns at = viewA->axis().start() + viewA->axis().span() / 2;
    const QPoint cursor = viewA->mapFromGlobal(QCursor::pos());
    if (sel.valid()) {
        t.rank = m->rows[sel.row].rank;
        at = m->rows[sel.row].lanes[sel.lane].start(sel.index);
    } else if (viewA->hasRange()) {
        t.rank = viewA->rangeRank();
        at = viewA->rangeStart();
    } else {
        const QRect area = viewA->rowsArea();
        const int row = viewA->rowAt(QPoint(area.left() + 1, area.top() + 1));
        t.rank = m->rows[row >= 0 ? static_cast<std::size_t>(row) : 0].rank;
        if (area.contains(cursor)) {
            t.rank = viewA->rowAt(cursor) >= 0 ? m->rows[static_cast<std::size_t>(viewA->rowAt(cursor))].rank
                                               : t.rank;
            at = viewA->axis().timeAt(cursor.x() - area.left());
        }
    }
    // The step holding that time on the rank, else the nearest one by its CPU span.
    const StepRange* best = nullptr;
    Ns bestDistance = 0;
    for (const StepRange& s : m->steps) {
        if (s.rank != t.rank)
            continue;
        const Ns distance = at < s.cpuStart ? s.cpuStart - at : (at >= s.cpuEnd ? at - s.cpuEnd + 1 : 0);
        if (!best || distance < bestDistance)
            best = &s, bestDistance = distance;
    }
    if (best)
        t.step = best->index;
    return t;
}

void TimelinePageImpl::showCriticalPath() {
    const auto target = pathTarget();
    if (!ws || !target) {
        pathPanel->setPath(nullptr, QObject::tr("Open a run on the timeline first."));
        openPathDock();
        return;
    }
    clearCriticalPath();
    const std::uint64_t ticket = pathTicket;
    const TimelineModel& m = *viewA->model();
    WindowChoice choice;
    choice.rank = target->rank;
    choice.step = target->step;
    const std::string path = ws->path(), run = m.runName;
    pathPanel->setPath(nullptr, target->step ? QObject::tr("Computing the critical path of rank %1, step %2…")
                                                   .arg(target->rank)
                                                   .arg(*target->step)
                                             : QObject::tr("Computing the critical path of rank %1 (whole "
                                                           "trace)…")
                                                   .arg(target->rank));
    openPathDock();
    const PathTarget asked = *target;
    runInBackground<CriticalPathReport>(
        q,
        [path, run, choice]() {
            const Workspace w(path, Workspace::Mode::ReadOnly);
            return computeCriticalPath(w, run, choice, true);
        },
        [this, ticket, asked](TaskOutcome<CriticalPathReport>& o) {
            if (ticket == pathTicket) // else the run changed, or a newer request is under way
                criticalPathReady(o, asked);
        });
}

namespace {
constexpr int kPathDockMinWidth = 440; // px of a side dock: kind, time, share and a readable name
} // namespace

void TimelinePageImpl::openPathDock() {
    const bool wasVisible = pathDock->isVisible();
    pathDock->show();
    pathDock->raise();
    if (wasVisible || pathDock->isFloating())
        return;
    // Beside the details in their area: the larger share of a side area (the details are often empty),
    // half of the area beneath the rows.
    QTimer::singleShot(0, q, [this]() {
        const Qt::DockWidgetArea area = inner->dockWidgetArea(pathDock);
        if (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) {
            inner->resizeDocks({pathDock}, {inner->height() * 3 / 5}, Qt::Vertical);
            if (pathDock->width() < kPathDockMinWidth) // room for the longest segments' names
                inner->resizeDocks({pathDock}, {kPathDockMinWidth}, Qt::Horizontal);
        } else if (detailsDock->isVisible()) {
            inner->resizeDocks({pathDock}, {inner->width() / 2}, Qt::Horizontal);
        }
    });
}

void TimelinePageImpl::criticalPathReady(TaskOutcome<CriticalPathReport>& o, const PathTarget& target) {
    if (!o.value || o.value->ranks.empty()) {
        pathPanel->setPath(nullptr,
                           QObject::tr("Cannot compute the critical path of rank %1: %2")
                               .arg(target.rank)
                               .arg(o.error.isEmpty() ? QObject::tr("no window to build it from") : o.error));
        emit q->criticalPathFinished(false);
        return;
    }
    pathReport = std::make_shared<const CriticalPathReport>(std::move(*o.value));
    const std::shared_ptr<const RankCriticalPath> rank(pathReport, &pathReport->ranks.front());
    viewA->setCriticalPath(rank);
    QStringList notes;
    for (const std::string& n : pathReport->notes)
        notes << QString::fromStdString(n);
    pathPanel->setPath(rank.get(), {}, notes);
    viewA->scrollToRank(RankId(target.rank));
    emit q->criticalPathFinished(true);
}

void TimelinePageImpl::selectPathKind(PathKind kind) {
    const CriticalPathMarks& marks = viewA->criticalPathMarks();
    const int i = marks.longestOf(kind);
    if (i < 0 || !viewA->model())
        return;
    const PathMark& mark = marks.marks()[static_cast<std::size_t>(i)];
    const Ns context = jumpContext(mark.start, mark.end);
    viewA->zoomTo(mark.start - context, mark.end + context);
    if (mark.row >= 0)
        viewA->scrollToRow(mark.row);
    if (mark.event.valid()) {
        viewA->setSelected(mark.event);
        showDetails(viewA, mark.event);
    } else if (mark.end > mark.start) { // untraced CPU time: the segment as the range
        viewA->clearSelection();
        viewA->setRange(marks.rank(), mark.start, mark.end);
        showRange(viewA, marks.rank(), mark.start, mark.end);
    }
    sync(viewA, viewB);
}

void TimelinePageImpl::clearCriticalPath() {
    ++pathTicket;
    pathReport.reset();
    viewA->setCriticalPath(nullptr);
    pathPanel->setPath(nullptr);
}

TimelinePage::TimelinePage(QWidget* parent) : QWidget(parent), d_(std::make_unique<TimelinePageImpl>()) {
    auto* d = d_.get();
    d->q = this;
    d->createControls();
    d->createViews();
    d->createDetailsDock();
    d->createCriticalPath();
    d->eventFetch = new EventFetchController(this);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(d->inner, 1);
    auto* status = new QHBoxLayout;
    status->addWidget(d->runLabel, 1);
    auto* help = new ElidedLabel(
        tr("Wheel: zoom at cursor · drag: pan · W/S zoom · A/D pan · Shift+drag: range · "
           "double-click: zoom to event · F: fit selection · ←/→: previous/next event · "
           "Alt+←/→: back/forward · Ctrl+B: bookmark · E/C: expand/collapse all · Esc: clear"),
        this);
    help->setForegroundRole(QPalette::PlaceholderText);
    status->addWidget(help, 2);
    lay->addLayout(status);
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(d->search, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(d->regex, &QCheckBox::toggled, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [d]() { d->runSearch(); });
    auto step = [d](bool forward) {
        if (!d->searchResult)
            d->runSearch();
        if (!d->searchResult || d->searchResult->count() == 0)
            return;
        const Ns ref = d->searchPos >= 0
                           ? d->searchResult->hit(d->searchPos).start
                           : d->viewA->axis().start() + (forward ? -1 : d->viewA->axis().span());
        d->gotoHit(forward ? d->searchResult->nextAfter(ref) : d->searchResult->previousBefore(ref));
    };
    connect(d->next, &QToolButton::clicked, this, [step]() { step(true); });
    connect(d->prev, &QToolButton::clicked, this, [step]() { step(false); });
    connect(d->search, &QLineEdit::returnPressed, this,
            [step]() { step(!(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)); });
    connect(d->viewA->navigator(), &TimelineNavigator::historyChanged, this,
            [d]() { d->updateHistoryActions(); });
    connect(d->fit, &QAction::triggered, this, [d]() {
        d->viewA->fitAll();
        d->sync(d->viewA, d->viewB);
    });
    for (TimelineView* v : {d->viewA, d->viewB}) {
        TimelineView* other = v == d->viewA ? d->viewB : d->viewA;
        connect(v, &TimelineView::axisChanged, this, [d, v, other]() { d->sync(v, other); });
        connect(v, &TimelineView::selectionChanged, this,
                [d, v](const EventRef& r) { d->showDetails(v, r); });
        connect(v, &TimelineView::selectionCleared, this, [d]() {
            d->details->clear();
            d->rangeStats->clear();
        });
        connect(v, &TimelineView::rangeSelected, this,
                [d, v](std::int32_t rank, Ns s, Ns e) { d->showRange(v, rank, s, e); });
    }
    connect(d->details, &QTextBrowser::anchorClicked, this, [d](const QUrl& u) {
        if (u.toString() == QLatin1String("cnp:link"))
            d->followLink();
        else if (u.toString() == QLatin1String("cnp:fetch-events") && d->ws && d->fetchRun != RunId())
            d->eventFetch->fetch(d->ws->path(), d->fetchRun);
    });
    connect(d->eventFetch, &EventFetchController::progress, this, [d](const QString& m) {
        d->details->setHtml(QStringLiteral("<p><b>Fetching the events from the cluster…</b></p><p>%1</p>")
                                .arg(m.toHtmlEscaped()));
    });
    connect(d->eventFetch, &EventFetchController::finished, this, [d](RunId run, const QString& error) {
        if (!error.isEmpty()) {
            d->details->setHtml(QStringLiteral("<p><b>The events were not fetched:</b> %1</p>"
                                               "<p><a href=\"cnp:fetch-events\">Try again</a></p>")
                                    .arg(error.toHtmlEscaped()));
            return;
        }
        d->details->clear();
        d->cache.erase(run);
        if (run == d->runA || run == d->runB)
            d->load(run);
    });
    connect(d->runPicker, qOverload<int>(&QComboBox::activated), this, [this, d]() {
        const QVariant id = d->runPicker->currentData();
        if (id.isValid())
            emit runPicked(RunId(id.toLongLong()));
    });
    connect(d->compareRun, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [d]() { d->updateCompare(); });
    connect(d->alignStep, qOverload<int>(&QSpinBox::valueChanged), this,
            [d]() { d->sync(d->viewA, d->viewB); });
}

TimelinePage::~TimelinePage() {
    for (auto& [run, flag] : d_->loading)
        flag->store(true);
    // The children outlive d_ (QWidget deletes them later): nothing of theirs may reach d_ then.
    d_->detailsDock->removeEventFilter(this);
    QObject::disconnect(d_->detailsDock, nullptr, this, nullptr);
}

void TimelinePage::setWorkspace(std::shared_ptr<const cnp::Workspace> ws) {
    for (auto& [run, flag] : d_->loading)
        flag->store(true);
    d_->loading.clear();
    d_->cache.clear();
    d_->ws = std::move(ws);
    d_->runA = d_->runB = d_->bookmarksRun = RunId();
    d_->resetRunView();
    d_->viewA->setModel(nullptr);
    d_->viewB->setModel(nullptr);
    // The status line never names a run of the workspace closed (issue 32.9).
    d_->runLabel->setFullText(d_->ws ? tr("No run selected") : tr("No workspace open"));
    d_->computePriority = CategoryRules::defaults().computePriority();
    try {
        if (d_->ws)
            d_->computePriority = categoryRulesOf(*d_->ws).computePriority();
    } catch (const std::exception& e) { // the defaults; the page still shows the runs
        emit readFailed(tr("Cannot read the workspace's category rules (%1); the timeline uses the defaults.")
                            .arg(QString::fromUtf8(e.what())));
    }
    d_->runsRetried = false;
    refreshRuns();
    d_->viewB->hide();
}

void TimelinePage::refreshRuns() {
    // A read of the GUI thread's connection can fail (issue 32.2: "not an SQLite database" right after an
    // ingest committed, thrown out of this slot, ended the application): the lists stay as they are, the
    // read is tried once more after a pause, and a second failure is said in readFailed().
    std::vector<RunRecord> runs;
    try {
        if (d_->ws)
            runs = d_->ws->runs();
    } catch (const std::exception& e) {
        if (!std::exchange(d_->runsRetried, true)) {
            const std::shared_ptr<const Workspace> ws = d_->ws;
            QTimer::singleShot(kReadRetryMs, this, [this, ws]() {
                if (ws == d_->ws)
                    refreshRuns();
            });
        } else {
            d_->runsRetried = false;
            emit readFailed(tr("Cannot read the runs of the workspace (%1); the timeline's run lists are as "
                               "they were.")
                                .arg(QString::fromUtf8(e.what())));
        }
        return;
    }
    d_->runsRetried = false;
    const QSignalBlocker blockCompare(d_->compareRun), blockPicker(d_->runPicker);
    const QVariant keepCompare = d_->compareRun->currentData();
    d_->compareRun->clear();
    d_->runPicker->clear();
    d_->compareRun->addItem(tr("Compare with…"));
    for (const RunRecord& r : runs) {
        d_->compareRun->addItem(QString::fromStdString(r.info.name), static_cast<qlonglong>(r.id.value()));
        d_->runPicker->addItem(QString::fromStdString(r.info.name), static_cast<qlonglong>(r.id.value()));
    }
    d_->runPicker->setCurrentIndex(d_->runPicker->findData(static_cast<qlonglong>(d_->runA.value())));
    const int compare = keepCompare.isValid() ? d_->compareRun->findData(keepCompare) : -1;
    d_->compareRun->setCurrentIndex(std::max(0, compare));
    if (compare < 0 && d_->runB != RunId())
        d_->updateCompare(); // the compared run is gone
}

void TimelinePage::addBookmark(Ns time, const QString& label) {
    auto marks = d_->viewA->bookmarks();
    marks.push_back({time, label.toStdString()});
    d_->bookmarksChanged(std::move(marks));
}

void TimelinePage::removeBookmarks() {
    d_->bookmarksChanged({});
}

void TimelinePage::jumpToBookmark(int index) {
    const auto& marks = d_->viewA->bookmarks();
    if (index < 0 || index >= int(marks.size()))
        return;
    d_->viewA->showTime(marks[size_t(index)].time);
}

QAction* TimelinePage::addBookmarkAction() const {
    return d_->addBookmark;
}

QToolButton* TimelinePage::bookmarkButton() const {
    return d_->bookmarkList;
}

void TimelinePage::focusSearch() {
    d_->search->setFocus(Qt::ShortcutFocusReason);
    d_->search->selectAll();
}

void TimelinePage::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (d_->dockPlaced)
        return;
    const bool wide = window()->width() >= kWideDetailsWidth;
    d_->inner->addDockWidget(wide ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea, d_->detailsDock);
    d_->detailsDock->setVisible(wide);
    d_->inner->addDockWidget(wide ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea, d_->pathDock);
    d_->pathDock->setVisible(d_->pathReport != nullptr);
    d_->dockPlaced = true;
}

bool TimelinePage::eventFilter(QObject* watched, QEvent* e) {
    if (watched == d_->detailsDock && e->type() == QEvent::Resize)
        d_->rememberDetailsSize();
    if ((watched == d_->inner && e->type() == QEvent::Resize) ||
        (watched == d_->bar && e->type() == QEvent::LayoutRequest))
        d_->wrapToolBars();
    return QWidget::eventFilter(watched, e);
}

void TimelinePage::showRun(RunId runId) {
    if (runId != d_->runA)
        d_->resetRunView();
    d_->runA = runId;
    {
        const QSignalBlocker block(d_->runPicker);
        d_->runPicker->setCurrentIndex(d_->runPicker->findData(static_cast<qlonglong>(runId.value())));
    }
    if (d_->model(runId))
        d_->modelReady(runId);
    else
        d_->load(runId);
}

void TimelinePage::jumpTo(RunId runId, RankId rank, cnp::Ns start, cnp::Ns end,
                          const std::vector<std::int32_t>& openRanks) {
    if (runId != d_->runA) {
        d_->resetRunView();
        d_->runA = runId;
    }
    d_->pendingJump = TimelinePageImpl::PendingJump{rank, start, end, openRanks};
    showRun(runId);
}

void TimelinePage::showComparison(RunId runA, RunId runB, const QString& eventName) {
    showRun(runA);
    d_->compareRun->setCurrentIndex(
        std::max(0, d_->compareRun->findData(static_cast<qlonglong>(runB.value()))));
    d_->regex->setChecked(true);
    d_->search->setText(QStringLiteral("^%1$").arg(QRegularExpression::escape(eventName)));
    d_->pendingSearchJump = true;
    d_->runSearch();
}

void TimelinePage::showCriticalPath() {
    d_->showCriticalPath();
}

CriticalPathPanel* TimelinePage::criticalPathPanel() const {
    return d_->pathPanel;
}

TimelineView* TimelinePage::view() const {
    return d_->viewA;
}
TimelineView* TimelinePage::compareView() const {
    return d_->viewB;
}

} // namespace cnp::wb
