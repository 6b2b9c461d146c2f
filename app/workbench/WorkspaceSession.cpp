#include "WorkspaceSession.h"

#include <exception>

namespace cnp::wb {

WorkspaceSession::WorkspaceSession(QObject* parent) : QObject(parent) {}
WorkspaceSession::~WorkspaceSession() = default;

bool WorkspaceSession::open(const QString& path, bool create, QString* error) {
    try {
        auto ws = std::make_shared<Workspace>(path.toStdString(), create ? Workspace::Mode::CreateIfMissing
                                                                         : Workspace::Mode::ReadWrite);
        auto runs = ws->runs();
        ws_ = std::move(ws);
        runs_ = std::move(runs);
        path_ = path;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    ++generation_;
    emit workspaceChanged();
    emit runsChanged();
    return true;
}

void WorkspaceSession::close() {
    if (!ws_)
        return;
    ws_.reset();
    runs_.clear();
    path_.clear();
    ++generation_;
    emit workspaceChanged();
    emit runsChanged();
}

void WorkspaceSession::reload() {
    if (!ws_)
        return;
    try {
        runs_ = ws_->runs();
    } catch (const std::exception&) {
        runs_.clear();
    }
    ++generation_;
    emit runsChanged();
}

const RunRecord* WorkspaceSession::findRun(const QString& name) const {
    const std::string n = name.toStdString();
    for (const auto& r : runs_)
        if (r.info.name == n)
            return &r;
    return nullptr;
}

QStringList WorkspaceSession::configurations() const {
    QStringList out;
    for (const auto& r : runs_) {
        const QString c = QString::fromStdString(r.info.config);
        if (!out.contains(c))
            out << c;
    }
    return out;
}

int WorkspaceSession::planIndexOf(const QString& config) const {
    return int(configurations().indexOf(config));
}

QStringList WorkspaceSession::runsOf(const QString& config) const {
    QStringList out;
    const std::string c = config.toStdString();
    for (const auto& r : runs_)
        if (r.info.config == c)
            out << QString::fromStdString(r.info.name);
    return out;
}

} // namespace cnp::wb
