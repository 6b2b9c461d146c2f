#include "RunKind.h"

#include <QCoreApplication>

namespace cnp::wb {

RunKind runKindOf(const RunInfo& info) {
    if (info.synthetic)
        return RunKind::Synthetic;
    return info.sourceFormat == "log" ? RunKind::Untraced : RunKind::Measured;
}

QString runKindWord(RunKind kind) {
    switch (kind) {
    case RunKind::Synthetic:
        return QCoreApplication::translate("RunKind", "synthetic");
    case RunKind::Untraced:
        return QCoreApplication::translate("RunKind", "untraced");
    case RunKind::Measured:
        break;
    }
    return QCoreApplication::translate("RunKind", "real");
}

QString runKindPhrase(RunKind kind) {
    switch (kind) {
    case RunKind::Synthetic:
        return QCoreApplication::translate("RunKind", "synthetic (generated, not measured)");
    case RunKind::Untraced:
        return QCoreApplication::translate("RunKind", "untraced repeat (log figures only, no trace)");
    case RunKind::Measured:
        break;
    }
    return QCoreApplication::translate("RunKind", "real measurement");
}

} // namespace cnp::wb
