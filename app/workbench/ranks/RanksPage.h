#pragma once
// The Ranks page (cluster runs): a rank x step heatmap of one figure (step time, compute, exposed
// communication or idle; selectable) with each step's straggler marked, and per-rank summary bars.
// Sorting the summary by any column reorders the heatmap's rows the same way; clicking a cell shows that
// rank and step on the timeline. Figures come from the analysis core (computeRankStepGrid over the step
// summaries), read on a worker thread. Scrolls at cluster size (128 ranks x 50 steps: fixed small cells,
// clipped header labels).
#include "WorkbenchPage.h"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace cnp::wb {

class RankHeatmapModel;
class RankSummaryModel;

class RanksPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit RanksPage(WorkspaceSession* session, QWidget* parent = nullptr);
    void setSelectedRun(RunId runId) override;
    RankHeatmapModel* heatmapModel() const { return heatmap_; }
    RankSummaryModel* summaryModel() const { return summary_; }
    QTableView* heatmapView() const { return heatmapView_; }
    QComboBox* figureBox() const { return figureBox_; }
    // The colour scale's upper end with the spread: "1.33 s · spread 2.3 %" (issue 32.10).
    QString legendHighText() const;

protected:
    void refresh() override;

private:
    void load();
    void followSummaryOrder();
    void updateLegend(); // the colour scale's ends: the figure's min and max over the grid, and the spread
    static QString spreadText(double lo, double hi); // (hi - lo) / lo as a percentage
    void openCell(const QModelIndex& index);

    QComboBox* runBox_;
    QComboBox* figureBox_;
    QLabel* status_;
    QTableView* heatmapView_;
    QTableView* summaryView_;
    RankHeatmapModel* heatmap_;
    RankSummaryModel* summary_;
    QSortFilterProxyModel* summarySort_;
    QLabel* legendLow_;
    QLabel* legendHigh_;
    RunId wanted_; // the run chosen here or in the dock (RunId(): none yet)
    quint64 request_ = 0;
};

} // namespace cnp::wb
