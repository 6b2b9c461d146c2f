// cnp-workbench [WORKSPACE | HISTORY] [--page PAGE] [--run NAME] [--configs A,B,...] [--plan FILE]
//               [--history DIR] [--step-diff N|median] [--theme T]
//               [--screenshot FILE.png [--size WxH]]
// Exit codes: 0 ok, 1 usage, 2 bad input (no such workspace or run, unwritable screenshot).
#include "AblationPage.h"
#include "ComparePage.h"
#include "MainWindow.h"
#include "ThemeMode.h"
#include "WorkbenchApplication.h"
#include "WorkbenchCommandLine.h"
#include "WorkbenchPage.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"
#include "history/HistoryManifest.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

using namespace cnp::wb;

namespace {

// Opens `page`'s tab titled `name` (case-insensitive, mnemonics ignored) in any of its tab widgets.
bool openTab(QWidget* page, const QString& name) {
    for (auto* tabs : page->findChildren<QTabWidget*>())
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i).remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0) {
                tabs->setCurrentIndex(i);
                return true;
            }
    return false;
}

} // namespace

// Waits (processing events) until the page has drawn its content, or `timeoutMs` passed.
int main(int argc, char** argv) {
    WorkbenchApplication app(argc, argv); // no exception of a slot or event handler ends the application
    QApplication::setOrganizationName(QStringLiteral("CNP"));
    QApplication::setApplicationName(QStringLiteral("CNP Workbench"));
    QApplication::setApplicationVersion(QStringLiteral(CNP_VERSION));
    // The installed theme's icon (the package puts it in hicolor), else the one built in.
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("cnp-workbench"),
                                                 QIcon(QStringLiteral(":/icons/cnp-workbench.svg"))));
    QGuiApplication::setDesktopFileName(QStringLiteral("cnp-workbench"));
    const WorkbenchCommandLine cl = WorkbenchCommandLine::parse(QApplication::arguments());
    if (cl.versionRequested) {
        std::fprintf(stdout, "cnp-workbench %s\n", CNP_VERSION);
        return 0;
    }
    if (cl.helpRequested) {
        std::fprintf(stdout, "%s\n", qPrintable(WorkbenchCommandLine::usage()));
        return 0;
    }
    if (!cl.error.isEmpty()) {
        std::fprintf(stderr, "cnp-workbench: %s\n%s\n", qPrintable(cl.error),
                     qPrintable(WorkbenchCommandLine::usage()));
        return 1;
    }
    const bool screenshot = !cl.screenshotFile.isEmpty();
    // Before the window exists, so every widget starts in the chosen colours.
    applyTheme(cl.theme.value_or(screenshot ? ThemeMode::System : savedTheme()));
    MainWindow window;
    if (screenshot) {
        window.setPersistSettings(false);
        window.resize(cl.size);
        if (!cl.workspace.isEmpty() && !QFileInfo::exists(cl.workspace)) {
            std::fprintf(stderr, "cnp-workbench: %s: no such workspace\n", qPrintable(cl.workspace));
            return 2;
        }
    } else {
        window.restoreSettings();
    }
    if (cl.page)
        window.showPage(*cl.page);
    if (!cl.workspace.isEmpty()) {
        QString error;
        if (!window.session()->open(cl.workspace, false, &error)) {
            if (screenshot) {
                std::fprintf(stderr, "cnp-workbench: %s\n", qPrintable(error));
                return 2;
            }
            window.openWorkspace(cl.workspace); // shows the error dialog
        } else if (!screenshot) {
            window.openWorkspace(cl.workspace); // records it in the recent list
        }
    }
    if (!cl.run.isEmpty()) {
        // --run NAME: the name is resolved here, once; the window goes on by the run's id.
        const auto* run = window.session()->findRun(cl.run);
        if (!run) {
            QStringList runs;
            for (const auto& r : window.session()->runs())
                runs << QString::fromStdString(r.info.name);
            std::fprintf(stderr, "cnp-workbench: %s: no run named '%s' (runs: %s)\n",
                         qPrintable(cl.workspace.isEmpty() ? QStringLiteral("(no workspace)") : cl.workspace),
                         qPrintable(cl.run),
                         qPrintable(runs.isEmpty() ? QStringLiteral("none") : runs.join(", ")));
            return 2;
        }
        window.workspaceDock()->selectRun(run->id);
    }
    if (!cl.plan.isEmpty()) {
        QString error;
        if (!window.openPlan(cl.plan, &error)) {
            std::fprintf(stderr, "cnp-workbench: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (!cl.history.isEmpty()) {
        if (screenshot && !cnp::HistoryManifest::isHistory(cl.history.toStdString())) {
            std::fprintf(stderr, "cnp-workbench: %s: no %s: not a release history\n", qPrintable(cl.history),
                         cnp::HistoryManifest::kFileName);
            return 2;
        }
        window.openHistory(cl.history); // errors in the manifest or a summary show on the page
    }
    if (!cl.configs.isEmpty())
        static_cast<AblationPage*>(window.page(PageId::Ablation))->showOrder(cl.configs);
    if (cl.stepDiff)
        static_cast<ComparePage*>(window.page(PageId::Compare))
            ->showStepDiff(*cl.stepDiff < 0 ? std::nullopt : std::optional<std::int32_t>(*cl.stepDiff));
    window.show();
    if (!cl.tab.isEmpty() && !openTab(window.page(window.currentPage()), cl.tab)) {
        std::fprintf(stderr, "cnp-workbench: the %s page has no tab '%s'\n",
                     qPrintable(pageKey(window.currentPage())), qPrintable(cl.tab));
        return 2;
    }
    if (!screenshot)
        return app.exec();

    WorkbenchPage* page = window.page(window.currentPage());
    if (!page->waitUntilReady(60000))
        std::fprintf(stderr, "cnp-workbench: warning: page did not report ready within 60 s\n");
    // Let pending layouts/replots settle before grabbing.
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    if (!cl.tab.isEmpty()) { // a tab's own content may follow the page's in the background
        QEventLoop settle;
        QTimer::singleShot(3000, &settle, &QEventLoop::quit);
        settle.exec();
    }
    const QPixmap pixmap = window.grab();
    if (!pixmap.save(cl.screenshotFile)) {
        std::fprintf(stderr, "cnp-workbench: %s: cannot write the screenshot\n",
                     qPrintable(cl.screenshotFile));
        return 2;
    }
    std::fprintf(stdout, "%s: %dx%d\n", qPrintable(cl.screenshotFile), pixmap.width(), pixmap.height());
    return 0;
}
