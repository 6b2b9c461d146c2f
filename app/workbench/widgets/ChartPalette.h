#pragma once
// The one place that decides colours: one colour per kernel category (plus idle and overlap) and one per
// configuration (keyed by the configuration through the workspace's plan order, see
// palette::configurationColor), identical on every page, in exported charts and in reports.
// Text/grid colours follow the application palette so charts read well in light and dark mode.
#include <QColor>
#include <QPalette>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace cnp::wb {

class ChartPalette {
public:
    // Category names as the analysis writes them ("gemm", "attention", "communication", "idle", ...).
    // Unknown categories get a stable colour derived from the name's hash.
    static QColor categoryColor(const QString& category);
    // The categories in the metric contract's priority order (compute categories first, then
    // communication, memory, idle) — the stacking order of every breakdown chart.
    static QStringList categoryOrder();
    // Colour of configuration `config`; `plan` is the workspace's plan order
    // (WorkspaceSession::planOrder()), never the order a chart or table happens to show.
    static QColor configurationColor(const QString& config, const std::vector<std::string>& plan);
    // Run A / run B on the Compare page: their own pair, never a configuration's colour.
    static QColor runAColor();
    static QColor runBColor();
    static QColor positiveDeltaColor(); // time saved (faster)
    static QColor negativeDeltaColor(); // time added (slower)
    // Foreground and grid colours from the current application palette.
    static QColor textColor(const QPalette& p);
    static QColor gridColor(const QPalette& p);
    static QColor backgroundColor(const QPalette& p);
    static bool isDark(const QPalette& p);
};

} // namespace cnp::wb
