#pragma once
// Plan findings as tests compare them: "LINE:COL: SEVERITY: RULE" per finding (brief) and the full
// FILE:LINE:COL lines (messages, for failure output). Shared by the plan parser and linter tests.
#include "plan/PlanFinding.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace cnp::plan::testing {

inline QStringList brief(const std::vector<Finding>& findings) {
    QStringList out;
    for (const auto& f : findings)
        out << QStringLiteral("%1:%2: %3: %4")
                   .arg(f.line)
                   .arg(f.column)
                   .arg(severityName(f.severity), QString::fromStdString(f.rule));
    return out;
}

inline QString messages(const std::vector<Finding>& findings) {
    QString out;
    for (const auto& f : findings)
        out += QString::fromStdString(formatFinding(f)) + '\n';
    return out;
}

} // namespace cnp::plan::testing
