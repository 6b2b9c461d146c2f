#include "RunTreeModel.h"

#include "ChartPalette.h"
#include "RunKind.h"

#include <QColor>
#include <QFont>

#include <algorithm>

namespace cnp::wb {

RunTreeModel::RunTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void RunTreeModel::setRuns(const std::vector<RunRecord>& runs, const std::vector<std::string>& plan) {
    beginResetModel();
    plan_ = plan;
    configs_.clear();
    for (const auto& r : runs) {
        const QString label = QString::fromStdString(r.info.config);
        auto it = std::find_if(configs_.begin(), configs_.end(),
                               [&](const ConfigNode& c) { return c.label == label; });
        if (it == configs_.end()) {
            configs_.push_back({label, {}});
            it = configs_.end() - 1;
        }
        it->runs.push_back(r);
    }
    endResetModel();
}

QModelIndex RunTreeModel::indexOfRun(RunId runId) const {
    for (size_t c = 0; c < configs_.size(); ++c)
        for (size_t r = 0; r < configs_[c].runs.size(); ++r)
            if (configs_[c].runs[r].id == runId)
                return createIndex(int(r), 0, quintptr(c) + 1);
    return {};
}

QModelIndex RunTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex RunTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int RunTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return int(configs_.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0;
    return int(configs_[size_t(parent.row())].runs.size());
}

int RunTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QString RunTreeModel::runTooltip(const RunRecord& run) {
    const auto& i = run.info;
    auto line = [](const QString& k, const std::string& v) {
        return v.empty() ? QString()
                         : QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                               .arg(k, QString::fromStdString(v).toHtmlEscaped());
    };
    QStringList gpus;
    for (const auto& g : i.gpuModels)
        gpus << QString::fromStdString(g);
    QStringList files;
    for (const auto& f : i.sourceFiles)
        files << QString::fromStdString(f);
    QString html = QStringLiteral("<table>");
    html += line(QStringLiteral("Run"), i.name);
    html += line(QStringLiteral("Configuration"), i.config);
    html += line(QStringLiteral("Repeat"), std::to_string(i.repeat));
    html += line(QStringLiteral("Format"), i.sourceFormat);
    html += line(QStringLiteral("Data"), runKindPhrase(runKindOf(i)).toStdString());
    html += line(QStringLiteral("Ranks"), std::to_string(run.rankCount));
    html += line(QStringLiteral("Host"), i.host);
    html += line(QStringLiteral("GPUs"), gpus.join(QStringLiteral(", ")).toStdString());
    html += line(QStringLiteral("Driver"), i.driverVersion);
    html += line(QStringLiteral("CUDA"), i.cudaVersion);
    html += line(QStringLiteral("CUPTI"), i.cuptiVersion);
    html += line(QStringLiteral("Image"), i.containerImage);
    html += line(QStringLiteral("Kernels"), std::to_string(run.kernelCount));
    html += line(QStringLiteral("Events"), std::to_string(run.eventCount));
    if (i.skipped.count > 0)
        html += line(QStringLiteral("Skipped events"),
                     std::to_string(i.skipped.count) + " (first: " + i.skipped.firstReason + ")");
    html += line(QStringLiteral("Ingested"), run.createdAt);
    html += line(QStringLiteral("Sources"), files.join(QStringLiteral("\n")).toStdString());
    html += QStringLiteral("</table>");
    return html;
}

QVariant RunTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        const ConfigNode& c = configs_[size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return c.label;
            if (index.column() == RanksColumn)
                return c.runs.size() == 1 ? QStringLiteral("1 run")
                                          : QStringLiteral("%1 runs").arg(c.runs.size());
            return {};
        case Qt::DecorationRole:
            return index.column() == NameColumn ? QVariant(ChartPalette::configurationColor(c.label, plan_))
                                                : QVariant();
        case Qt::FontRole: {
            QFont f;
            f.setBold(true);
            return f;
        }
        case Qt::ToolTipRole:
            return QStringLiteral("Configuration %1 (position %2 in plan order, %3)")
                .arg(c.label)
                .arg(index.row() + 1)
                .arg(c.runs.size() == 1 ? QStringLiteral("1 run")
                                        : QStringLiteral("%1 runs").arg(c.runs.size()));
        case ConfigRole:
            return c.label;
        case IsConfigRole:
            return true;
        default:
            return {};
        }
    }
    const ConfigNode& c = configs_[size_t(index.internalId() - 1)];
    const RunRecord& r = c.runs[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(r.info.name);
        case RanksColumn:
            return r.rankCount;
        case FormatColumn:
            return QString::fromStdString(r.info.sourceFormat);
        case KindColumn:
            return runKindWord(runKindOf(r.info));
        default:
            return {};
        }
    case Qt::ForegroundRole:
        // The name too: a narrow dock hides the Data column (WorkspaceDock::fitColumns).
        if ((index.column() == KindColumn || index.column() == NameColumn) && r.info.synthetic)
            return QColor(0xc0, 0x60, 0x00);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == RanksColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        return runTooltip(r);
    case RunIdRole:
        return QVariant::fromValue<qlonglong>(r.id.value());
    case ConfigRole:
        return c.label;
    case IsConfigRole:
        return false;
    default:
        return {};
    }
}

QVariant RunTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    // The dock is narrow at 1024 px (a quarter of the window): short headers, the long form as tooltip
    // ("Configuration / run" was clipped to "Configuration / rur" there).
    if (role == Qt::ToolTipRole && section == NameColumn)
        return QStringLiteral("Runs grouped by configuration, in plan order");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Run");
    case RanksColumn:
        return QStringLiteral("Ranks");
    case FormatColumn:
        return QStringLiteral("Format");
    case KindColumn:
        return QStringLiteral("Data");
    default:
        return {};
    }
}

Qt::ItemFlags RunTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

} // namespace cnp::wb
