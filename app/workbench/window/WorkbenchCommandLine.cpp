#include "WorkbenchCommandLine.h"

#include "history/HistoryManifest.h"

#include <QRegularExpression>

namespace cnp::wb {

QString WorkbenchCommandLine::usage() {
    return QStringLiteral(
        "usage: cnp-workbench [--version] [WORKSPACE.cnpdb|STUDY.cnpstudy] [--page "
        "ablation|compare|kernels|insights|"
        "timeline|run|ranks|plans|trend] [--tab NAME] [--run NAME] [--configs A,B,...] [--plan FILE.yaml] "
        "[--history "
        "DIR] [--step-diff N|median] [--theme "
        "system|light|dark] [--screenshot FILE.png [--size WxH]]\n  --size is in "
        "device-independent pixels: at QT_SCALE_FACTOR=2 the PNG has twice as many pixels "
        "each way\n  --history DIR opens the Trend page on a release history (the folder `cnp history add` "
        "writes; also as the positional argument)\n  --tab NAME opens the page's tab of that title (Ranks: "
        "steps, collectives)");
}

WorkbenchCommandLine WorkbenchCommandLine::parse(const QStringList& arguments) {
    WorkbenchCommandLine cl;
    bool sizeGiven = false;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString& a = arguments[i];
        auto value = [&](const QString& option) -> std::optional<QString> {
            if (i + 1 >= arguments.size()) {
                cl.error = option + QStringLiteral(" needs a value");
                return std::nullopt;
            }
            return arguments[++i];
        };
        if (a == QLatin1String("--version")) {
            cl.versionRequested = true;
            return cl;
        }
        if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
            cl.helpRequested = true;
        } else if (a == QLatin1String("--page")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.page = pageFromKey(*v);
            if (!cl.page) {
                cl.error = QStringLiteral("unknown page '%1'").arg(*v);
                return cl;
            }
        } else if (a == QLatin1String("--tab")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.tab = *v;
        } else if (a == QLatin1String("--run")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.run = *v;
        } else if (a == QLatin1String("--configs")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.configs = v->split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (a == QLatin1String("--plan")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.plan = *v;
        } else if (a == QLatin1String("--history")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.history = *v;
        } else if (a == QLatin1String("--step-diff")) {
            auto v = value(a);
            if (!v)
                return cl;
            bool ok = true;
            const int n = *v == QLatin1String("median") ? -1 : v->toInt(&ok);
            if (!ok || n < -1) {
                cl.error = QStringLiteral("--step-diff wants a step number or 'median', not '%1'").arg(*v);
                return cl;
            }
            cl.stepDiff = n;
        } else if (a == QLatin1String("--theme")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.theme = themeFromKey(*v);
            if (!cl.theme) {
                cl.error = QStringLiteral("unknown theme '%1' (system, light or dark)").arg(*v);
                return cl;
            }
        } else if (a == QLatin1String("--screenshot")) {
            auto v = value(a);
            if (!v)
                return cl;
            cl.screenshotFile = *v;
        } else if (a == QLatin1String("--size")) {
            auto v = value(a);
            if (!v)
                return cl;
            static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
            const auto m = re.match(*v);
            if (!m.hasMatch()) {
                cl.error = QStringLiteral("--size wants WxH, e.g. 1280x800, not '%1'").arg(*v);
                return cl;
            }
            cl.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
            sizeGiven = true;
        } else if (a.startsWith(QLatin1Char('-'))) {
            cl.error = QStringLiteral("unknown option '%1'").arg(a);
            return cl;
        } else if (cl.history.isEmpty() && HistoryManifest::isHistory(a.toStdString())) {
            cl.history = a;
        } else if (cl.workspace.isEmpty()) {
            cl.workspace = a;
        } else {
            cl.error = QStringLiteral("more than one workspace given ('%1')").arg(a);
            return cl;
        }
    }
    if (sizeGiven && cl.screenshotFile.isEmpty())
        cl.error = QStringLiteral("--size is only meaningful with --screenshot");
    if (cl.stepDiff) {
        if (cl.page && *cl.page != PageId::Compare)
            cl.error = QStringLiteral("--step-diff opens the compare page, not '%1'").arg(pageKey(*cl.page));
        cl.page = PageId::Compare;
    }
    if (!cl.plan.isEmpty()) {
        if (cl.page && *cl.page != PageId::Plans)
            cl.error = QStringLiteral("--plan opens the plans page, not '%1'").arg(pageKey(*cl.page));
        cl.page = PageId::Plans;
    }
    if (!cl.history.isEmpty() && cl.error.isEmpty()) {
        if (cl.page && *cl.page != PageId::Trend)
            cl.error = QStringLiteral("--history opens the trend page, not '%1'").arg(pageKey(*cl.page));
        cl.page = PageId::Trend;
    }
    return cl;
}

} // namespace cnp::wb
