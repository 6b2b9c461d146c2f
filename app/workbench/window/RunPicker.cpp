#include "RunPicker.h"

#include <QComboBox>
#include <QSignalBlocker>

namespace cnp::wb {

void addRunItem(QComboBox* box, const RunRecord& run) {
    box->addItem(QString::fromStdString(run.info.name), QVariant::fromValue<qlonglong>(run.id.value()));
}

void listRuns(QComboBox* box, const std::vector<RunRecord>& runs, RunId wanted) {
    const QSignalBlocker block(box);
    box->clear();
    for (const RunRecord& r : runs)
        addRunItem(box, r);
    if (!selectRunItem(box, wanted))
        box->setCurrentIndex(0);
}

RunId runIdAt(const QComboBox* box, int index) {
    const QVariant v = box->itemData(index);
    return v.isValid() ? RunId(v.toLongLong()) : RunId();
}

RunId currentRunId(const QComboBox* box) {
    return runIdAt(box, box->currentIndex());
}

bool selectRunItem(QComboBox* box, RunId runId) {
    const int i = box->findData(QVariant::fromValue<qlonglong>(runId.value()));
    if (i < 0)
        return false;
    box->setCurrentIndex(i);
    return true;
}

bool pickWantedRun(QComboBox* box, RunId& wanted, RunId runId) {
    if (runId == RunId() || runId == wanted)
        return false;
    wanted = runId;
    return selectRunItem(box, runId);
}

} // namespace cnp::wb
