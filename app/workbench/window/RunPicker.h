#pragma once
// The run combo box of a page that shows one run (Insights, Kernels, Ranks): the workspace dock's
// selection is remembered as the wanted run even before the box lists it (refresh() picks it up later).
#include <QString>

class QComboBox;

namespace cnp::wb {

// Records `runName` as wanted and selects it in `box` when listed. True when the selection moved to
// it (the page should show that run now); false for an empty name, the run already wanted, or one the
// box does not list yet.
bool pickWantedRun(QComboBox* box, QString& wanted, const QString& runName);

} // namespace cnp::wb
