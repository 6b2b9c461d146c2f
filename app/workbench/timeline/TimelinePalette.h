#pragma once
// Colours of timeline styles: kernel categories and memory use ChartPalette (identical to every other
// page); CPU kinds, API calls, annotations and steps get fixed muted colours. Cached per style id.
#include <QColor>
#include <QString>

#include <string>
#include <vector>

namespace cnp::wb {

class TimelinePalette {
public:
    // Colours for the model's style table (TimelineModel::styles), by style id.
    static std::vector<QColor> forStyles(const std::vector<std::string>& styles);
    static QColor styleColor(const QString& style);
    // Black or white, whichever reads better on `background`.
    static QColor textOn(const QColor& background);
    // Search-hit marks: magenta, far from every category, CPU-kind and step colour (a hit on any slice
    // stays visible as a hit, never as another category).
    static QColor searchHighlight();
};

} // namespace cnp::wb
