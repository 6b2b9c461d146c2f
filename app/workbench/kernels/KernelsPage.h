#pragma once
// The Kernels page: kernel statistics (cuda_gpu_kern_sum columns) of one run, for all ranks or one rank,
// sortable, filtered by category and a regex on the name; Ctrl+C copies the selected rows (TSV), Export
// writes CSV. Selecting a kernel lists its occurrences; double-clicking one shows it on the timeline.
// Statistics and occurrences are read on worker threads. "n of N shown" follows the filters; the
// filters belong to the run: choosing another run clears them (never a silent carry-over).
#include "WorkbenchPage.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace cnp::wb {

class KernelStatsModel;
class KernelFilterProxy;
class KernelOccurrencesModel;

class KernelsPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit KernelsPage(WorkspaceSession* session, QWidget* parent = nullptr);
    void setSelectedRun(RunId runId) override;
    bool focusSearch() override;
    KernelStatsModel* model() const { return model_; }
    KernelFilterProxy* proxy() const { return proxy_; }
    KernelOccurrencesModel* occurrences() const { return occurrences_; }
    QTableView* view() const { return view_; }
    QString shownCountText() const;
    // Tab-separated text of the selected rows (header first), as copied to the clipboard.
    QString selectedRowsText() const;
    // Writes the rows passing the filters as CSV (export/KernelStatsCsv: the layout of `cnp export`
    // --format csv), of the rank shown; false on failure.
    bool exportCsv(const QString& path) const;
    void setCategoryFilter(const QString& category);
    void setNameFilter(const QString& regex);
    void selectKernel(const QString& name);

signals:
    void occurrencesLoaded();

protected:
    void refresh() override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    // The constructor's parts.
    void buildControls(QVBoxLayout* layout, QPushButton*& copy, QPushButton*& exportButton);
    QSplitter* buildTables();
    void connectControls(QPushButton* copy, QPushButton* exportButton);
    void loadStats();
    void loadOccurrences();
    void updateShownCount();
    // Called when another run is chosen (dock or the page's run box).
    void runChanged();
    QComboBox* runBox_;
    QComboBox* rankBox_;
    QComboBox* categoryBox_;
    QLineEdit* search_;
    QLabel* status_;
    QLabel* shown_;
    QTableView* view_;
    QTableView* occurrencesView_;
    KernelStatsModel* model_;
    KernelFilterProxy* proxy_;
    KernelOccurrencesModel* occurrences_;
    RunId wanted_; // the run chosen here or in the dock (RunId(): none yet)
    quint64 statsRequest_ = 0, occRequest_ = 0;
    // The page is ready once the first kernel's occurrences are listed too (a screenshot or a reader
    // of contentReady() saw an empty occurrences table for the 16-rank runs).
    bool readyAfterOccurrences_ = false;
    int statsRank_ = -1; // the rank the shown statistics are of (-1: all ranks)
};

} // namespace cnp::wb
