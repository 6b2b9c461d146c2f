#include "ConfigOrderDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace cnp::wb {

ConfigOrderDialog::ConfigOrderDialog(const QStringList& all, const QStringList& shown, QWidget* parent)
    : QDialog(parent), list_(new QListWidget) {
    setWindowTitle(tr("Configurations and order"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Drag to reorder; untick to leave a configuration out.")));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    QStringList ordered = shown;
    for (const QString& c : all)
        if (!ordered.contains(c))
            ordered << c;
    for (const QString& c : ordered) {
        auto* item = new QListWidgetItem(c, list_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
        item->setCheckState(shown.isEmpty() || shown.contains(c) ? Qt::Checked : Qt::Unchecked);
    }
    layout->addWidget(list_);
    auto* buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Reset);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Reset), &QPushButton::clicked, this, [this, all]() {
        list_->clear();
        for (const QString& c : all) {
            auto* item = new QListWidgetItem(c, list_);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
            item->setCheckState(Qt::Checked);
        }
    });
    layout->addWidget(buttons);
}

QStringList ConfigOrderDialog::order() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked)
            out << list_->item(i)->text();
    return out;
}

} // namespace cnp::wb
