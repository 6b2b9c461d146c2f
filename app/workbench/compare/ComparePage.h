#pragma once
// The Compare page: run A vs run B (defaults: a run of each of the last two configurations in plan
// order) through diffRuns(): kernel time per category side by side, a waterfall of the category deltas
// from A's total to B's, both runs' step times overlaid (one dot per step), and the kernel diff table
// (sortable; filter by class, category, name regex; exact or normalised name matching; numbers sort
// largest first). Double-clicking a diff row shows that kernel on the timeline, A above B.
// "Diff this step" (button, the table's context menu, Ctrl+D) puts the step diff (StepDiffPanel) in the
// charts' place; the table and the diff's lanes select together: the table's current kernel is outlined in
// the lanes, and clicking an item in the lanes makes its kernel the table's current row.
#include "WorkbenchPage.h"
#include "requests/RunDiffRequest.h"

#include <optional>

class QComboBox;
class QCheckBox;
class QLineEdit;
class QLabel;
class QTableView;
class QStackedWidget;
class QAction;

namespace cnp::wb {

class ChartView;
class KernelDiffModel;
class KernelFilterProxy;
class StepDiffPanel;

class ComparePage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit ComparePage(WorkspaceSession* session, QWidget* parent = nullptr);
    // Picks run `a` as A and run `b` as B in the run boxes and compares them (a run the session does not
    // hold leaves its box as it was).
    void compare(RunId a, RunId b);
    void setNormalized(bool on);
    bool focusSearch() override;
    const RunDiffResult& result() const { return result_; }
    KernelDiffModel* model() const { return model_; }
    KernelFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    ChartView* categoryChart() const { return categoryChart_; }
    ChartView* waterfallChart() const { return waterfallChart_; }
    ChartView* stepChart() const { return stepChart_; }
    // Shows the step diff of `step` (nullopt: the median steps) of the current runs.
    void showStepDiff(std::optional<std::int32_t> step = std::nullopt);
    void showCharts();
    bool stepDiffShown() const;
    StepDiffPanel* stepDiff() const { return stepDiff_; }
    QAction* stepDiffAction() const { return stepDiffAction_; }

protected:
    void refresh() override;

private:
    void recompute();
    // Fills the run boxes from the session, keeping valid choices (else: the last two configurations).
    void fillRunBoxes();
    void draw();
    void drawCategories();
    void drawWaterfall();
    void drawSteps();
    void connectStepDiff();
    // The diff table's row of kernel `key` (exact or normalised name) made current; filters cleared first
    // when they hide it.
    void selectKernel(const QString& key);
    void diffCurrentStep();
    QComboBox* runA_;
    QComboBox* runB_;
    QCheckBox* normalize_;
    QComboBox* classBox_;
    QComboBox* categoryBox_;
    QLineEdit* search_;
    QLabel* summary_;
    ChartView* categoryChart_;
    ChartView* waterfallChart_;
    ChartView* stepChart_;
    QTableView* view_;
    KernelDiffModel* model_;
    KernelFilterProxy* proxy_;
    QStackedWidget* top_;
    StepDiffPanel* stepDiff_;
    QAction* stepDiffAction_;
    RunDiffResult result_;
    RunId resultA_, resultB_; // the runs result_ is of (RunId() while it is empty)
    quint64 request_ = 0;
    bool comparing_ = false; // a run diff is under way (the step diff's end then does not mark ready)
};

} // namespace cnp::wb
