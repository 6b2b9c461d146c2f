#pragma once
// The Ranks page (cluster runs): a rank x step heatmap of one figure (step time, compute, exposed
// communication or idle; selectable) with each step's straggler marked, and per-rank summary bars.
// Sorting the summary by any column reorders the heatmap's rows the same way; clicking a cell shows that
// rank and step on the timeline. Figures come from the analysis core (computeRankStepGrid over the step
// summaries), read on a worker thread. Scrolls at cluster size (128 ranks x 50 steps: fixed small cells,
// clipped header labels). Clicking a rank in the summary shows its straggler evidence (how often it arrived
// last at a collective, and why: metrics/StragglerScorer.h); the Collectives tab lists every collective call
// matched across ranks (CollectivesPanel).
#include "WorkbenchPage.h"

#include "requests/CollectivesRequest.h"

#include <optional>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace cnp::wb {

class CollectivesPanel;
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
    QTableView* summaryView() const { return summaryView_; }
    CollectivesPanel* collectivesPanel() const { return collectives_; }
    QTabWidget* tabs() const { return tabs_; }
    // The straggler evidence shown for the rank clicked in the summary (empty before a click).
    QString evidenceText() const;
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
    void showEvidence(const QModelIndex& summaryIndex);

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
    QLabel* evidence_;
    QTabWidget* tabs_;
    CollectivesPanel* collectives_;
    std::optional<StragglersResult> stragglers_; // of the run shown; nullopt when it could not be read
    RunId wanted_;                               // the run chosen here or in the dock (RunId(): none yet)
    quint64 request_ = 0;
};

} // namespace cnp::wb
