#pragma once
// The Run page: one run's metadata (RunMetadataModel), its ranks with clock offset/skew
// (RankTableModel) and the environment checks. Follows the run selected in the workspace dock.
#include "WorkbenchPage.h"

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
    void setSelectedRun(const QString& runName) override;
    QString currentRun() const;
    RunMetadataModel* metadataModel() const { return metadata_; }
    RankTableModel* rankModel() const { return ranks_; }

protected:
    void refresh() override;

private:
    void showRun(const QString& name);
    QComboBox* runBox_;
    QLabel* title_;
    QLabel* checks_;
    RunMetadataModel* metadata_;
    RankTableModel* ranks_;
    QTableView* metadataView_;
    QTableView* rankView_;
    QString wanted_;
    quint64 checksRequest_ = 0;
};

} // namespace cnp::wb
