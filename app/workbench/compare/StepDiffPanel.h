#pragma once
// The Compare page's step diff (docs/workbench.md, "Compare"): a step box (each run's median step, or a
// step number both runs have), the step's decomposition (GPU span A → B: matched slower and faster, added,
// removed, idle and overlap) and the lanes (StepDiffView) in a scroll area. diffSteps() runs in the
// background; a newer request supersedes an older one.
#include "core/Ids.h"
#include "requests/StepDiffRequest.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;

namespace cnp::wb {

class StepDiffView;

class StepDiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit StepDiffPanel(QWidget* parent = nullptr);

    // Diffs `step` (nullopt: the median steps) of runs a and b of the workspace at `path`.
    void diff(const QString& path, RunId a, RunId b, bool normalized, std::optional<std::int32_t> step);
    // The step last asked for (nullopt: the median steps); the step box shows it once the steps are known.
    std::optional<std::int32_t> step() const { return step_; }
    bool busy() const { return busy_; }
    const StepDiffReport* report() const { return report_.get(); }
    StepDiffView* view() const { return view_; }
    QComboBox* stepBox() const { return stepBox_; }
    QLabel* summary() const { return summary_; }

signals:
    void finished();       // a diff was shown (or its error)
    void closeRequested(); // "Back to charts"

private:
    void show(std::shared_ptr<const StepDiffReport> report, bool normalized);
    void fillSteps(const StepDiffReport& r);
    QString summaryText(const StepDiffReport& r) const;

    QComboBox* stepBox_;
    QLabel* summary_;
    QPushButton* close_;
    StepDiffView* view_;
    std::shared_ptr<const StepDiffReport> report_;
    QString path_;
    RunId a_, b_;
    bool normalized_ = false;
    std::optional<std::int32_t> step_;
    bool busy_ = false;
    quint64 request_ = 0;
};

} // namespace cnp::wb
