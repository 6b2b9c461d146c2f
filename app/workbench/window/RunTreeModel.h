#pragma once
// The workspace dock's tree: configurations (plan order) -> their runs. Columns: name, ranks, source
// format, synthetic/real. Tooltips carry the run's metadata. Rebuilt wholesale on setRuns() (model
// reset): a workspace holds tens of runs, not thousands.
#include "store/Workspace.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <vector>

namespace cnp::wb {

class RunTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn = 0, RanksColumn, FormatColumn, KindColumn, ColumnCount };
    // RunIdRole: the run's id (qlonglong; invalid on a configuration row).
    enum Role { RunIdRole = Qt::UserRole + 1, ConfigRole, IsConfigRole };

    explicit RunTreeModel(QObject* parent = nullptr);

    // `runs` must be in plan order (as Workspace::runs() returns them); `plan` (Workspace::planOrder())
    // keys the configuration swatches.
    void setRuns(const std::vector<RunRecord>& runs, const std::vector<std::string>& plan);
    // Index of the run with `runId` (column 0); invalid when absent.
    QModelIndex indexOfRun(RunId runId) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    // The tooltip text of one run (also used by the Run page's header).
    static QString runTooltip(const RunRecord& run);

private:
    std::vector<std::string> plan_;
    struct ConfigNode {
        QString label;
        std::vector<RunRecord> runs;
    };
    // Top-level rows carry internalId 0; run rows carry (config row + 1).
    std::vector<ConfigNode> configs_;
};

} // namespace cnp::wb
