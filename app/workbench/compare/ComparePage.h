#pragma once
// The Compare page: run A vs run B (defaults: a run of each of the last two configurations in plan
// order) through diffRuns(): kernel time per category side by side, a waterfall of the category deltas
// from A's total to B's, both runs' step times overlaid (one dot per step), and the kernel diff table
// (sortable; filter by class, category, name regex; exact or normalised name matching; numbers sort
// largest first). Double-clicking a diff row shows that kernel on the timeline, A above B.
#include "WorkbenchPage.h"
#include "requests/RunDiffRequest.h"

class QComboBox;
class QCheckBox;
class QLineEdit;
class QLabel;
class QTableView;

namespace cnp::wb {

class ChartView;
class KernelDiffModel;
class KernelFilterProxy;

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
    RunDiffResult result_;
    RunId resultA_, resultB_; // the runs result_ is of (RunId() while it is empty)
    quint64 request_ = 0;
};

} // namespace cnp::wb
