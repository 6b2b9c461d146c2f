#include "PlanRunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <signal.h>

namespace cnp::wb {
namespace {
constexpr qsizetype kMaxStderr = qsizetype{64} * 1024; // the tail kept for the error message
}

PlanRunner::PlanRunner(QObject* parent) : QObject(parent), process_(new QProcess(this)) {
    connect(process_, &QProcess::readyReadStandardOutput, this, &PlanRunner::readOutput);
    connect(process_, &QProcess::readyReadStandardError, this, [this]() {
        stderr_ += process_->readAllStandardError();
        if (stderr_.size() > kMaxStderr)
            stderr_ = stderr_.right(kMaxStderr);
    });
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readOutput();
        if (!pending_.isEmpty())
            handleLine(pending_);
        pending_.clear();
        emit finished(status == QProcess::NormalExit ? code : -1, QString::fromUtf8(stderr_));
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit finished(-1, tr("cannot start %1: %2").arg(process_->program(), process_->errorString()));
    });
}

PlanRunner::~PlanRunner() {
    if (isRunning()) { // the window closes: stop the jobs rather than orphan them
        cancel();
        process_->waitForFinished(5000);
    }
}

QString PlanRunner::findCli() {
    const QString env = qEnvironmentVariable("CNP_CLI");
    if (!env.isEmpty())
        return QFileInfo(env).isExecutable() ? env : QString();
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {here.filePath(QStringLiteral("../cli/cnp")), here.filePath(QStringLiteral("cnp"))})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("cnp"));
}

QStringList PlanRunner::arguments(const QString& plan, const QString& workspace, const QString& backend,
                                  bool dryRun, const QStringList& configs, bool keepGoing) {
    QStringList args{QStringLiteral("run"), plan, workspace, QStringLiteral("--backend"), backend};
    if (!configs.isEmpty())
        args << QStringLiteral("--configs") << configs.join(',');
    if (keepGoing && !dryRun)
        args << QStringLiteral("--keep-going");
    args << (dryRun ? QStringList{QStringLiteral("--dry-run")}
                    : QStringList{QStringLiteral("--progress"), QStringLiteral("json")});
    return args;
}

bool PlanRunner::start(const QString& plan, const QString& workspace, const QString& backend, bool dryRun,
                       const QStringList& configs, QString* error) {
    if (isRunning()) {
        *error = tr("a run is in progress");
        return false;
    }
    const QString cli = findCli();
    if (cli.isEmpty()) {
        *error = tr("the cnp command was not found (next to the workbench, on PATH, or in $CNP_CLI)");
        return false;
    }
    const QStringList args = arguments(plan, workspace, backend, dryRun, configs, keepGoing_);
    dryRun_ = dryRun;
    pending_.clear();
    stderr_.clear();
    process_->start(cli, args);
    return true;
}

void PlanRunner::cancel() {
    if (isRunning())
        ::kill(pid_t(process_->processId()), SIGINT);
}

bool PlanRunner::isRunning() const {
    return process_->state() != QProcess::NotRunning;
}

void PlanRunner::readOutput() {
    pending_ += process_->readAllStandardOutput();
    if (dryRun_) { // shown as it comes; no protocol
        const qsizetype cut = pending_.lastIndexOf('\n') + 1;
        if (cut > 0) {
            emit dryRunOutput(QString::fromUtf8(pending_.left(cut)));
            pending_.remove(0, cut);
        }
        return;
    }
    qsizetype nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        const QByteArray line = pending_.left(nl);
        pending_.remove(0, nl + 1);
        handleLine(line);
    }
}

// One protocol line; anything that is not a protocol object is ignored (the CLI's own logging).
void PlanRunner::handleLine(const QByteArray& line) {
    if (dryRun_) {
        emit dryRunOutput(QString::fromUtf8(line) + '\n');
        return;
    }
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("run")) {
        PlanRunEvent e;
        e.config = o.value(QStringLiteral("config")).toString();
        e.repeat = o.value(QStringLiteral("repeat")).toInt();
        const QJsonValue rank = o.value(QStringLiteral("rank"));
        e.rank = rank.isDouble() ? rank.toInt() : -1;
        e.state = o.value(QStringLiteral("state")).toString();
        e.message = o.value(QStringLiteral("message")).toString();
        emit runEvent(e);
    } else if (type == QLatin1String("summary")) {
        emit summary(o.value(QStringLiteral("done")).toInt(), o.value(QStringLiteral("failed")).toInt(),
                     o.value(QStringLiteral("skipped")).toInt(),
                     o.value(QStringLiteral("cancelled")).toInt());
    }
}

} // namespace cnp::wb
