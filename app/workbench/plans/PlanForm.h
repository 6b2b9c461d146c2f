#pragma once
// The form side of the Plans page: the plan's configurations in order, the values the selected one
// writes itself (editable: name, extends, image, CUDA version, node pool) and, read-only, what it
// resolves to and what it changes from its predecessor. The form edits nothing itself: it emits
// keyEdited() and the page rewrites that one value in the YAML text, which stays the source of truth.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace cnp::wb {

class PlanForm : public QWidget {
    Q_OBJECT
public:
    explicit PlanForm(QWidget* parent = nullptr);
    // Shows `plan` (keeps the selected row when it still exists). Emits nothing.
    // `findings`: the plan's lint findings; a header figure whose value has an error (`nodes: -3`) shows
    // as "?" rather than the default the parser kept (issue 32.9: "1 node(s)" beside `nodes: -3`).
    void setPlan(const plan::Plan& plan, const std::vector<plan::Finding>& findings = {});
    QString headerText() const;
    int currentConfiguration() const;
    void selectConfiguration(int index);

signals:
    // key: "name", "extends", "image", "cudaVersion" or "nodePool".
    void keyEdited(int configuration, const QString& key, const QString& value);
    // The user asks for a new configuration extending `parent` (may be empty).
    void addRequested(const QString& parent);

private:
    void showConfiguration(int index);
    QLineEdit* addField(const QString& key, const QString& label, const QString& tip);
    QString resolvedSummary(int index) const;

    plan::Plan plan_;
    QLabel* header_;
    QListWidget* list_;
    QPushButton* add_;
    QWidget* fields_;
    std::vector<std::pair<QString, QLineEdit*>> edits_; // key -> field
    QPlainTextEdit* resolved_;
};

} // namespace cnp::wb
