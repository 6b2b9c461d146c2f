#pragma once
// A flat table model over a vector of rows, described by one column table: per column its header, the
// display value, the alignment, the sort key and the tooltip, each a function of the row. The table
// models of the workbench (kernels, kernel diff, occurrences, ranks, rank summary, ablation, insights,
// run metadata) derive from it and only describe their columns; the index checks, row/column counts,
// header and role dispatch live here once.
//
// Invariants: the column table's order is the derived model's Column enum (asserted in size at
// construction); a role whose function is empty answers an invalid QVariant (so QAbstractItemModelTester
// and proxies see the same roles as before); a flat table: every valid parent has no children.
// data() is O(1) plus the column function. Formatting goes through UnitFormat (docs/formatting.md);
// no metric is computed here.
#include <QAbstractTableModel>

#include <functional>
#include <utility>
#include <vector>

namespace cnp::wb {

template <class Row> struct TableColumn {
    using Value = std::function<QVariant(const Row&)>;
    TableColumn(QString header_, Value display_, Qt::Alignment alignment_ = Qt::AlignLeft | Qt::AlignVCenter,
                Value sortKey_ = {}, Value tooltip_ = {})
        : header(std::move(header_)), display(std::move(display_)), alignment(alignment_),
          sortKey(std::move(sortKey_)), tooltip(std::move(tooltip_)) {}
    QString header;
    Value display;
    Qt::Alignment alignment;
    Value sortKey;         // at the model's sort role; empty: none
    Value tooltip;         // empty: none
    QString headerTooltip; // empty: none
};

// A right-aligned column (numbers, durations, ratios).
constexpr Qt::Alignment kNumberAlignment = Qt::AlignRight | Qt::AlignVCenter;

template <class Row> class RowTableModel : public QAbstractTableModel {
public:
    using ColumnSpec = TableColumn<Row>; // "Column" is left to the derived models' enums

    // `sortRole`: the role answering each column's sort key (Qt::UserRole unless a model says otherwise).
    explicit RowTableModel(QObject* parent = nullptr, int sortRole = Qt::UserRole)
        : QAbstractTableModel(parent), sortRole_(sortRole) {}

    const std::vector<Row>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(columns_.size());
    }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid))
            return {};
        const Row& row = rows_[static_cast<std::size_t>(index.row())];
        const ColumnSpec& c = columns_[static_cast<std::size_t>(index.column())];
        auto call = [&row](const typename ColumnSpec::Value& f) { return f ? f(row) : QVariant(); };
        if (role == Qt::DisplayRole)
            return call(c.display);
        if (role == sortRole_)
            return call(c.sortKey);
        if (role == Qt::ToolTipRole)
            return call(c.tooltip);
        if (role == Qt::TextAlignmentRole && c.alignment != (Qt::AlignLeft | Qt::AlignVCenter))
            return static_cast<int>(c.alignment);
        return extraData(row, index.column(), role);
    }

    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override {
        if (o != Qt::Horizontal || section < 0 || section >= static_cast<int>(columns_.size()))
            return {};
        const ColumnSpec& c = columns_[static_cast<std::size_t>(section)];
        if (role == Qt::DisplayRole)
            return c.header;
        if (role == Qt::ToolTipRole && !c.headerTooltip.isEmpty())
            return c.headerTooltip;
        return {};
    }

protected:
    // The column table, once, from the derived constructor; `expected` is its Column enum's count.
    void setColumns(std::vector<ColumnSpec> columns, int expected) {
        Q_ASSERT(static_cast<int>(columns.size()) == expected);
        (void)expected;
        columns_ = std::move(columns);
    }
    void setRowsReset(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    // Roles beyond display, sort key, tooltip and alignment (decoration, foreground, font, custom).
    virtual QVariant extraData(const Row& row, int column, int role) const {
        (void)row;
        (void)column;
        (void)role;
        return {};
    }
    std::vector<Row>& mutableRows() { return rows_; }

private:
    std::vector<ColumnSpec> columns_;
    std::vector<Row> rows_;
    int sortRole_;
};

} // namespace cnp::wb
