#pragma once
// The YAML side of the Plans page: a plain-text editor with line numbers and the lint findings marked
// on their lines (errors red, warnings amber; the message is the line's tooltip).
#include "plan/PlanFinding.h"

#include <QPlainTextEdit>

#include <vector>

namespace cnp::wb {

class PlanEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit PlanEditor(QWidget* parent = nullptr);
    void setFindings(const std::vector<plan::Finding>& findings);
    // Moves the cursor to a 1-based line and column and shows it.
    void goTo(int line, int column);
    // The 1-based lines marked as errors / warnings (tests).
    QList<int> markedLines(plan::Severity s) const;
    int gutterWidth() const;
    void paintGutter(QPaintEvent* e);

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;

private:
    QWidget* gutter_;
    std::vector<plan::Finding> findings_;
};

} // namespace cnp::wb
