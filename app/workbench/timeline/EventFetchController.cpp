#include "EventFetchController.h"

#include "BackgroundTask.h"

#include "launch/ClusterEventFetch.h"
#include "launch/PlanSource.h"
#include "store/Workspace.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>
#include <QWidget>

namespace cnp::wb {

EventFetchController::EventFetchController(QWidget* parent) : QObject(parent), parent_(parent) {}

QString EventFetchController::planFile(const std::string& wsPath, RunId run) {
    std::string path, hash;
    try {
        const Workspace ws(wsPath, Workspace::Mode::ReadOnly);
        path = ws.runAttribute(run, "plan.path").value_or("");
        hash = ws.runAttribute(run, "plan.hash").value_or("");
    } catch (const std::exception&) {
        path.clear();
    }
    if (!path.empty() && QFileInfo(QString::fromStdString(path)).isFile()) {
        try {
            if (launch::loadPlanOrThrow(path).hash == hash)
                return QString::fromStdString(path);
        } catch (const std::exception&) { // changed or unreadable: the user picks one
        }
    }
    return QFileDialog::getOpenFileName(parent_, tr("The plan this run was made with"),
                                        QFileInfo(QString::fromStdString(path)).path(),
                                        tr("Ablation plans (*.yaml *.yml);;All files (*)"));
}

void EventFetchController::fetch(const std::string& wsPath, RunId run) {
    if (busy_)
        return;
    const QString plan = planFile(wsPath, run);
    if (plan.isEmpty())
        return;
    busy_ = true;
    QPointer<EventFetchController> guard(this);
    auto report = [guard](const std::string& m) {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, text = QString::fromStdString(m)]() {
                if (guard)
                    emit guard->progress(text);
            },
            Qt::QueuedConnection);
    };
    runInBackground<bool>(
        this,
        [wsPath, run, planPath = plan.toStdString(), report]() {
            const plan::Plan p = launch::loadPlanOrThrow(planPath);
            launch::KubectlOptions k;
            k.context = p.kubernetes.context;
            k.namespace_ = p.kubernetes.namespace_;
            k.kubeconfig = p.kubernetes.kubeconfig;
            Workspace ws(wsPath, Workspace::Mode::ReadWrite);
            launch::fetchRunEvents(ws, run, p, k, {}, report);
            return true;
        },
        [this, run](TaskOutcome<bool>& o) {
            busy_ = false;
            emit finished(run, o.value ? QString() : o.error);
        });
}

} // namespace cnp::wb
