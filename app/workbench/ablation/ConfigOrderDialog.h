#pragma once
// Chooses which configurations the Ablation page shows and in what order (drag to reorder, untick to
// hide). The result feeds AblationOptions::order.
#include <QDialog>
#include <QStringList>

class QListWidget;

namespace cnp::wb {

class ConfigOrderDialog : public QDialog {
    Q_OBJECT
public:
    // `all`: every configuration in plan order; `shown`: the current selection in its order.
    ConfigOrderDialog(const QStringList& all, const QStringList& shown, QWidget* parent = nullptr);
    QStringList order() const;

private:
    QListWidget* list_;
};

} // namespace cnp::wb
