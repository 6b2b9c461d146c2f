#pragma once
// The critical path's side panel on the timeline page: what the path is (rank, window, length, the
// window's span), a stacked bar of its share by kind and the breakdown table (CriticalPathModel, each
// share also a bar). Activating a row asks for the longest segment of that kind (kindActivated); the
// page selects it on the timeline. Presents the analysis library's numbers only.
#include "metrics/DependencyGraph.h"

#include <QWidget>

#include <array>

class QLabel;
class QTableView;

namespace cnp {
struct RankCriticalPath;
}

namespace cnp::wb {

class CriticalPathModel;

class CriticalPathPanel : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathPanel(QWidget* parent = nullptr);

    // Shows `path` (nullptr: the empty state), `status` replacing the heading when not empty (computing,
    // an error). `notes` are the report's notes, shown as the heading's tooltip.
    void setPath(const RankCriticalPath* path, const QString& status = {}, const QStringList& notes = {});
    CriticalPathModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString heading() const;

signals:
    void kindActivated(cnp::PathKind kind);

private:
    void drawStack(const RankCriticalPath* path);
    QLabel* heading_ = nullptr;
    QLabel* stack_ = nullptr; // the stacked share bar (a pixmap, redrawn by setPath)
    QTableView* table_ = nullptr;
    CriticalPathModel* model_ = nullptr;
};

} // namespace cnp::wb
