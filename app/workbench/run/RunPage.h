#pragma once
// The Run page: one run's metadata (RunMetadataModel), its ranks with clock offset/skew
// (RankTableModel), the environment checks and the run's orphan GPU work (work launched before the
// capture began, the figures of `cnp stats`), and for a run of several hosts how well their clocks agree
// (metrics/ClockAligner.h: the fit stored at ingest, requests/ClockAlignmentRequest.h; for a workspace
// ingested before, computed on opening from the run's collectives in the background: O(the communication
// kernels)). Follows the run selected in the workspace dock.
#include "WorkbenchPage.h"
#include "metrics/ClockAligner.h"
#include "metrics/OrphanTotals.h"
#include "requests/InsightsRequest.h"

#include <QStringList>

#include <optional>
#include <vector>

class QComboBox;
class QTableView;
class QLabel;

namespace cnp::wb {

class RunMetadataModel;
class RankTableModel;

class RunPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit RunPage(WorkspaceSession* session, QWidget* parent = nullptr);
    void setSelectedRun(RunId runId) override;
    // The run shown; RunId() when none.
    RunId currentRun() const;
    RunMetadataModel* metadataModel() const { return metadata_; }
    RankTableModel* rankModel() const { return ranks_; }
    // The orphan-work line as shown (rich text; empty until the worker has answered).
    QString orphanText() const;
    // The checks as shown (rich text): the notes, environment checks and the clocks' agreement.
    QString checksText() const;

protected:
    void refresh() override;

private:
    struct RunChecks {
        std::vector<Insight> insights;
        std::optional<OrphanTotals> orphans; // nullopt: the run has no summaries
        ClockAlignment clocks;               // no hosts: a run of one host, or no collectives matched
        bool clocksStored = false;           // the fit stored at ingest (else fitted on opening)
    };
    void showRun(RunId runId);
    void showChecks(const QStringList& notes, const RunChecks& checks);
    QComboBox* runBox_;
    QLabel* title_;
    QLabel* checks_;
    QLabel* orphans_;
    RunMetadataModel* metadata_;
    RankTableModel* ranks_;
    QTableView* metadataView_;
    QTableView* rankView_;
    RunId wanted_; // the run chosen here or in the dock (RunId(): none yet)
    quint64 checksRequest_ = 0;
};

} // namespace cnp::wb
