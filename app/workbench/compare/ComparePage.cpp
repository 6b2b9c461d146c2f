#include "ComparePage.h"

#include "BackgroundTask.h"
#include "ChartPalette.h"
#include "ChartView.h"
#include "DescendingFirstSort.h"
#include "KernelDiffModel.h"
#include "KernelFilterProxy.h"
#include "KernelNameDelegate.h"
#include "NameColumnSizer.h"
#include "RunPicker.h"
#include "StepDiffPanel.h"
#include "StepDiffView.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace cnp::wb {

ComparePage::ComparePage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), runA_(new QComboBox), runB_(new QComboBox),
      normalize_(new QCheckBox(tr("Normalised names"))), classBox_(new QComboBox),
      categoryBox_(new QComboBox), search_(new QLineEdit), summary_(new QLabel),
      categoryChart_(new ChartView), waterfallChart_(new ChartView), stepChart_(new ChartView),
      view_(new QTableView), model_(new KernelDiffModel(this)),
      proxy_(new KernelFilterProxy(KernelDiffModel::NameColumn, KernelDiffModel::CategoryColumn, this)),
      top_(new QStackedWidget), stepDiff_(new StepDiffPanel),
      stepDiffAction_(new QAction(tr("Diff This Step"), this)) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    for (QComboBox* box : {runA_, runB_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    top->addWidget(new QLabel(tr("Run A:")));
    top->addWidget(runA_);
    top->addWidget(new QLabel(tr("Run B:")));
    top->addWidget(runB_);
    normalize_->setToolTip(
        tr("Match kernels by normalised name (template arguments, hashes and numeric suffixes "
           "stripped) instead of the exact name"));
    top->addWidget(normalize_);
    summary_->setWordWrap(true);
    summary_->setMinimumWidth(80);
    top->addWidget(summary_, 1);
    stepDiffAction_->setObjectName(QStringLiteral("stepDiffAction"));
    stepDiffAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    stepDiffAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    stepDiffAction_->setToolTip(
        tr("Align the median step of A and B stream by stream: matched, added and removed "
           "GPU work and the cumulative time shift (%1)")
            .arg(stepDiffAction_->shortcut().toString(QKeySequence::NativeText)));
    addAction(stepDiffAction_);
    auto* diffButton = new QPushButton(tr("Diff this step"));
    diffButton->setObjectName(QStringLiteral("diffStepButton"));
    diffButton->setToolTip(stepDiffAction_->toolTip());
    connect(diffButton, &QPushButton::clicked, stepDiffAction_, &QAction::trigger);
    top->addWidget(diffButton);
    layout->addLayout(top);

    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(categoryChart_);
    charts->addWidget(waterfallChart_);
    charts->addWidget(stepChart_);
    charts->setChildrenCollapsible(false);
    charts->setMinimumHeight(330);

    auto* filters = new QHBoxLayout;
    classBox_->addItem(tr("All classes"), QString());
    for (const char* c : {"added", "removed", "faster", "slower", "unchanged"})
        classBox_->addItem(QString::fromLatin1(c), QString::fromLatin1(c));
    categoryBox_->addItem(tr("All categories"), QString());
    categoryBox_->setMinimumContentsLength(14);
    search_->setObjectName(QStringLiteral("diffSearch"));
    search_->setPlaceholderText(tr("Filter kernel names (regular expression)…"));
    search_->setClearButtonEnabled(true);
    filters->addWidget(new QLabel(tr("Kernel diff:")));
    filters->addWidget(classBox_);
    filters->addWidget(categoryBox_);
    filters->addWidget(search_, 1);
    auto* tableBox = new QWidget;
    auto* tl = new QVBoxLayout(tableBox);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addLayout(filters);
    tl->addWidget(view_);
    proxy_->setSourceModel(model_);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    sortNumbersDescendingFirst(view_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->verticalHeader()->hide();
    view_->setAlternatingRowColors(true);
    view_->setTextElideMode(Qt::ElideMiddle); // the names: KernelNameDelegate (tooltip: the full name)
    view_->setWordWrap(false);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    NameColumnSizer::install(view_, KernelDiffModel::NameColumn); // names keep >= 260 px, the rest scrolls
    view_->setItemDelegateForColumn(KernelDiffModel::NameColumn, new KernelNameDelegate(view_));

    top_->addWidget(charts);
    top_->addWidget(stepDiff_);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    view_->addAction(stepDiffAction_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top_);
    split->addWidget(tableBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    connect(runA_, &QComboBox::activated, this, &ComparePage::recompute);
    connect(runB_, &QComboBox::activated, this, &ComparePage::recompute);
    connect(normalize_, &QCheckBox::toggled, this, &ComparePage::recompute);
    connect(classBox_, &QComboBox::activated, this, [this]() {
        proxy_->setColumnFilter(KernelDiffModel::ClassColumn, classBox_->currentData().toString());
    });
    connect(categoryBox_, &QComboBox::activated, this,
            [this]() { proxy_->setCategory(categoryBox_->currentData().toString()); });
    connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) {
        const bool ok = proxy_->setNamePattern(t);
        search_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d63b3b"));
    });
    // activated: a double-click, or Enter on the current row (issue 32.6).
    connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) {
        const QString name = i.siblingAtColumn(KernelDiffModel::NameColumn).data(Qt::UserRole).toString();
        emit timelineCompareRequested(resultA_, resultB_, name);
    });
    connectStepDiff();
}

void ComparePage::connectStepDiff() {
    connect(stepDiffAction_, &QAction::triggered, this, [this]() { showStepDiff(stepDiff_->step()); });
    connect(stepDiff_, &StepDiffPanel::closeRequested, this, &ComparePage::showCharts);
    connect(stepDiff_, &StepDiffPanel::finished, this, [this]() {
        if (!comparing_)
            markReady();
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) {
                stepDiff_->view()->setHighlightedKey(
                    i.isValid() ? i.siblingAtColumn(KernelDiffModel::NameColumn).data(Qt::UserRole).toString()
                                : QString());
            });
    connect(stepDiff_->view(), &StepDiffView::itemActivated, this, &ComparePage::selectKernel);
}

void ComparePage::showStepDiff(std::optional<std::int32_t> step) {
    top_->setCurrentWidget(stepDiff_);
    stepDiff_->diff(session()->path(), currentRunId(runA_), currentRunId(runB_), normalize_->isChecked(),
                    step);
}

void ComparePage::showCharts() {
    top_->setCurrentWidget(top_->widget(0));
}

bool ComparePage::stepDiffShown() const {
    return top_->currentWidget() == stepDiff_;
}

void ComparePage::diffCurrentStep() {
    showStepDiff(stepDiff_->step());
}

void ComparePage::selectKernel(const QString& key) {
    auto find = [&]() {
        for (int r = 0; r < proxy_->rowCount(); ++r) {
            const QModelIndex i = proxy_->index(r, KernelDiffModel::NameColumn);
            if (i.data(Qt::UserRole).toString() == key)
                return i;
        }
        return QModelIndex();
    };
    QModelIndex at = find();
    if (!at.isValid()) {
        classBox_->setCurrentIndex(0);
        proxy_->setColumnFilter(KernelDiffModel::ClassColumn, QString());
        categoryBox_->setCurrentIndex(0);
        proxy_->setCategory(QString());
        search_->clear();
        at = find();
    }
    if (!at.isValid())
        return;
    view_->selectionModel()->setCurrentIndex(at,
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(at);
}

void ComparePage::compare(RunId a, RunId b) {
    if (!selectRunItem(runA_, a) || !selectRunItem(runB_, b)) {
        fillRunBoxes(); // asked before the page was first shown, or after the runs changed
        selectRunItem(runA_, a);
        selectRunItem(runB_, b);
    }
    recompute();
}

void ComparePage::setNormalized(bool on) {
    if (normalize_->isChecked() == on)
        recompute();
    else
        normalize_->setChecked(on); // toggled -> recompute
}

void ComparePage::refresh() {
    fillRunBoxes();
    recompute();
}

void ComparePage::fillRunBoxes() {
    const RunId keepA = currentRunId(runA_), keepB = currentRunId(runB_);
    const QSignalBlocker ba(runA_), bb(runB_);
    listRuns(runA_, session()->runs(), keepA);
    listRuns(runB_, session()->runs(), keepB);
    if (!session()->findRun(keepA) || !session()->findRun(keepB)) {
        // Defaults: the first run of each of the last two configurations in plan order.
        const QStringList configs = session()->configurations();
        const int runs = runA_->count();
        if (configs.size() >= 2) {
            selectRunItem(runA_, session()->firstRunOf(configs[configs.size() - 2])->id);
            selectRunItem(runB_, session()->firstRunOf(configs.back())->id);
        } else if (runs >= 2) {
            runA_->setCurrentIndex(runs - 2);
            runB_->setCurrentIndex(runs - 1);
        }
    }
}

void ComparePage::recompute() {
    const quint64 id = ++request_;
    const RunId a = currentRunId(runA_), b = currentRunId(runB_);
    if (!session()->findRun(a) || !session()->findRun(b)) {
        result_ = {};
        resultA_ = resultB_ = RunId();
        model_->setRows({});
        summary_->setText(session()->isOpen() ? tr("Needs two runs to compare.") : tr("No workspace open."));
        draw();
        markReady();
        return;
    }
    summary_->setText(tr("<i>comparing…</i>"));
    comparing_ = true;
    RunDiffOptions options;
    options.normalize = normalize_->isChecked();
    const std::string path = session()->path().toStdString();
    runInBackground<RunDiffResult>(
        this,
        [path, a, b, options]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return diffRuns(ws, a, b, options);
        },
        [this, id, a, b](TaskOutcome<RunDiffResult>& o) {
            if (id != request_)
                return;
            comparing_ = false;
            if (!o.value) {
                result_ = {};
                resultA_ = resultB_ = RunId();
                model_->setRows({});
                summary_->setText(tr("Cannot compare: %1").arg(o.error));
                draw();
                markReady();
                return;
            }
            result_ = std::move(*o.value);
            resultA_ = a;
            resultB_ = b;
            std::set<std::string> cats;
            for (const auto& r : result_.kernels)
                cats.insert(r.category);
            const QString keep = categoryBox_->currentData().toString();
            categoryBox_->clear();
            categoryBox_->addItem(tr("All categories"), QString());
            for (const auto& c : cats)
                categoryBox_->addItem(QString::fromStdString(c), QString::fromStdString(c));
            categoryBox_->setCurrentIndex(std::max(0, categoryBox_->findData(keep)));
            proxy_->setCategory(categoryBox_->currentData().toString());
            model_->setRows(result_.kernels);
            view_->sortByColumn(-1, Qt::AscendingOrder); // the analysis' order: |Δ| descending
            summary_->setText(
                tr("kernel time A %1 → B %2 · %3 added, %4 removed, %5 faster, %6 slower, %7 unchanged")
                    .arg(UnitFormat::duration(double(result_.totalA)),
                         UnitFormat::duration(double(result_.totalB)))
                    .arg(result_.added)
                    .arg(result_.removed)
                    .arg(result_.faster)
                    .arg(result_.slower)
                    .arg(result_.unchanged));
            draw();
            if (stepDiffShown())
                diffCurrentStep(); // ready when it is drawn
            else
                markReady();
        });
}

void ComparePage::draw() {
    drawCategories();
    drawWaterfall();
    drawSteps();
}

void ComparePage::drawCategories() {
    ChartView* c = categoryChart_;
    c->clearChart();
    c->setTitle(tr("Kernel time by category"));
    // Categories in the contract's stacking order first, then any others the analysis reports.
    QStringList cats;
    for (const QString& k : ChartPalette::categoryOrder())
        for (const auto& r : result_.categories)
            if (QString::fromStdString(r.category) == k)
                cats << k;
    for (const auto& r : result_.categories)
        if (!cats.contains(QString::fromStdString(r.category)))
            cats << QString::fromStdString(r.category);
    double maxNs = 0;
    for (const auto& r : result_.categories)
        maxNs = std::max<double>(maxNs, double(std::max(r.totalA, r.totalB)));
    const TimeScale s = UnitFormat::scaleFor(maxNs);
    auto* a = new QCPBars(c->yAxis, c->xAxis);
    auto* b = new QCPBars(c->yAxis, c->xAxis);
    a->setName(tr("A: %1").arg(QString::fromStdString(result_.runA)));
    b->setName(tr("B: %1").arg(QString::fromStdString(result_.runB)));
    a->setBrush(ChartPalette::runAColor());
    b->setBrush(ChartPalette::runBColor());
    a->setPen(Qt::NoPen);
    b->setPen(Qt::NoPen);
    a->setWidth(0.38);
    b->setWidth(0.38);
    QStringList tipsA, tipsB;
    for (int i = 0; i < cats.size(); ++i)
        for (const auto& r : result_.categories)
            if (QString::fromStdString(r.category) == cats[i]) {
                a->addData(i - 0.2, double(r.totalA) / s.nsPerUnit);
                b->addData(i + 0.2, double(r.totalB) / s.nsPerUnit);
                tipsA << tr("<b>%1</b> in A: %2").arg(cats[i], UnitFormat::durationExact(r.totalA));
                tipsB << tr("<b>%1</b> in B: %2 (Δ %3)")
                             .arg(cats[i], UnitFormat::durationExact(r.totalB),
                                  UnitFormat::durationExact(r.delta));
            }
    ChartView::setPointTooltips(a, tipsA);
    ChartView::setPointTooltips(b, tipsB);
    ChartView::setLabelTicks(c->yAxis, cats);
    c->yAxis->setTickLabelRotation(0);
    c->yAxis->setRangeReversed(true);
    c->xAxis->setLabel(tr("kernel time (%1)").arg(s.suffix));
    c->xAxis->setRange(0, maxNs / s.nsPerUnit * 1.08 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

void ComparePage::drawWaterfall() {
    ChartView* c = waterfallChart_;
    c->clearChart();
    c->setTitle(tr("Kernel time A → B by category"));
    const auto& cats = result_.categories; // by |Δ| descending
    double top = double(std::max(result_.totalA, result_.totalB));
    Ns running = result_.totalA;
    for (const auto& r : cats) {
        running += r.delta;
        top = std::max(top, double(running));
    }
    const TimeScale s = UnitFormat::scaleFor(top);
    auto* base = new QCPBars(c->yAxis, c->xAxis);
    base->setBrush(Qt::NoBrush);
    base->setPen(Qt::NoPen);
    base->removeFromLegend();
    auto* totals = new QCPBars(c->yAxis, c->xAxis);
    totals->setBrush(QColor(0x70, 0x80, 0x90));
    totals->setPen(Qt::NoPen);
    totals->setName(tr("total"));
    auto* up = new QCPBars(c->yAxis, c->xAxis);
    up->setBrush(ChartPalette::negativeDeltaColor());
    up->setPen(Qt::NoPen);
    up->setName(tr("more time in B"));
    auto* down = new QCPBars(c->yAxis, c->xAxis);
    down->setBrush(ChartPalette::positiveDeltaColor());
    down->setPen(Qt::NoPen);
    down->setName(tr("less time in B"));
    for (QCPBars* x : {base, totals, up, down})
        x->setWidth(0.6);
    up->moveAbove(base);
    down->moveAbove(base);
    QStringList labels{QStringLiteral("A")};
    QStringList upTips, downTips;
    totals->addData(0, double(result_.totalA) / s.nsPerUnit);
    Ns level = result_.totalA;
    int x = 1;
    for (const auto& r : cats) {
        if (r.delta == 0)
            continue;
        const Ns next = level + r.delta;
        base->addData(x, double(std::min(level, next)) / s.nsPerUnit);
        const QString tip = tr("<b>%1</b><br>A %2<br>B %3<br>Δ %4")
                                .arg(QString::fromStdString(r.category), UnitFormat::durationExact(r.totalA),
                                     UnitFormat::durationExact(r.totalB), UnitFormat::durationExact(r.delta));
        if (r.delta > 0) {
            up->addData(x, double(r.delta) / s.nsPerUnit);
            upTips << tip;
        } else {
            down->addData(x, double(-r.delta) / s.nsPerUnit);
            downTips << tip;
        }
        labels << QString::fromStdString(r.category);
        level = next;
        ++x;
    }
    totals->addData(x, double(result_.totalB) / s.nsPerUnit);
    labels << QStringLiteral("B");
    ChartView::setPointTooltips(
        totals, {tr("A total kernel time %1").arg(UnitFormat::durationExact(result_.totalA)),
                 tr("B total kernel time %1").arg(UnitFormat::durationExact(result_.totalB))});
    ChartView::setPointTooltips(up, upTips);
    ChartView::setPointTooltips(down, downTips);
    // Horizontal, A at the top: the category labels get a third of the chart's width on the left
    // instead of a ninth of its width each under the bars (issue 15.2: they elided to "…" at 1280 px).
    ChartView::setLabelTicks(c->yAxis, labels);
    c->yAxis->setRangeReversed(true);
    c->xAxis->setLabel(tr("kernel time (%1)").arg(s.suffix));
    c->xAxis->setRange(0, top / s.nsPerUnit * 1.08 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

void ComparePage::drawSteps() {
    ChartView* c = stepChart_;
    c->clearChart();
    c->setTitle(tr("Step times (box plot + each step)"));
    double maxNs = 0;
    for (Ns v : result_.stepTimesA)
        maxNs = std::max<double>(maxNs, double(v));
    for (Ns v : result_.stepTimesB)
        maxNs = std::max<double>(maxNs, double(v));
    const TimeScale s = UnitFormat::scaleFor(maxNs);
    auto addRun = [&](const std::vector<Ns>& steps, double y, const QColor& color, const QString& name) {
        // The box summary comes from the analysis (RunDiffResult::stepsA/B); horizontal: key axis = y.
        const StepDistribution& d = y > 0.5 ? result_.stepsA : result_.stepsB;
        if (d.count > 0) {
            auto* box = new QCPStatisticalBox(c->yAxis, c->xAxis);
            box->setWidth(0.5);
            QColor fill = color;
            fill.setAlpha(70);
            box->setBrush(fill);
            box->setPen(QPen(color, 1.5));
            box->setMedianPen(QPen(color.darker(140), 2.5));
            box->addData(y, d.minNs / s.nsPerUnit, d.q1Ns / s.nsPerUnit, d.medianNs / s.nsPerUnit,
                         d.q3Ns / s.nsPerUnit, d.maxNs / s.nsPerUnit);
            box->removeFromLegend();
        }
        QCPGraph* g = c->addGraph(c->xAxis, c->yAxis);
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 9));
        QStringList tips;
        std::vector<std::pair<double, int>> sorted;
        for (size_t i = 0; i < steps.size(); ++i)
            sorted.push_back({double(steps[i]) / s.nsPerUnit, int(i)});
        std::sort(sorted.begin(), sorted.end());
        for (const auto& [v, i] : sorted) {
            g->addData(v, y);
            tips << tr("%1 step %2: %3").arg(name).arg(i).arg(UnitFormat::durationExact(steps[size_t(i)]));
        }
        ChartView::setPointTooltips(g, tips);
    };
    addRun(result_.stepTimesA, 1, ChartPalette::runAColor(),
           tr("A: %1").arg(QString::fromStdString(result_.runA)));
    addRun(result_.stepTimesB, 0, ChartPalette::runBColor(),
           tr("B: %1").arg(QString::fromStdString(result_.runB)));
    ChartView::setLabelTicks(c->yAxis, {QStringLiteral("B"), QStringLiteral("A")});
    c->yAxis->setRange(-0.6, 1.6);
    c->xAxis->setLabel(tr("step time (%1)").arg(s.suffix));
    c->xAxis->setRange(0, maxNs / s.nsPerUnit * 1.1 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

bool ComparePage::focusSearch() {
    search_->setFocus(Qt::ShortcutFocusReason);
    search_->selectAll();
    return true;
}

} // namespace cnp::wb
