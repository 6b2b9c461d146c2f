#pragma once
// Keeps a table's name column readable (issue 15.2: at 1024x640 the Kernels page's kernel names were
// one "…" wide and the Compare page's diff read "triton_po…" at 1280x800, because a Stretch column only
// gets what the ResizeToContents columns leave). The name column takes the room the other columns
// leave, but never less than kMinWidth (about 36 characters, elided in the middle); the other columns
// then scroll horizontally. Re-applied when the view, its header or its model change.
#include <QObject>

class QTableView;
class QWidget;

namespace cnp::wb {

class NameColumnSizer : public QObject {
    Q_OBJECT
public:
    static constexpr int kMinWidth = 260;
    // Installs itself on `view` (its parent); `column` is the name column.
    static NameColumnSizer* install(QTableView* view, int column);
    void apply();

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    NameColumnSizer(QTableView* view, int column);
    QTableView* view_;
    // Compared by address only: the filter also sees the viewport's last events while the view is
    // half destroyed (its QAbstractScrollArea part gone), when no member of view_ may be called.
    const QWidget* viewport_;
    int column_;
    bool applying_ = false;
};

} // namespace cnp::wb
