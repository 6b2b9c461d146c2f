#include "timeline/TimelinePage.h"

#include "BackgroundTask.h"
#include "UnitFormat.h"
#include "metrics/CategoryRules.h"
#include "store/Workspace.h"
#include "timeline/EventDetails.h"
#include "timeline/RangeStatistics.h"
#include "timeline/TimelineLoader.h"
#include "timeline/TimelineOverview.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineSearch.h"
#include "timeline/TimelineView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <atomic>
#include <map>

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
    std::shared_ptr<cnp::Workspace> ws;
    std::vector<std::string> computePriority;
    std::map<std::int64_t, std::shared_ptr<const TimelineModel>> cache; // loaded runs
    std::map<std::int64_t, std::shared_ptr<std::atomic<bool>>> loading; // run -> cancel flag
    std::int64_t runA = -1, runB = -1;
    struct PendingJump {
        std::int32_t rank;
        Ns start, end;
    };
    std::optional<PendingJump> pendingJump;

    TimelineView* viewA = nullptr;
    TimelineView* viewB = nullptr;
    QLabel* runLabel = nullptr;
    QLineEdit* search = nullptr;
    QCheckBox* regex = nullptr;
    QLabel* searchCount = nullptr;
    QComboBox* compareRun = nullptr;
    QSpinBox* alignStep = nullptr;
    QTextBrowser* details = nullptr;
    QTreeWidget* rangeStats = nullptr;
    std::shared_ptr<const TimelineSearch> searchResult;
    std::int64_t searchPos = -1;
    EventRef detailsRef;
    EventDetails shown;
    bool syncing = false;

    std::shared_ptr<const TimelineModel> model(std::int64_t run) const {
        const auto it = cache.find(run);
        return it == cache.end() ? nullptr : it->second;
    }
    void load(std::int64_t run);
    void modelReady(std::int64_t run);
    void runSearch();
    void gotoHit(std::int64_t k);
    void showDetails(TimelineView* v, const EventRef& ref);
    void followLink();
    void showRange(TimelineView* v, std::int32_t rank, Ns s, Ns e);
    void updateCompare();
    Ns alignTime(const TimelineModel& m) const;
    void sync(TimelineView* from, TimelineView* to);
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

void TimelinePageImpl::load(std::int64_t run) {
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
        [path, run, cancel, guard, view]() {
            ProgressSink sink;
            sink.cancel = cancel.get();
            sink.progress = [guard, view](double f) {
                QMetaObject::invokeMethod(
                    guard.data(),
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
                    guard.data(),
                    [guard, view, shared]() {
                        if (guard && !view->model())
                            view->setModel(shared);
                    },
                    Qt::QueuedConnection);
            }
            auto full = std::make_shared<const TimelineModel>(loadTimeline(ws, run, sink));
            if (!hasOverview(ws, run)) {
                try { // cache the overview for the next opening; a read-only file just skips it
                    Workspace rw(path, Workspace::Mode::ReadWrite);
                    storeOverview(rw, makeOverview(*full));
                } catch (const std::exception&) {
                }
            }
            return std::shared_ptr<const TimelineModel>(full);
        },
        [this, run](TaskOutcome<std::shared_ptr<const TimelineModel>>& o) {
            loading.erase(run);
            if (o.value) {
                cache[run] = *o.value;
                modelReady(run);
            } else {
                TimelineView* v = run == runB ? viewB : viewA;
                v->setLoadingProgress(-1);
                if (!o.cancelled)
                    details->setHtml(QStringLiteral("<p><b>Could not load the timeline:</b> %1</p>")
                                         .arg(o.error.toHtmlEscaped()));
            }
        });
}

void TimelinePageImpl::modelReady(std::int64_t run) {
    if (run == runA) {
        auto m = model(run);
        viewA->setLoadingProgress(-1);
        if (viewA->model() != m.get()) {
            viewA->setModel(m);
            runLabel->setText(QStringLiteral("<b>%1</b> · %2 events · %3 rows")
                                  .arg(html(m->runName))
                                  .arg(QLocale().toString(static_cast<qlonglong>(m->eventCount())))
                                  .arg(m->rows.size()));
            if (!search->text().isEmpty())
                runSearch();
        }
        if (pendingJump) {
            viewA->zoomTo(pendingJump->start, pendingJump->end);
            viewA->scrollToRank(pendingJump->rank);
            pendingJump.reset();
            sync(viewA, viewB);
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
        return;
    }
    auto s = std::make_shared<TimelineSearch>(*m, search->text().toStdString(), regex->isChecked());
    if (!s->error().empty()) {
        searchCount->setText(QString::fromStdString(s->error()).toHtmlEscaped());
        viewA->setSearch(nullptr);
        searchResult.reset();
        return;
    }
    searchResult = s;
    viewA->setSearch(s);
    searchCount->setText(
        QObject::tr("%1 matches").arg(QLocale().toString(static_cast<qulonglong>(s->count()))));
}

void TimelinePageImpl::gotoHit(std::int64_t k) {
    if (!searchResult || k < 0 || k >= static_cast<std::int64_t>(searchResult->count()))
        return;
    searchPos = k;
    const SearchHit& h = searchResult->hit(static_cast<std::size_t>(k));
    const auto m = model(runA);
    const EventTrack& tr = m->rows[h.row].lanes[h.lane];
    const EventRef ref{h.row, h.lane, h.index};
    TimeAxis ax = viewA->axis();
    const Ns s = tr.start(h.index), e = tr.effectiveEnd(h.index);
    if (e - s > ax.span() / 2)
        viewA->zoomTo(s, e);
    else if (s < ax.start() || e > ax.end()) {
        ax.setWindow(s - ax.span() / 2, s + ax.span() / 2);
        viewA->setAxis(ax);
    }
    viewA->scrollToRow(h.row);
    viewA->setSelected(ref);
    searchCount->setText(QObject::tr("%1 / %2 matches")
                             .arg(k + 1)
                             .arg(QLocale().toString(static_cast<qulonglong>(searchResult->count()))));
    showDetails(viewA, ref);
    sync(viewA, viewB);
}

void TimelinePageImpl::showDetails(TimelineView* v, const EventRef& ref) {
    if (!ref.valid() || !v->model() || !ws) {
        details->clear();
        return;
    }
    const TimelineModel& m = *v->model();
    detailsRef = ref;
    shown = lookupEventDetails(*ws, m, ref);
    const EventDetails& d = shown;
    QString h = QStringLiteral("<h3 style='margin:0'>%1</h3><table cellspacing=2>").arg(html(d.name));
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
    TimeAxis ax = viewA->axis();
    if (lo < ax.start() || hi > ax.end())
        viewA->zoomTo(lo, hi);
    viewA->scrollToRow(to.row);
    const EventRef keepFlowFrom = fromIsCpu ? from : to, keepFlowTo = fromIsCpu ? to : from;
    showDetails(viewA, to);
    viewA->setFlow(keepFlowFrom, keepFlowTo);
    sync(viewA, viewB);
}

void TimelinePageImpl::showRange(TimelineView* v, std::int32_t rank, Ns s, Ns e) {
    rangeStats->clear();
    if (!v->model())
        return;
    const RangeStatistics r = computeRangeStatistics(*v->model(), rank, {s, e}, computePriority);
    const WindowBreakdown& b = r.breakdown;
    auto pct = [&](Ns x) {
        return UnitFormat::percent(b.length() ? static_cast<double>(x) / b.length() : 0.0);
    };
    auto* head = new QTreeWidgetItem(rangeStats, {QObject::tr("Rank %1 · %2").arg(rank).arg(dur(b.length())),
                                                  dur(b.length()), QStringLiteral("100 %")});
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

void TimelinePageImpl::updateCompare() {
    const QVariant v = compareRun->currentData();
    runB = v.isValid() ? v.toLongLong() : -1;
    viewB->setVisible(runB >= 0);
    alignStep->setEnabled(runB >= 0);
    if (runB < 0)
        return;
    if (model(runB))
        modelReady(runB);
    else
        load(runB);
}

TimelinePage::TimelinePage(QWidget* parent) : QWidget(parent), d_(std::make_unique<TimelinePageImpl>()) {
    auto* d = d_.get();
    d->q = this;
    auto* top = new QHBoxLayout;
    d->runLabel = new QLabel(tr("No run selected"), this);
    d->search = new QLineEdit(this);
    d->search->setObjectName(QStringLiteral("searchEdit"));
    d->search->setPlaceholderText(tr("Search event names…"));
    d->search->setClearButtonEnabled(true);
    d->regex = new QCheckBox(tr("Regex"), this);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("◀"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("▶"));
    next->setToolTip(tr("Next match (Enter)"));
    d->searchCount = new QLabel(this);
    d->searchCount->setObjectName(QStringLiteral("searchCount"));
    d->compareRun = new QComboBox(this);
    d->compareRun->setObjectName(QStringLiteral("compareRun"));
    d->alignStep = new QSpinBox(this);
    d->alignStep->setObjectName(QStringLiteral("alignStep"));
    d->alignStep->setRange(0, 100000);
    d->alignStep->setEnabled(false);
    d->alignStep->setToolTip(
        tr("Both runs are aligned at the start of this step: its number (ProfilerStep#3 is step 3; steps "
           "without numbers in their names count from 0)"));
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show the whole run (F fits the selection)"));
    top->addWidget(d->runLabel);
    top->addStretch(1);
    top->addWidget(d->search, 2);
    top->addWidget(d->regex);
    top->addWidget(prev);
    top->addWidget(next);
    top->addWidget(d->searchCount);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Compare with"), this));
    top->addWidget(d->compareRun);
    top->addWidget(new QLabel(tr("align at step"), this));
    top->addWidget(d->alignStep);
    top->addWidget(fit);

    d->viewA = new TimelineView(this);
    d->viewA->setObjectName(QStringLiteral("timelineView"));
    d->viewB = new TimelineView(this);
    d->viewB->setObjectName(QStringLiteral("compareView"));
    d->viewB->hide();
    auto* views = new QSplitter(Qt::Vertical, this);
    views->addWidget(d->viewA);
    views->addWidget(d->viewB);

    d->details = new QTextBrowser(this);
    d->details->setObjectName(QStringLiteral("details"));
    d->details->setOpenLinks(false);
    d->details->setPlaceholderText(tr("Click an event to see its details. Shift+drag selects a range."));
    d->rangeStats = new QTreeWidget(this);
    d->rangeStats->setObjectName(QStringLiteral("rangeStats"));
    d->rangeStats->setHeaderLabels({tr("Range"), tr("Time"), tr("Share")});
    d->rangeStats->header()->setStretchLastSection(false);
    d->rangeStats->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    d->rangeStats->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    d->rangeStats->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    d->rangeStats->setIndentation(12);
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(d->details);
    side->addWidget(d->rangeStats);
    auto* main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(views);
    main->addWidget(side);
    main->setStretchFactor(0, 4);
    main->setStretchFactor(1, 1);
    main->setSizes({3000, 1250}); // proportions: the rows get most of the width
    side->setMinimumWidth(330);
    auto* help = new QLabel(tr("Wheel: zoom at cursor · drag: pan · W/S zoom · A/D pan · Shift+drag: range · "
                               "double-click: zoom to event · F: fit selection · Esc: clear"),
                            this);
    help->setStyleSheet(QStringLiteral("color: palette(mid)"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addLayout(top);
    lay->addWidget(main, 1);
    lay->addWidget(help);

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
    connect(next, &QToolButton::clicked, this, [step]() { step(true); });
    connect(prev, &QToolButton::clicked, this, [step]() { step(false); });
    connect(d->search, &QLineEdit::returnPressed, this,
            [step]() { step(!(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)); });
    connect(fit, &QPushButton::clicked, this, [d]() {
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
    });
    connect(d->compareRun, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [d]() { d->updateCompare(); });
    connect(d->alignStep, qOverload<int>(&QSpinBox::valueChanged), this,
            [d]() { d->sync(d->viewA, d->viewB); });
}

TimelinePage::~TimelinePage() {
    for (auto& [run, flag] : d_->loading)
        flag->store(true);
}

void TimelinePage::setWorkspace(std::shared_ptr<cnp::Workspace> ws) {
    for (auto& [run, flag] : d_->loading)
        flag->store(true);
    d_->loading.clear();
    d_->cache.clear();
    d_->ws = std::move(ws);
    d_->runA = d_->runB = -1;
    d_->viewA->setModel(nullptr);
    d_->viewB->setModel(nullptr);
    d_->computePriority = d_->ws ? CategoryRules::forWorkspace(*d_->ws).computePriority()
                                 : CategoryRules::defaults().computePriority();
    const QSignalBlocker block(d_->compareRun);
    d_->compareRun->clear();
    d_->compareRun->addItem(tr("— none —"));
    if (d_->ws)
        for (const RunRecord& r : d_->ws->runs())
            d_->compareRun->addItem(QString::fromStdString(r.info.name), static_cast<qlonglong>(r.id));
    d_->viewB->hide();
}

void TimelinePage::showRun(std::int64_t runId) {
    d_->runA = runId;
    if (d_->model(runId))
        d_->modelReady(runId);
    else
        d_->load(runId);
}

void TimelinePage::jumpTo(std::int64_t runId, std::int32_t rank, cnp::Ns start, cnp::Ns end) {
    d_->pendingJump = TimelinePageImpl::PendingJump{rank, start, end};
    showRun(runId);
}

TimelineView* TimelinePage::view() const {
    return d_->viewA;
}
TimelineView* TimelinePage::compareView() const {
    return d_->viewB;
}

} // namespace cnp::wb
