#pragma once
// The Run page's two-column table (field, value) of one run's metadata, in sections: run, system,
// sources, skipped events, environment (allow-listed variables only). Section rows carry IsSectionRole.
#include "store/Workspace.h"

#include "RowTableModel.h"

#include <QString>

#include <vector>

namespace cnp::wb {

// One line of the table: a field and its value, or a section title (in `field`).
struct RunMetadataRow {
    QString field, value;
    bool section = false;
};

class RunMetadataModel : public RowTableModel<RunMetadataRow> {
    Q_OBJECT
public:
    enum Role { IsSectionRole = Qt::UserRole + 1 };
    explicit RunMetadataModel(QObject* parent = nullptr);

    void setRun(const RunRecord& run);
    void clear();

    // The value of the first row whose field is `field` (tests); empty when absent.
    QString valueOf(const QString& field) const;

protected:
    QVariant extraData(const RunMetadataRow& row, int column, int role) const override;
};

} // namespace cnp::wb
