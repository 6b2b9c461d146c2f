#pragma once
// The Plans page: open / edit / save an ablation plan with the form and the YAML side by side (the
// text is the source of truth; form edits rewrite single values in it, comments kept), lint findings
// marked on their lines as you type (debounced, linted on the thread pool), a dry-run preview, and
// Run / Cancel through the `cnp` CLI with live state per configuration, repeat and rank. Runs that land
// reload the workspace session, so the dock and the ablation page show them.
#include "WorkbenchPage.h"

#include "plan/PlanParser.h"

#include <QHash>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QSplitter;
class QTabWidget;
class QTimer;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace cnp::wb {

class PlanEditor;
class PlanForm;
class PlanRunner;
struct PlanRunEvent;

class PlansPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit PlansPage(WorkspaceSession* session, QWidget* parent = nullptr);

    // Loads a plan file into the editor; false (and *error) when it cannot be read.
    bool openPlan(const QString& path, QString* error = nullptr);
    bool savePlan(QString* error = nullptr);
    QString planPath() const { return path_; }
    PlanEditor* editor() const { return editor_; }
    PlanForm* form() const { return form_; }
    // The latest lint result (tests); findings empty before the first lint.
    const plan::ParseResult& lintResult() const { return lint_; }
    // Increases each time a lint result is shown.
    int lintCount() const { return lintCount_; }
    void startDryRun();
    void startRun();
    void cancelRun();
    bool isRunning() const;

signals:
    void lintFinished();
    void runFinished(int exitCode);

protected:
    void refresh() override;

private:
    QWidget* buildToolBar();
    void scheduleLint();
    void lintNow();
    void showLint(const plan::ParseResult& r);
    void applyFormEdit(int configuration, const QString& key, const QString& value);
    void addConfiguration(const QString& parent);
    void replaceText(const std::string& text);
    bool launch(bool dryRun);
    void revealOutput(QWidget* tab);
    void onRunEvent(const PlanRunEvent& e);
    void onRunFinished(int exitCode, const QString& stderrText);
    void noteLogFolder(QTreeWidgetItem* it, const PlanRunEvent& e);
    void showLogs(QTreeWidgetItem* it);
    QTreeWidgetItem* progressItem(const QString& config, int repeat, int rank);
    void updateActions();
    void openDialog();
    void saveAsDialog();
    std::string lintPath() const;

    QString path_;
    QString summary_;       // the CLI's last summary line, as text
    int tracedRepeats_ = 0; // of the plan being run: repeats after these are untraced (no collector)
    bool modified_ = false;
    plan::ParseResult lint_;
    int lintCount_ = 0;
    quint64 lintGeneration_ = 0;
    PlanEditor* editor_;
    PlanForm* form_;
    QListWidget* findings_;   // one finding per row: LINE:COL  severity  rule — message (wrapped)
    QSplitter* mainSplitter_; // plan above, output (progress / dry run) below
    QTabWidget* output_;
    QPlainTextEdit* preview_;
    QTreeWidget* progress_;
    QHash<QString, QTreeWidgetItem*> progressItems_; // "config/repeat/rank" -> row
    QComboBox* backend_;
    QCheckBox* keepGoing_;
    QToolButton *dryRun_, *run_, *cancel_, *save_;
    QLabel* status_;
    QTimer* lintTimer_;
    PlanRunner* runner_;
};

} // namespace cnp::wb
