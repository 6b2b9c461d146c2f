#include "RunPicker.h"

#include <QComboBox>

namespace cnp::wb {

bool pickWantedRun(QComboBox* box, QString& wanted, const QString& runName) {
    if (runName.isEmpty() || runName == wanted)
        return false;
    wanted = runName;
    if (box->findText(runName) < 0)
        return false;
    box->setCurrentText(runName);
    return true;
}

} // namespace cnp::wb
