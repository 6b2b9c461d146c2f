#pragma once
// Asked when trace files or folders are dropped on the window (or chosen with File -> Import): the run
// name and the configuration label. The configuration box offers the workspace's existing labels.
#include "ingest/IngestPipeline.h"

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QDialogButtonBox;

namespace cnp::wb {

class IngestRequestDialog : public QDialog {
    Q_OBJECT
public:
    IngestRequestDialog(const QStringList& paths, const QStringList& existingConfigs,
                        const QStringList& existingRuns, QWidget* parent = nullptr);
    IngestRequest request() const;
    // A run name derived from the first path (file name without trace extensions).
    static QString suggestedRunName(const QStringList& paths);

private:
    void validate();
    QStringList paths_;
    QStringList existingRuns_;
    QLineEdit* runName_;
    QComboBox* config_;
    QDialogButtonBox* buttons_;
};

} // namespace cnp::wb
