#pragma once
// Help → Keyboard Shortcuts: every menu action that has a shortcut (read from the window's menus, so
// the list cannot drift from the real bindings) and the timeline's keys and mouse gestures.
#include <QDialog>

class QMenuBar;
class QTableWidget;

namespace cnp::wb {

class KeyboardShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit KeyboardShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
};

} // namespace cnp::wb
