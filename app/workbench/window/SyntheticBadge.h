#pragma once
// The window's "synthetic" badge (status bar, so it is on every page and in every screenshot): visible
// whenever the workspace holds a generated run (`cnp synth`), saying whether the selected run is one and
// how many are. Synthetic data is never shown unflagged. Presents RunInfo::synthetic; computes nothing.
#include "store/Workspace.h"

#include <QLabel>

#include <vector>

namespace cnp::wb {

class SyntheticBadge : public QLabel {
    Q_OBJECT
public:
    explicit SyntheticBadge(QWidget* parent = nullptr);
    // `selectedRun`: the dock's selected run, RunId() for none.
    void update(const std::vector<RunRecord>& runs, RunId selectedRun);
};

} // namespace cnp::wb
