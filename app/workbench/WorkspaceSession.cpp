#include "WorkspaceSession.h"

#include <exception>
#include <filesystem>

namespace cnp::wb {

namespace {
// Read-write where possible; a read-only workspace (file, folder or mount) opens for reading, and the
// edits that need writing report "workspace is read-only" on their own connection.
std::shared_ptr<Workspace> openWorkspace(const std::string& path, bool create) {
    try {
        return std::make_shared<Workspace>(path, create ? Workspace::Mode::CreateIfMissing
                                                        : Workspace::Mode::ReadWrite);
    } catch (const ReadOnlyWorkspace&) {
        if (!std::filesystem::exists(path))
            throw; // a new workspace in a read-only folder: nothing to read
        return std::make_shared<Workspace>(path, Workspace::Mode::ReadOnly);
    }
}
} // namespace

WorkspaceSession::WorkspaceSession(QObject* parent) : QObject(parent) {}
WorkspaceSession::~WorkspaceSession() = default;

bool WorkspaceSession::open(const QString& path, bool create, QString* error) {
    try {
        auto ws = openWorkspace(path.toStdString(), create);
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
