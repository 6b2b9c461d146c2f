#pragma once
// The Insights page: computeInsights() for one run (worker thread), most severe first, with the
// selected finding's explanation and evidence; double-clicking evidence with a time range shows it on
// the timeline.
#include "WorkbenchPage.h"

class QComboBox;
class QTreeView;
class QTextBrowser;
class QLabel;

namespace cnp::wb {

class InsightsModel;

class InsightsPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit InsightsPage(WorkspaceSession* session, QWidget* parent = nullptr);
    void setSelectedRun(RunId runId) override;
    InsightsModel* model() const { return model_; }
    QTreeView* view() const { return view_; }

protected:
    void refresh() override;

private:
    void load();
    void showDetails();
    QComboBox* runBox_;
    QLabel* status_;
    QTreeView* view_;
    QTextBrowser* details_;
    InsightsModel* model_;
    RunId wanted_; // the run chosen here or in the dock (RunId(): none yet)
    quint64 request_ = 0;
};

} // namespace cnp::wb
