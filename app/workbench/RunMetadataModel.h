#pragma once
// The Run page's two-column table (field, value) of one run's metadata, in sections: run, system,
// sources, skipped events, environment (allow-listed variables only). Section rows carry IsSectionRole.
#include "store/Workspace.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace cnp::wb {

class RunMetadataModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { IsSectionRole = Qt::UserRole + 1 };
    explicit RunMetadataModel(QObject* parent = nullptr);

    void setRun(const RunRecord& run);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The value of the first row whose field is `field` (tests); empty when absent.
    QString valueOf(const QString& field) const;

private:
    struct Row {
        QString field, value;
        bool section = false;
    };
    std::vector<Row> rows_;
};

} // namespace cnp::wb
