#include "LogViewerDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace cnp::wb {

namespace {

// The last `maxBytes` of `path` from a line start, with what was left out said first.
QString tailOf(const QString& path, qint64 maxBytes) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QObject::tr("(cannot read: %1)").arg(f.errorString());
    const qint64 size = f.size();
    if (size <= maxBytes)
        return QString::fromUtf8(f.readAll());
    f.seek(size - maxBytes);
    QByteArray bytes = f.readAll();
    const qsizetype nl = bytes.indexOf('\n');
    const qint64 skipped = size - maxBytes + (nl >= 0 ? nl + 1 : 0);
    if (nl >= 0)
        bytes.remove(0, nl + 1);
    return QObject::tr("[… %1 bytes before]\n").arg(skipped) + QString::fromUtf8(bytes);
}

} // namespace

LogViewerDialog::LogViewerDialog(const QString& title, const QString& folder, QWidget* parent)
    : QDialog(parent), folder_(folder), text_(new QPlainTextEdit) {
    setObjectName(QStringLiteral("logViewer"));
    setWindowTitle(tr("Logs of %1").arg(title));
    text_->setObjectName(QStringLiteral("logText"));
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* where = new QLabel(QDir::toNativeSeparators(folder));
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* again = buttons->addButton(tr("&Reload"), QDialogButtonBox::ActionRole);
    connect(again, &QPushButton::clicked, this, &LogViewerDialog::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(where);
    layout->addWidget(text_, 1);
    layout->addWidget(buttons);
    resize(900, 560);
    reload();
}

QString LogViewerDialog::text() const {
    return text_->toPlainText();
}

void LogViewerDialog::reload() {
    text_->setPlainText(readLogs(folder_));
    text_->verticalScrollBar()->setValue(text_->verticalScrollBar()->maximum()); // the end: the cause
}

QString LogViewerDialog::readLogs(const QString& folder, qint64 maxBytes) {
    const QDir dir(folder);
    if (folder.isEmpty() || !dir.exists())
        return tr("The job's folder %1 does not exist (it never started, or was moved).")
            .arg(QDir::toNativeSeparators(folder));
    const QStringList logs = dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name);
    if (logs.isEmpty())
        return tr("No log files in %1.").arg(QDir::toNativeSeparators(folder));
    QString out;
    for (const QString& name : logs) {
        QString part = tailOf(dir.filePath(name), maxBytes);
        if (!part.endsWith('\n'))
            part += '\n';
        out += QStringLiteral("== %1 ==\n").arg(name) + part;
    }
    return out;
}

} // namespace cnp::wb
