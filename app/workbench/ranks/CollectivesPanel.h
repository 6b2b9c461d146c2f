#pragma once
// The Ranks page's Collectives tab (docs/metrics.md, "Collectives"): the collective calls of a run matched
// across ranks, as a per-step chart (each step's summed wait beneath its summed transfer) and a sortable
// table of every call; clicking a call asks for the timeline over the call's extent, from its first
// arrival to its last departure, so every rank's lane shows its part side by side.
#include "core/Ids.h"
#include "metrics/ClockAligner.h"
#include "metrics/CollectiveMatcher.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace cnp::wb {

class ChartView;
class CollectiveCallModel;

class CollectivesPanel : public QWidget {
    Q_OBJECT
public:
    explicit CollectivesPanel(QWidget* parent = nullptr);

    // Shows `match` and how well its hosts' clocks agree (nullptr: nothing, with `why` as the status line).
    void setMatch(const CollectiveMatch* match, const ClockAlignment& clocks = {}, const QString& why = {});
    CollectiveCallModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ChartView* chart() const { return chart_; }
    QString statusText() const;

signals:
    // The call at a clicked row: its last-arriving rank and its extent (absolute ns).
    void callActivated(cnp::RankId lastRank, qint64 start, qint64 end);

private:
    void drawSteps(const std::vector<CollectiveStepTotals>& steps);
    void openRow(const QModelIndex& index);

    QLabel* status_;
    ChartView* chart_;
    QTableView* table_;
    CollectiveCallModel* model_;
    QSortFilterProxyModel* sort_;
};

} // namespace cnp::wb
