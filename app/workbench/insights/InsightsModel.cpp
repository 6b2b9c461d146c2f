#include "InsightsModel.h"

#include "UnitFormat.h"

#include <QColor>
#include <QFont>

namespace cnp::wb {

InsightsModel::InsightsModel(QObject* parent) : QAbstractItemModel(parent) {}

void InsightsModel::setInsights(std::vector<Insight> insights) {
    beginResetModel();
    insights_ = std::move(insights);
    endResetModel();
}

QColor InsightsModel::severityColor(InsightSeverity s) {
    switch (s) {
    case InsightSeverity::Critical:
        return QColor(0xd6, 0x3b, 0x3b);
    case InsightSeverity::Warning:
        return QColor(0xe0, 0x8a, 0x00);
    case InsightSeverity::Info:
        return QColor(0x3a, 0x7b, 0xd5);
    }
    return {};
}

const Insight* InsightsModel::insightAt(const QModelIndex& i) const {
    if (!i.isValid())
        return nullptr;
    const size_t row = i.internalId() == 0 ? size_t(i.row()) : size_t(i.internalId() - 1);
    return row < insights_.size() ? &insights_[row] : nullptr;
}

const InsightEvidence* InsightsModel::evidenceAt(const QModelIndex& i) const {
    if (!i.isValid() || i.internalId() == 0)
        return nullptr;
    const Insight* in = insightAt(i);
    return in && size_t(i.row()) < in->evidence.size() ? &in->evidence[size_t(i.row())] : nullptr;
}

QModelIndex InsightsModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex InsightsModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int InsightsModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return int(insights_.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(insights_[size_t(parent.row())].evidence.size());
}

int InsightsModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

static QString whereText(const InsightEvidence& e) {
    QStringList parts;
    if (e.rank >= 0)
        parts << QStringLiteral("rank %1").arg(e.rank);
    if (e.stepIndex >= 0)
        parts << QStringLiteral("step %1").arg(e.stepIndex);
    if (e.start >= 0 && e.end >= e.start)
        parts << UnitFormat::duration(double(e.end - e.start)) + QStringLiteral(" range");
    return parts.isEmpty() ? QStringLiteral("whole run") : parts.join(QStringLiteral(", "));
}

QVariant InsightsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Insight* in = insightAt(index);
    if (!in)
        return {};
    if (index.internalId() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == TitleColumn)
                return QString::fromStdString(in->title);
            if (index.column() == SeverityColumn)
                return QString::fromLatin1(toString(in->severity));
            if (index.column() == WhereColumn)
                return in->evidence.empty() ? QStringLiteral("—")
                                            : QStringLiteral("%1 item(s)").arg(in->evidence.size());
            return {};
        case Qt::DecorationRole:
            return index.column() == TitleColumn ? QVariant(severityColor(in->severity)) : QVariant();
        case Qt::ForegroundRole:
            return index.column() == SeverityColumn ? QVariant(severityColor(in->severity)) : QVariant();
        case Qt::FontRole: {
            QFont f;
            f.setBold(in->severity != InsightSeverity::Info);
            return f;
        }
        case Qt::ToolTipRole:
            return QString::fromStdString(in->explanation);
        case InsightRowRole:
            return index.row();
        case SeverityRole:
            return int(in->severity);
        default:
            return {};
        }
    }
    const InsightEvidence* e = evidenceAt(index);
    if (!e)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == TitleColumn) {
            QString t = QString::fromStdString(e->detail);
            if (t.isEmpty() && !e->kernels.empty())
                t = QString::fromStdString(e->kernels.front());
            return t;
        }
        if (index.column() == WhereColumn)
            return whereText(*e);
        return {};
    case Qt::ToolTipRole: {
        QStringList k;
        for (const auto& n : e->kernels)
            k << QString::fromStdString(n);
        return k.isEmpty() ? QString::fromStdString(e->detail) : k.join(QLatin1Char('\n'));
    }
    case EvidenceRowRole:
        return index.row();
    default:
        return {};
    }
}

QVariant InsightsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn:
        return tr("Finding / evidence");
    case SeverityColumn:
        return tr("Severity");
    case WhereColumn:
        return tr("Where");
    default:
        return {};
    }
}

} // namespace cnp::wb
