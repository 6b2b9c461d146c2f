#include "RanksPage.h"

#include "BackgroundTask.h"
#include "CollectivesPanel.h"
#include "RankHeatmapModel.h"
#include "RankSummaryModel.h"
#include "RunPicker.h"
#include "SummaryBarDelegate.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"

#include "metrics/MultiRankSteps.h"
#include "metrics/StragglerEvidence.h"
#include "requests/WorkspaceCategories.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace cnp::wb {
namespace {

constexpr int kCellWidth = 22, kCellHeight = 16; // px: 128 ranks x 50 steps scroll, labels never overlap

void setUpHeatmapView(QTableView* v) {
    v->setObjectName(QStringLiteral("rankHeatmap"));
    v->setSelectionMode(QAbstractItemView::SingleSelection);
    v->setEditTriggers(QAbstractItemView::NoEditTriggers);
    v->setShowGrid(false);
    v->setWordWrap(false);
    // Stretch: a small grid fills the view; a large one stops at the minimum cell size and scrolls.
    for (QHeaderView* h : {v->horizontalHeader(), v->verticalHeader()}) {
        h->setSectionResizeMode(QHeaderView::Stretch);
        h->setHighlightSections(true);
        QFont f = h->font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        h->setFont(f);
    }
    v->horizontalHeader()->setDefaultSectionSize(kCellWidth);
    v->horizontalHeader()->setMinimumSectionSize(kCellWidth);
    v->verticalHeader()->setDefaultSectionSize(kCellHeight);
    v->verticalHeader()->setMinimumSectionSize(kCellHeight);
}

// What the page reads on its worker thread: the rank x step grid, and the collectives with their
// stragglers (absent, with the reason, when they cannot be read).
struct RanksData {
    RankStepGrid grid;
    std::optional<StragglersResult> stragglers;
    QString stragglersError;
};

} // namespace

RanksPage::RanksPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), runBox_(new QComboBox), figureBox_(new QComboBox), status_(new QLabel),
      heatmapView_(new QTableView), summaryView_(new QTableView), heatmap_(new RankHeatmapModel(this)),
      summary_(new RankSummaryModel(this)), summarySort_(new QSortFilterProxyModel(this)),
      legendLow_(new QLabel), legendHigh_(new QLabel), evidence_(new QLabel), tabs_(new QTabWidget),
      collectives_(new CollectivesPanel) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    runBox_->setMinimumContentsLength(16);
    top->addWidget(runBox_);
    top->addWidget(new QLabel(tr("Figure:")));
    for (std::size_t f = 0; f < kRankStepFigureCount; ++f)
        figureBox_->addItem(QString::fromLatin1(toString(RankStepFigure(f))), int(f));
    figureBox_->setObjectName(QStringLiteral("rankFigure"));
    top->addWidget(figureBox_);
    legendLow_->setObjectName(QStringLiteral("heatLow"));
    legendHigh_->setObjectName(QStringLiteral("heatHigh"));
    auto* gradient = new QLabel;
    gradient->setFixedSize(90, 12);
    gradient->setStyleSheet(
        QStringLiteral("background: qlineargradient(x1:0, y1:0, x2:1, y2:0, stop:0 %1, stop:1 %2);"
                       " border: 1px solid palette(mid);")
            .arg(RankHeatmapModel::heat(0).name(), RankHeatmapModel::heat(1).name()));
    top->addWidget(legendLow_);
    top->addWidget(gradient);
    top->addWidget(legendHigh_);
    top->addStretch(1);
    layout->addLayout(top);
    // Its own line beneath the controls, wrapped: the "● straggler" key was cut off beside them.
    status_->setObjectName(QStringLiteral("ranksStatus"));
    status_->setTextFormat(Qt::RichText); // the straggler key's dot in its colour
    status_->setWordWrap(true);
    layout->addWidget(status_);

    setUpHeatmapView(heatmapView_);
    heatmapView_->setModel(heatmap_);
    summarySort_->setSourceModel(summary_);
    summarySort_->setSortRole(RankSummaryModel::SortRole);
    summaryView_->setObjectName(QStringLiteral("rankSummary"));
    summaryView_->setModel(summarySort_);
    summaryView_->setSortingEnabled(true);
    summaryView_->sortByColumn(RankSummaryModel::RankColumn, Qt::AscendingOrder);
    summaryView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    summaryView_->verticalHeader()->setVisible(false);
    summaryView_->verticalHeader()->setDefaultSectionSize(kCellHeight + 4);
    summaryView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    summaryView_->setItemDelegate(
        new SummaryBarDelegate(RankSummaryModel::BarRole, QColor(0x9e, 0xca, 0xe1), summaryView_));

    evidence_->setObjectName(QStringLiteral("rankEvidence"));
    evidence_->setWordWrap(true);
    evidence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    evidence_->setText(tr("Click a rank in the table for its straggler evidence."));
    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(summaryView_, 1);
    lowerLayout->addWidget(evidence_);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(heatmapView_);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    tabs_->setObjectName(QStringLiteral("ranksTabs"));
    tabs_->addTab(split, tr("Steps"));
    tabs_->addTab(collectives_, tr("Collectives"));
    layout->addWidget(tabs_, 1);
    connect(summaryView_, &QTableView::clicked, this, &RanksPage::showEvidence);
    connect(collectives_, &CollectivesPanel::callActivated, this,
            [this](RankId rank, const QList<qint32>& ranks, qint64 start, qint64 end) {
                emit timelineCallJumpRequested(currentRunId(runBox_), rank, ranks, start, end);
            });

    connect(runBox_, &QComboBox::activated, this, [this]() {
        wanted_ = currentRunId(runBox_);
        load();
    });
    connect(figureBox_, &QComboBox::currentIndexChanged, this, [this]() {
        heatmap_->setFigure(RankStepFigure(figureBox_->currentData().toInt()));
        updateLegend();
    });
    connect(summarySort_, &QSortFilterProxyModel::layoutChanged, this, &RanksPage::followSummaryOrder);
    connect(heatmapView_, &QTableView::clicked, this, &RanksPage::openCell);
    // Enter opens the current cell as a click does (issue 32.6); a shortcut, not `activated`, which a
    // double-click emits too (the cell would open twice).
    for (const QKeySequence& key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto* enter = new QShortcut(key, heatmapView_);
        enter->setContext(Qt::WidgetShortcut);
        connect(enter, &QShortcut::activated, this, [this]() { openCell(heatmapView_->currentIndex()); });
    }
}

void RanksPage::setSelectedRun(RunId runId) {
    if (pickWantedRun(runBox_, wanted_, runId) && isVisible())
        load();
}

void RanksPage::refresh() {
    // Multi-rank runs first: the page is for clusters, single-rank runs still show one row.
    std::vector<RunRecord> runs = session()->runs();
    std::stable_partition(runs.begin(), runs.end(), [](const RunRecord& r) { return r.rankCount > 1; });
    listRuns(runBox_, runs, wanted_);
    load();
}

void RanksPage::load() {
    const quint64 id = ++request_;
    const RunRecord* run = session()->findRun(currentRunId(runBox_));
    if (!run) {
        heatmap_->setGrid({});
        summary_->setGrid({});
        status_->setText(session()->isOpen() ? tr("No runs in this workspace.") : tr("No workspace open."));
        markReady();
        return;
    }
    status_->setText(tr("Loading…"));
    runInBackground<RanksData>(
        this,
        [path = session()->path().toStdString(), runId = run->id]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            RanksData d;
            d.grid = computeRankStepGrid(summaryReaderOf(ws, runId).steps());
            try {
                d.stragglers = computeStragglers(ws, runId);
            } catch (const std::exception& e) {
                d.stragglersError = QString::fromStdString(e.what());
            }
            return d;
        },
        [this, id](TaskOutcome<RanksData>& o) {
            if (id != request_)
                return;
            stragglers_.reset();
            evidence_->setText(tr("Click a rank in the table for its straggler evidence."));
            if (!o.value) {
                heatmap_->setGrid({});
                summary_->setGrid({});
                collectives_->setMatch(nullptr);
                collectives_->setEfficiency({}, {}, {});
                status_->setText(tr("Cannot read the run's steps: %1").arg(o.error.toHtmlEscaped()));
                markReady();
                return;
            }
            stragglers_ = std::move(o.value->stragglers);
            collectives_->setMatch(
                stragglers_ ? &stragglers_->match : nullptr,
                stragglers_ ? stragglers_->clocks : ClockAlignment{},
                o.value->stragglersError.isEmpty()
                    ? QString()
                    : tr("Cannot match the run's collectives: %1").arg(o.value->stragglersError),
                stragglers_ && stragglers_->clocksStored,
                stragglers_ ? stragglers_->lastRankUncertainByCall : std::vector<std::uint8_t>{});
            collectives_->setEfficiency(
                stragglers_ ? stragglers_->efficiency : std::vector<CollectiveEfficiencyRow>{},
                stragglers_ ? stragglers_->fabric : FabricPeak{},
                stragglers_ ? QString::fromStdString(stragglers_->fabricSource) : QString());
            summary_->setGrid(o.value->grid);
            heatmap_->setGrid(std::move(o.value->grid));
            followSummaryOrder();
            updateLegend();
            const auto& g = heatmap_->grid();
            status_->setText(tr("%1 ranks × %2 steps · <span style=\"color:%3\">●</span> straggler: most "
                                "compute (the others wait for it) · click: timeline")
                                 .arg(g.ranks.size())
                                 .arg(g.steps.size())
                                 .arg(RankHeatmapModel::stragglerColor().name()));
            status_->setToolTip(
                tr("● marks each step's straggler: the rank with the most compute, which the "
                   "others wait for. Click a cell to open the timeline at that rank and step; "
                   "sort the table below to reorder the rows, click a rank for why it is late."));
            markReady();
        });
}

QString RanksPage::evidenceText() const {
    return evidence_->text();
}

void RanksPage::showEvidence(const QModelIndex& summaryIndex) {
    if (!summaryIndex.isValid())
        return;
    const auto& g = heatmap_->grid();
    const auto rankIndex =
        summarySort_->index(summaryIndex.row(), 0).data(RankSummaryModel::RankIndexRole).toULongLong();
    if (rankIndex >= g.ranks.size())
        return;
    const std::int32_t rank = g.ranks[rankIndex];
    if (!stragglers_ || stragglers_->report.calls == 0) {
        evidence_->setText(tr("Rank %1: no collectives matched in this run.").arg(rank));
        return;
    }
    for (const auto& s : stragglers_->report.ranks)
        if (s.rank == rank) {
            QStringList lines;
            for (const auto& line : stragglerEvidenceLines(s))
                lines << QString::fromStdString(line);
            evidence_->setText(lines.join(QStringLiteral("\n    ")));
            return;
        }
    evidence_->setText(tr("Rank %1 took part in no matched collective.").arg(rank));
}

void RanksPage::updateLegend() {
    const double lo = static_cast<double>(heatmap_->minValue()),
                 hi = static_cast<double>(heatmap_->maxValue());
    legendLow_->setText(UnitFormat::duration(lo));
    // The scale spans the grid's own range, so a 2 % spread looks as dark as a 2x one: the spread is
    // said beside it (issue 32.10).
    legendHigh_->setText(lo > 0 ? tr("%1 · spread %2").arg(UnitFormat::duration(hi), spreadText(lo, hi))
                                : UnitFormat::duration(hi));
    legendHigh_->setToolTip(tr("The colours span the lowest to the highest cell; the highest is %1 above the "
                               "lowest")
                                .arg(lo > 0 ? spreadText(lo, hi) : UnitFormat::duration(hi - lo)));
}

QString RanksPage::legendHighText() const {
    return legendHigh_->text();
}

QString RanksPage::spreadText(double lo, double hi) {
    return UnitFormat::percent(lo > 0 ? (hi - lo) / lo : 0.0);
}

void RanksPage::followSummaryOrder() {
    std::vector<std::size_t> order;
    for (int row = 0; row < summarySort_->rowCount(); ++row)
        order.push_back(summarySort_->index(row, 0).data(RankSummaryModel::RankIndexRole).toULongLong());
    heatmap_->setRowOrder(std::move(order));
}

void RanksPage::openCell(const QModelIndex& index) {
    if (!index.isValid())
        return;
    const auto& g = heatmap_->grid();
    const std::size_t rank = heatmap_->rankIndexAt(index.row());
    const std::size_t cell = rank * g.steps.size() + static_cast<std::size_t>(index.column());
    emit timelineJumpRequested(currentRunId(runBox_), RankId(g.ranks[rank]), g.windowStart[cell],
                               g.windowEnd[cell]);
}

} // namespace cnp::wb
