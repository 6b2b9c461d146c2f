#include "WorkbenchApplication.h"

#include <QEvent>
#include <QMetaEnum>

#include <cstdio>
#include <exception>

namespace cnp::wb {

WorkbenchApplication::WorkbenchApplication(int& argc, char** argv) : QApplication(argc, argv) {}

WorkbenchApplication* WorkbenchApplication::instance() {
    return qobject_cast<WorkbenchApplication*>(QCoreApplication::instance());
}

QString WorkbenchApplication::describe(const QString& what, QObject* receiver, QEvent* event) {
    const char* type = event ? QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type()) : nullptr;
    const QString where = receiver ? QString::fromLatin1(receiver->metaObject()->className()) : QString();
    return QStringLiteral("%1 (while delivering %2 to %3)")
        .arg(what, type ? QString::fromLatin1(type) : QStringLiteral("an event"),
             where.isEmpty() ? QStringLiteral("the application") : where);
}

void WorkbenchApplication::report(const QString& what, QObject* receiver, QEvent* event) {
    const QString line = describe(what, receiver, event);
    std::fprintf(stderr, "cnp-workbench: error: %s\n", qPrintable(line));
    emit exceptionCaught(line);
}

bool WorkbenchApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        report(QString::fromUtf8(e.what()), receiver, event);
    } catch (...) {
        report(QStringLiteral("unknown error"), receiver, event);
    }
    return false;
}

} // namespace cnp::wb
