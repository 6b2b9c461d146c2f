#pragma once
// The MFU inputs on the Ablation page (issue 15.9): model FLOPs per token and the peak FLOP/s of one GPU,
// with a preset per known GPU (knownGpuPeaks(), analysis/metrics/GpuPeakFlops.h). Set stores them in
// the workspace (storeMfuInputs through the session's WorkspaceWriter: meta keys mfu_flops_per_token,
// mfu_peak_flops) and emits stored() once they are; the
// ablation then recomputes with them, so the MFU figures come from the analysis, never from here.
// An empty field is "not set": the runs' metadata decide (and, for the peak, the GPU's default).
#include "requests/MfuRequest.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace cnp::wb {

class ElidedLabel;
class WorkspaceSession;

class MfuInputsBar : public QWidget {
    Q_OBJECT
public:
    explicit MfuInputsBar(WorkspaceSession* session, QWidget* parent = nullptr);
    // Shows the workspace's stored inputs (after opening another workspace or a reload).
    void load();
    // The line saying what the shown MFU figures rest on (from AblationConfig::mfuBasis).
    void setBasis(const std::vector<MfuBasis>& perConfig);
    // Parses the fields; false (and *error set) when one is not a number >= 0. Empty = 0 (not set).
    bool inputs(MfuInputs* out, QString* error) const;
    QString basisText() const;

signals:
    void stored();

private:
    void store();
    void presetChosen(int index);
    // The fields and Set work only where the workspace can be written (else disabled, tooltip: why).
    void updateWritable();
    WorkspaceSession* session_;
    QLineEdit* flopsPerToken_;
    QComboBox* gpuBox_;
    QLineEdit* peak_;
    QPushButton* apply_;
    ElidedLabel* basis_;
};

} // namespace cnp::wb
