#include "KernelOccurrencesModel.h"

#include "UnitFormat.h"
#include "store/Workspace.h"

namespace cnp::wb {

KernelOccurrencesModel::KernelOccurrencesModel(QObject* parent) : RowTableModel(parent, Qt::UserRole) {
    using R = const KernelOccurrence&;
    auto dims = [](const std::int32_t* d) {
        return QVariant(QStringLiteral("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]));
    };
    const auto N = kNumberAlignment;
    setColumns({{tr("Rank"), [](R o) { return QVariant(o.rank); }, N},
                {tr("Device"), [](R o) { return QVariant(o.device); }, N},
                {tr("Stream"), [](R o) { return QVariant(qlonglong(o.stream)); }, N},
                {tr("Start since run start"),
                 [this](R o) { return QVariant(UnitFormat::duration(double(o.start - origin_))); }, N,
                 [this](R o) { return QVariant(qlonglong(o.start - origin_)); },
                 [this](R o) {
                     return QVariant(
                         QStringLiteral("%1 after the run start (absolute %2 ns); double-click to show it on "
                                        "the timeline")
                             .arg(UnitFormat::durationExact(o.start - origin_))
                             .arg(o.start));
                 }},
                {tr("Duration"),
                 [](R o) { return QVariant(UnitFormat::duration(double(o.end - o.start))); },
                 N,
                 {},
                 [](R o) { return QVariant(UnitFormat::durationExact(o.end - o.start)); }},
                {tr("Grid"), [=](R o) { return dims(o.grid); }},
                {tr("Block"), [=](R o) { return dims(o.block); }},
                {tr("Registers"), [](R o) { return QVariant(o.registers); }, N},
                {tr("Shared memory"),
                 [](R o) { return QVariant(UnitFormat::bytes(double(o.staticSmem + o.dynamicSmem))); },
                 N,
                 {},
                 [](R o) {
                     return QVariant(
                         QStringLiteral("%1 B static + %2 B dynamic").arg(o.staticSmem).arg(o.dynamicSmem));
                 }}},
               ColumnCount);
}

std::vector<KernelOccurrence> KernelOccurrencesModel::readOccurrences(const Workspace& ws, std::int64_t runId,
                                                                      const std::string& kernelName,
                                                                      std::int32_t rank, std::size_t limit) {
    std::vector<KernelOccurrence> out;
    Statement st(ws.db(),
                 "SELECT k.rank, k.device, k.stream, k.start_ns, k.end_ns, k.grid_x, k.grid_y, k.grid_z, "
                 "k.block_x, k.block_y, k.block_z, k.registers, k.static_smem, k.dynamic_smem FROM kernels k "
                 "WHERE k.id BETWEEN ?1 AND ?5 AND "
                 "k.name_id = (SELECT id FROM strings WHERE value = ?2) AND (?3 < 0 OR k.rank = ?3) "
                 "ORDER BY k.start_ns LIMIT ?4");
    const IdRange rows = ws.eventRows(runId, "kernels");
    st.bind(1, rows.first).bind(2, std::string_view(kernelName)).bind(3, rank).bind(4, std::int64_t(limit));
    st.bind(5, rows.last);
    while (st.step()) {
        KernelOccurrence o;
        o.rank = st.i32(0);
        o.device = st.i32(1);
        o.stream = st.i64(2);
        o.start = st.i64(3);
        o.end = st.i64(4);
        for (int i = 0; i < 3; ++i) {
            o.grid[i] = st.i32(5 + i);
            o.block[i] = st.i32(8 + i);
        }
        o.registers = st.i32(11);
        o.staticSmem = st.i64(12);
        o.dynamicSmem = st.i64(13);
        out.push_back(o);
    }
    return out;
}

void KernelOccurrencesModel::setOccurrences(std::vector<KernelOccurrence> rows, Ns runStart) {
    beginResetModel();
    mutableRows() = std::move(rows);
    origin_ = runStart;
    endResetModel();
}

} // namespace cnp::wb
