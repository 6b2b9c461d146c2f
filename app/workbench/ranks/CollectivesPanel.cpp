#include "CollectivesPanel.h"

#include "ChartPalette.h"
#include "ChartView.h"
#include "CollectiveCallModel.h"
#include "CollectiveEfficiencyModel.h"
#include "UnitFormat.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace cnp::wb {

CollectivesPanel::CollectivesPanel(QWidget* parent)
    : QWidget(parent), status_(new QLabel), chart_(new ChartView), table_(new QTableView),
      model_(new CollectiveCallModel(this)), sort_(new QSortFilterProxyModel(this)),
      efficiencyStatus_(new QLabel), efficiencyTable_(new QTableView),
      efficiency_(new CollectiveEfficiencyModel(this)), efficiencySort_(new QSortFilterProxyModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    status_->setObjectName(QStringLiteral("collectivesStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);
    chart_->setObjectName(QStringLiteral("collectivesChart"));
    chart_->setMinimumHeight(190); // title, bars, the step axis and the legend below it
    sort_->setSourceModel(model_);
    sort_->setSortRole(CollectiveCallModel::SortRole);
    table_->setObjectName(QStringLiteral("collectivesTable"));
    table_->setModel(sort_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CollectiveCallModel::WaitColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // The operation's name whole ("reduce_scatter"); the header sizes it from at most its first 1,000 rows.
    table_->horizontalHeader()->setSectionResizeMode(CollectiveCallModel::OperationColumn,
                                                     QHeaderView::ResizeToContents);
    efficiencySort_->setSourceModel(efficiency_);
    efficiencySort_->setSortRole(CollectiveEfficiencyModel::SortRole);
    efficiencyTable_->setObjectName(QStringLiteral("collectivesEfficiencyTable"));
    efficiencyTable_->setModel(efficiencySort_);
    efficiencyTable_->setSortingEnabled(true);
    efficiencyTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    efficiencyTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    efficiencyTable_->verticalHeader()->setVisible(false);
    // A few rows (operations x size buckets): every column as wide as its contents, none cut or wrapped:
    // in a narrow window a scroll bar (a stretched last section would be squeezed below its contents
    // instead: "Of peak" was cut at 1024 px).
    efficiencyTable_->setWordWrap(false);
    efficiencyTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    efficiencyTable_->horizontalHeader()->setStretchLastSection(false);
    efficiencyTable_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Its header, three rows and that scroll bar stay in view however the splitter is dragged.
    efficiencyTable_->setMinimumHeight(efficiencyTable_->horizontalHeader()->sizeHint().height() +
                                       3 * efficiencyTable_->verticalHeader()->defaultSectionSize() +
                                       efficiencyTable_->horizontalScrollBar()->sizeHint().height() + 4);
    efficiencyStatus_->setObjectName(QStringLiteral("collectivesEfficiencyStatus"));
    efficiencyStatus_->setWordWrap(true);
    auto* efficiencyBox = new QWidget;
    auto* efficiencyLayout = new QVBoxLayout(efficiencyBox);
    efficiencyLayout->setContentsMargins(0, 0, 0, 0);
    efficiencyLayout->addWidget(efficiencyStatus_);
    efficiencyLayout->addWidget(efficiencyTable_, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chart_);
    split->addWidget(efficiencyBox);
    split->addWidget(table_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 3);
    split->setSizes({300, 170, 330}); // scaled to the height the splitter gets
    layout->addWidget(split, 1);
    connect(table_, &QTableView::clicked, this, &CollectivesPanel::openRow);
    // Enter opens the current row as a click does (as the Steps heatmap's; issue 32.6).
    for (const QKeySequence& key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto* enter = new QShortcut(key, table_);
        enter->setContext(Qt::WidgetShortcut);
        connect(enter, &QShortcut::activated, this, [this]() { openRow(table_->currentIndex()); });
    }
}

QString CollectivesPanel::statusText() const {
    return status_->text();
}

void CollectivesPanel::setMatch(const CollectiveMatch* match, const ClockAlignment& clocks,
                                const QString& why, bool clocksStored,
                                const std::vector<std::uint8_t>& lastRankUncertain) {
    if (!match || match->calls.empty()) {
        model_->setMatch({});
        drawSteps({});
        status_->setText(why.isEmpty() ? tr("No collectives matched in this run.") : why);
        return;
    }
    model_->setMatch(*match, lastRankUncertain);
    drawSteps(collectiveStepTotals(*match));
    const QString how =
        match->callsByGroup == 0
            ? tr("matched by the order of communication kernels on each stream (no process group or "
                 "message size stored: bytes and bandwidth unknown)")
            : tr("%1 matched by process group and order in it (the trace's NCCL arguments)")
                  .arg(UnitFormat::integer(match->callsByGroup));
    QString text = tr("%1 collective calls across %2 ranks · %3 · click: timeline")
                       .arg(UnitFormat::integer(static_cast<std::int64_t>(match->calls.size())))
                       .arg(match->ranks)
                       .arg(how);
    if (clocks.hosts.size() > 1)
        text += tr(" · clocks aligned to ±%1 across %2 hosts (±%3 with each host's offset and drift removed; "
                   "%4)")
                    .arg(UnitFormat::duration(double(clocks.storedErrorNs)))
                    .arg(clocks.hosts.size())
                    .arg(UnitFormat::duration(double(clocks.fittedErrorNs)))
                    .arg(clocksStored ? tr("fitted at ingest") : tr("fitted on opening"));
    if (const auto n = std::count(lastRankUncertain.begin(), lastRankUncertain.end(), std::uint8_t(1)); n > 0)
        text += tr(" · last rank marked ? at %1 calls: another host's rank arrived within that error")
                    .arg(UnitFormat::integer(static_cast<std::int64_t>(n)));
    if (match->unmatchedKernels > 0)
        text += tr(" · %1 kernels unmatched").arg(UnitFormat::integer(match->unmatchedKernels));
    status_->setText(text);
}

void CollectivesPanel::setEfficiency(const std::vector<CollectiveEfficiencyRow>& rows, const FabricPeak& peak,
                                     const QString& source) {
    efficiency_->setRows(rows);
    efficiencyTable_->sortByColumn(-1, Qt::AscendingOrder); // the model's order: operation, then size
    if (rows.empty())
        efficiencyStatus_->setText(tr("Efficiency per operation and message size: no calls."));
    else if (source.isEmpty())
        efficiencyStatus_->setText(
            tr("Efficiency per operation and message size (exposed / overlapped: the "
               "ranks' communication outside / under their own compute; busbw: the "
               "median bus bandwidth, nccl-tests' definition); the fabric's peak is "
               "unknown: the plan's fabric gives it, or `cnp collectives --peak-gbps`."));
    else
        efficiencyStatus_->setText(tr("Efficiency per operation and message size (exposed / overlapped: the "
                                      "ranks' communication outside / under their own compute): median bus "
                                      "bandwidth against the fabric's peak (from the %1: intra-node %2 GB/s, "
                                      "inter-node %3 GB/s).")
                                       .arg(source)
                                       .arg(peak.intraNodeGBs, 0, 'f', 0)
                                       .arg(peak.interNodeGBs, 0, 'f', 0));
}

QString CollectivesPanel::efficiencyText() const {
    return efficiencyStatus_->text();
}

void CollectivesPanel::drawSteps(const std::vector<CollectiveStepTotals>& steps) {
    ChartView* c = chart_;
    c->clearChart();
    c->setTitle(tr("Collectives per step: wait and transfer, summed over the step's calls"));
    double top = 0;
    for (const auto& s : steps)
        top = std::max(top, double(s.waitNs + s.transferNs));
    const TimeScale scale = UnitFormat::scaleFor(top);
    auto* wait = new QCPBars(c->xAxis, c->yAxis);
    auto* transfer = new QCPBars(c->xAxis, c->yAxis);
    wait->setName(tr("wait"));
    transfer->setName(tr("transfer"));
    wait->setBrush(ChartPalette::categoryColor(QStringLiteral("idle")));
    transfer->setBrush(ChartPalette::categoryColor(QStringLiteral("communication")));
    wait->setPen(Qt::NoPen);
    transfer->setPen(Qt::NoPen);
    transfer->moveAbove(wait);
    QStringList waitTips, transferTips;
    for (const auto& s : steps) {
        wait->addData(s.step, double(s.waitNs) / scale.nsPerUnit);
        transfer->addData(s.step, double(s.transferNs) / scale.nsPerUnit);
        waitTips << tr("step %1: %2 calls, wait %3")
                        .arg(s.step)
                        .arg(s.calls)
                        .arg(UnitFormat::durationExact(s.waitNs));
        transferTips << tr("step %1: transfer %2").arg(s.step).arg(UnitFormat::durationExact(s.transferNs));
    }
    ChartView::setPointTooltips(wait, waitTips);
    ChartView::setPointTooltips(transfer, transferTips);
    c->xAxis->setLabel(tr("step"));
    c->yAxis->setLabel(scale.suffix);
    const double lastStep = steps.empty() ? 1.0 : double(steps.back().step);
    c->xAxis->setRange(-0.6, lastStep + 0.6);
    c->yAxis->setRange(0, top / scale.nsPerUnit * 1.08 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

void CollectivesPanel::openRow(const QModelIndex& index) {
    if (!index.isValid())
        return;
    const CollectiveCallRow& r = model_->row(sort_->mapToSource(index).row());
    emit callActivated(RankId(r.lastRank), r.ranks, r.firstArrival, r.lastDeparture);
}

} // namespace cnp::wb
