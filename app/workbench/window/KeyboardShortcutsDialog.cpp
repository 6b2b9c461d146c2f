#include "KeyboardShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cnp::wb {

namespace {
struct Binding {
    QString where, what, keys;
};

// Menu actions with a shortcut, depth first ("View › Theme › Dark").
void collect(const QMenu* menu, const QString& path, QList<Binding>& out) {
    for (const QAction* a : menu->actions()) {
        const QString title = QString(a->text()).remove(QLatin1Char('&'));
        if (a->menu())
            collect(a->menu(), path + QStringLiteral(" › ") + title, out);
        else if (!a->shortcut().isEmpty())
            out.push_back({path, title, a->shortcut().toString(QKeySequence::NativeText)});
    }
}

QList<Binding> timelineBindings() {
    const QString t = QObject::tr("Timeline");
    return {{t, QObject::tr("Zoom at the cursor"), QObject::tr("Wheel")},
            {t, QObject::tr("Zoom in / out"), QStringLiteral("W / S")},
            {t, QObject::tr("Pan left / right"), QStringLiteral("A / D")},
            {t, QObject::tr("Pan"), QObject::tr("Drag")},
            {t, QObject::tr("Select a range"), QObject::tr("Shift+Drag")},
            {t, QObject::tr("Zoom to an event"), QObject::tr("Double-click")},
            {t, QObject::tr("Fit the selection"), QStringLiteral("F")},
            {t, QObject::tr("Back / forward to the views shown"),
             QKeySequence(QKeySequence::Back).toString(QKeySequence::NativeText) + QStringLiteral(" / ") +
                 QKeySequence(QKeySequence::Forward).toString(QKeySequence::NativeText)},
            {t, QObject::tr("Clear the selection"), QStringLiteral("Esc")},
            {t, QObject::tr("Previous / next event of the selected event's lane"),
             QObject::tr("Left / Right, [ / ]")},
            {t, QObject::tr("Expand / collapse all rank groups (also on the context menu)"),
             QStringLiteral("E / C")},
            {t, QObject::tr("Next / previous search match"), QObject::tr("Enter / Shift+Enter")},
            {t, QObject::tr("Show the critical path of the step in view"),
             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C).toString(QKeySequence::NativeText)}};
}
} // namespace

KeyboardShortcutsDialog::KeyboardShortcutsDialog(const QMenuBar* menus, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    QList<Binding> rows;
    for (const QAction* a : menus->actions())
        if (a->menu())
            collect(a->menu(), QString(a->text()).remove(QLatin1Char('&')), rows);
    rows += timelineBindings();
    table_->setColumnCount(3);
    table_->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys")});
    table_->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        table_->setItem(r, 0, new QTableWidgetItem(rows[r].where));
        table_->setItem(r, 1, new QTableWidgetItem(rows[r].what));
        table_->setItem(r, 2, new QTableWidgetItem(rows[r].keys));
    }
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(560, 520);
}

} // namespace cnp::wb
