#include "timeline/CriticalPathModel.h"

#include "UnitFormat.h"
#include "requests/CriticalPathRequest.h"

#include <QObject>

namespace cnp::wb {

CriticalPathModel::CriticalPathModel(QObject* parent) : RowTableModel<CriticalPathRow>(parent) {
    setColumns({{QObject::tr("Kind"), [](const CriticalPathRow& r) { return kindName(r.kind); },
                 Qt::AlignLeft | Qt::AlignVCenter,
                 [](const CriticalPathRow& r) { return static_cast<int>(r.kind); }},
                {QObject::tr("Time"),
                 [](const CriticalPathRow& r) { return UnitFormat::duration(static_cast<double>(r.ns)); },
                 kNumberAlignment, [](const CriticalPathRow& r) { return static_cast<qlonglong>(r.ns); },
                 [](const CriticalPathRow& r) { return UnitFormat::durationExact(r.ns); }},
                {QObject::tr("Share"), [](const CriticalPathRow& r) { return UnitFormat::percent(r.share); },
                 kNumberAlignment, [](const CriticalPathRow& r) { return r.share; }},
                {QObject::tr("Longest segment"),
                 [](const CriticalPathRow& r) {
                     const QString d = UnitFormat::duration(static_cast<double>(r.longest));
                     return r.longestName.isEmpty() ? d : QStringLiteral("%1 · %2").arg(d, r.longestName);
                 },
                 Qt::AlignLeft | Qt::AlignVCenter,
                 [](const CriticalPathRow& r) { return static_cast<qlonglong>(r.longest); },
                 [](const CriticalPathRow& r) {
                     return QObject::tr("Click to select the longest segment of this kind: %1")
                         .arg(r.longestName.isEmpty() ? QObject::tr("untraced CPU time") : r.longestName);
                 }}},
               ColumnCount);
}

QString CriticalPathModel::kindName(PathKind kind) {
    switch (kind) {
    case PathKind::Cpu:
        return QObject::tr("CPU-bound");
    case PathKind::Compute:
        return QObject::tr("GPU compute");
    case PathKind::Communication:
        return QObject::tr("communication");
    case PathKind::Memory:
        return QObject::tr("memory");
    case PathKind::Launch:
        return QObject::tr("launch overhead");
    case PathKind::KernelGap:
        return QObject::tr("kernel gaps");
    case PathKind::Sync:
        return QObject::tr("sync");
    case PathKind::CollectiveWait:
        return QObject::tr("collective wait");
    }
    return QString::fromLatin1(toString(kind));
}

QColor CriticalPathModel::kindColor(PathKind kind) {
    switch (kind) {
    case PathKind::Cpu:
        return QColor(0x8c, 0x6d, 0x31);
    case PathKind::Compute:
        return QColor(0x31, 0x82, 0xbd);
    case PathKind::Communication:
        return QColor(0xe6, 0x55, 0x0d);
    case PathKind::Memory:
        return QColor(0x31, 0xa3, 0x54);
    case PathKind::Launch:
        return QColor(0x75, 0x6b, 0xb1);
    case PathKind::KernelGap:
        return QColor(0x96, 0x96, 0x96);
    case PathKind::Sync:
        return QColor(0xd6, 0x27, 0x28);
    case PathKind::CollectiveWait:
        return QColor(0xfd, 0xae, 0x6b);
    }
    return QColor(Qt::gray);
}

void CriticalPathModel::setPath(const RankCriticalPath* path) {
    std::vector<CriticalPathRow> rows;
    if (path) {
        const Ns length = path->path.length;
        for (int k = 0; k < kPathKindCount; ++k) {
            const Ns ns = path->path.byKind[static_cast<std::size_t>(k)];
            if (ns <= 0)
                continue;
            CriticalPathRow r;
            r.kind = static_cast<PathKind>(k);
            r.ns = ns;
            r.share = length > 0 ? static_cast<double>(ns) / static_cast<double>(length) : 0.0;
            for (const NamedSegment& s : path->segments)
                if (s.segment.kind == r.kind && s.segment.end - s.segment.start > r.longest) {
                    r.longest = s.segment.end - s.segment.start;
                    r.longestName = QString::fromStdString(s.name);
                }
            rows.push_back(std::move(r));
        }
    }
    setRowsReset(std::move(rows));
}

QVariant CriticalPathModel::extraData(const CriticalPathRow& row, int column, int role) const {
    if (role == BarRole && column == Share)
        return row.share;
    if (role == Qt::DecorationRole && column == Kind)
        return kindColor(row.kind);
    return {};
}

} // namespace cnp::wb
