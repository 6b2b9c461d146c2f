#pragma once
// The Ranks page's Collectives tab (docs/metrics.md, "Collectives"): the collective calls of a run matched
// across ranks, as a per-step chart (each step's summed wait beneath its summed transfer) and a sortable
// table of every call, and the calls' efficiency per operation and message size against the fabric's
// peak; clicking a call (or Enter) asks for the timeline over the call's extent, from its first arrival to
// its last departure, with its members' lanes open side by side.
#include "core/Ids.h"
#include "metrics/ClockAligner.h"
#include "metrics/CollectiveEfficiency.h"
#include "metrics/CollectiveMatcher.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace cnp::wb {

class ChartView;
class CollectiveCallModel;
class CollectiveEfficiencyModel;

class CollectivesPanel : public QWidget {
    Q_OBJECT
public:
    explicit CollectivesPanel(QWidget* parent = nullptr);

    // Shows `match` and how well its hosts' clocks agree (nullptr: nothing, with `why` as the status line).
    // `clocksStored`: the clock fit is the one stored at ingest (else fitted when the page was opened);
    // `lastRankUncertain`: per call, its last rank not claimed across hosts (CollectiveCallModel).
    void setMatch(const CollectiveMatch* match, const ClockAlignment& clocks = {}, const QString& why = {},
                  bool clocksStored = false, const std::vector<std::uint8_t>& lastRankUncertain = {});
    // The calls' efficiency per operation and message size against the fabric's peak (`source`: "plan",
    // or empty when the peak is unknown).
    void setEfficiency(const std::vector<CollectiveEfficiencyRow>& rows, const FabricPeak& peak,
                       const QString& source);
    CollectiveEfficiencyModel* efficiencyModel() const { return efficiency_; }
    QTableView* efficiencyTable() const { return efficiencyTable_; }
    QString efficiencyText() const;
    CollectiveCallModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ChartView* chart() const { return chart_; }
    QString statusText() const;

signals:
    // The call at a clicked row (or the current row on Enter): its last-arriving rank, its members' ranks
    // and its extent (absolute ns).
    void callActivated(cnp::RankId lastRank, const QList<qint32>& ranks, qint64 start, qint64 end);

private:
    void drawSteps(const std::vector<CollectiveStepTotals>& steps);
    void openRow(const QModelIndex& index);

    QLabel* status_;
    ChartView* chart_;
    QTableView* table_;
    CollectiveCallModel* model_;
    QSortFilterProxyModel* sort_;
    QLabel* efficiencyStatus_;
    QTableView* efficiencyTable_;
    CollectiveEfficiencyModel* efficiency_;
    QSortFilterProxyModel* efficiencySort_;
};

} // namespace cnp::wb
