#include "WorkspaceSession.h"

#include "WorkspaceWriter.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <utility>

namespace cnp::wb {

namespace {
// The GUI thread's connection only reads. A writing open first creates a missing workspace and upgrades
// an older schema, and tells whether the workspace can be written at all: where it cannot (a read-only
// file, folder or mount) *readOnlyReason says why and the workspace is only read.
std::shared_ptr<const Workspace> openWorkspace(const std::string& path, bool create,
                                               QString* readOnlyReason) {
    readOnlyReason->clear();
    try {
        Workspace(path, create ? Workspace::Mode::CreateIfMissing : Workspace::Mode::ReadWrite);
    } catch (const ReadOnlyWorkspace& e) {
        if (!std::filesystem::exists(path))
            throw; // a new workspace in a read-only folder: nothing to read
        *readOnlyReason = QString::fromStdString(e.what());
    }
    return std::make_shared<const Workspace>(path, Workspace::Mode::ReadOnly);
}

constexpr int kDebounceMs = 300; // an ingest commits in bursts; re-read once they settle

bool sameCatalogue(const std::vector<RunRecord>& a, const std::vector<RunRecord>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const RunRecord& x, const RunRecord& y) {
        return x.id == y.id && x.info.name == y.info.name && x.info.config == y.info.config &&
               x.eventCount == y.eventCount && x.rankCount == y.rankCount;
    });
}
} // namespace

WorkspaceSession::WorkspaceSession(QObject* parent)
    : QObject(parent), writer_(new WorkspaceWriter(this)), watcher_(new QFileSystemWatcher(this)),
      debounce_(new QTimer(this)) {
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &WorkspaceSession::reloadIfChanged);
    connect(watcher_, &QFileSystemWatcher::fileChanged, debounce_, qOverload<>(&QTimer::start));
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, [this]() {
        watch(); // the -wal file may have appeared (or gone)
        debounce_->start();
    });
}

void WorkspaceSession::watch() {
    const QStringList old = watcher_->files() + watcher_->directories();
    if (!old.isEmpty())
        watcher_->removePaths(old);
    if (!ws_)
        return;
    const QFileInfo file(QString::fromStdString(ws_->file())); // a study's: its index
    QStringList paths{file.absoluteFilePath(), file.absolutePath()};
    if (const QString wal = file.absoluteFilePath() + QStringLiteral("-wal"); QFileInfo::exists(wal))
        paths << wal;
    watcher_->addPaths(paths);
}

bool WorkspaceSession::readCatalogue(std::vector<RunRecord>* runs, std::vector<std::string>* plan) {
    try {
        *runs = ws_->runs();
        *plan = ws_->planOrder();
        retried_ = false;
        return true;
    } catch (const std::exception& e) {
        readFailed(QString::fromUtf8(e.what()));
        return false;
    }
}

// A read that fails (a writer's checkpoint under way, the file briefly locked) is tried once more after the
// debounce; when that fails too, readFailed() says so and the last good catalogue stays.
void WorkspaceSession::readFailed(const QString& why) {
    if (!std::exchange(retried_, true)) {
        const quint64 generation = generation_;
        QTimer::singleShot(kDebounceMs, this, [this, generation]() {
            if (ws_ && generation == generation_)
                reloadIfChanged();
        });
        return;
    }
    retried_ = false;
    emit catalogueReadFailed(tr("Cannot re-read the runs of the workspace (%1); the last list read is shown, "
                                "View → Reload Workspace (F5) tries again.")
                                 .arg(why));
}

void WorkspaceSession::reloadIfChanged() {
    if (!ws_)
        return;
    std::vector<RunRecord> runs;
    std::vector<std::string> plan;
    if (!readCatalogue(&runs, &plan) || (sameCatalogue(runs, runs_) && plan == plan_))
        return;
    runs_ = std::move(runs);
    plan_ = std::move(plan);
    ++generation_;
    emit runsChanged();
}
WorkspaceSession::~WorkspaceSession() = default;

bool WorkspaceSession::open(const QString& path, bool create, QString* error) {
    try {
        QString readOnlyReason;
        auto ws = openWorkspace(path.toStdString(), create, &readOnlyReason);
        auto runs = ws->runs();
        auto plan = ws->planOrder();
        ws_ = std::move(ws);
        readOnlyReason_ = std::move(readOnlyReason);
        runs_ = std::move(runs);
        plan_ = std::move(plan);
        path_ = path;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    watch();
    ++generation_;
    emit workspaceChanged();
    emit runsChanged();
    return true;
}

void WorkspaceSession::close() {
    if (!ws_)
        return;
    ws_.reset();
    readOnlyReason_.clear();
    runs_.clear();
    plan_.clear();
    path_.clear();
    watch();
    ++generation_;
    emit workspaceChanged();
    emit runsChanged();
}

void WorkspaceSession::reload() {
    if (!ws_)
        return;
    // A failed read (the file busy or briefly locked) keeps the last good catalogue: a workspace
    // with runs must never be shown as one without.
    std::vector<RunRecord> runs;
    std::vector<std::string> plan;
    if (readCatalogue(&runs, &plan)) {
        runs_ = std::move(runs);
        plan_ = std::move(plan);
    }
    ++generation_;
    emit runsChanged();
}

const RunRecord* WorkspaceSession::findRun(RunId runId) const {
    for (const auto& r : runs_)
        if (r.id == runId)
            return &r;
    return nullptr;
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

const RunRecord* WorkspaceSession::firstRunOf(const QString& config) const {
    const std::string c = config.toStdString();
    for (const auto& r : runs_)
        if (r.info.config == c)
            return &r;
    return nullptr;
}

} // namespace cnp::wb
