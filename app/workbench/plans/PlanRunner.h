#pragma once
// Runs a plan through the `cnp` CLI as a child process (never in the GUI's own process: a run takes
// hours and its backends spawn containers) and turns its output into signals. The contract is `cnp run`'s
// (docs/cli.md):
//   cnp run PLAN WS --backend B [--dry-run] [--configs A,B] [--keep-going] --progress json
//   - with --progress json, stdout carries one JSON object per line: {"type":"run","config","repeat",
//     "rank" (integer or null),"state","message"}, and at the end {"type":"summary","done","failed",
//     "skipped","cancelled"}; exit 0 when every run is done, 2 when one failed;
//   - --dry-run prints what would run (one JSON argv per line, or YAML manifests) and changes nothing;
//   - SIGINT cancels: the CLI stops only its own jobs and keeps the runs that finished.
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cnp::wb {

struct PlanRunEvent {
    QString config;
    int repeat = 0;
    int rank = -1; // -1: the run as a whole
    QString state; // pending starting running collecting ingesting done failed skipped cancelled
    QString message;
};

class PlanRunner : public QObject {
    Q_OBJECT
public:
    explicit PlanRunner(QObject* parent = nullptr);
    ~PlanRunner() override;

    // The cnp CLI: $CNP_CLI, else next to the workbench (the build tree's ../cli/cnp, an install's ./cnp),
    // else on PATH. Empty when there is none.
    static QString findCli();
    // The `cnp run` arguments of a run (keepGoing: --keep-going, every repeat of a configuration even after
    // one failed; by default the CLI skips a failed configuration's remaining repeats).
    static QStringList arguments(const QString& plan, const QString& workspace, const QString& backend,
                                 bool dryRun, const QStringList& configs, bool keepGoing);
    void setKeepGoing(bool on) { keepGoing_ = on; }
    // Starts `cnp run`; false (and *error) when the CLI is missing or a run is in progress.
    bool start(const QString& plan, const QString& workspace, const QString& backend, bool dryRun,
               const QStringList& configs, QString* error);
    // Asks the CLI to stop (SIGINT); finished() follows when it has cleaned up.
    void cancel();
    bool isRunning() const;
    bool isDryRun() const { return dryRun_; }

signals:
    void runEvent(const cnp::wb::PlanRunEvent& e);
    void summary(int done, int failed, int skipped, int cancelled);
    void dryRunOutput(const QString& text);
    // exitCode -1 when the process crashed or could not start; stderrText: what the CLI said there.
    void finished(int exitCode, const QString& stderrText);

private:
    void readOutput();
    void handleLine(const QByteArray& line);

    QProcess* process_;
    QByteArray pending_; // an incomplete last line of stdout
    QByteArray stderr_;
    bool dryRun_ = false;
    bool keepGoing_ = false;
};

} // namespace cnp::wb
