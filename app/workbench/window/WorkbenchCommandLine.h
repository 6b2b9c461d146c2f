#pragma once
// `cnp-workbench [WORKSPACE] [--page PAGE] [--run NAME] [--configs A,B,...] [--plan FILE]
//                [--history DIR] [--step-diff N|median] [--theme system|light|dark]
//                [--screenshot FILE.png [--size WxH]]`.
// --history DIR opens the Trend page on that release history (--page, if given, must be trend); a
// positional argument that is a history folder (it holds cnp-history.json) means the same.
// --plan FILE opens the Plans page on that plan (--page, if given, must be plans).
// --step-diff opens the Compare page's step diff of step N (or the median steps) of its two runs.
// --size is in device-independent pixels (the unit of every Qt geometry): with QT_SCALE_FACTOR=2 (or a
// 2x screen) a 1280x800 window is saved as a 2560x1600 PNG, drawn at twice the resolution.
#include "PageId.h"
#include "ThemeMode.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace cnp::wb {

struct WorkbenchCommandLine {
    QString workspace;              // empty: none given (the last page/workspace come from QSettings)
    std::optional<PageId> page;     // nullopt: the last page used
    QString run;                    // --run NAME: select this run in the workspace dock (must exist)
    QStringList configs;            // --configs A,B,...: the ablation page's configurations, in order
    QString plan;                   // --plan FILE: the Plans page opens on this plan file
    QString history;                // --history DIR: the Trend page opens on this release history
    std::optional<int> stepDiff;    // --step-diff N|median (-1): the Compare page's step diff
    std::optional<ThemeMode> theme; // --theme: overrides the saved View → Theme choice
    QString tab;                    // --tab NAME: the page's tab of that title opened (case-insensitive)
    QString screenshotFile;         // non-empty: render offscreen, save, exit
    QSize size = QSize(1280, 800);  // window size for --screenshot
    QString error;                  // non-empty when the arguments were invalid (one line)
    bool helpRequested = false;
    bool versionRequested = false; // --version: print it and exit 0

    // Parses arguments (argv[0] included). Never exits the process.
    static WorkbenchCommandLine parse(const QStringList& arguments);
    static QString usage();
};

} // namespace cnp::wb
