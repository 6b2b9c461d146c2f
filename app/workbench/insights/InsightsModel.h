#pragma once
// computeInsights() results as a two-level tree: findings (most severe first, as the analysis orders
// them) -> their evidence. Columns: finding / evidence text, severity, where (rank, step, time range).
#include "requests/InsightsRequest.h"

#include <QAbstractItemModel>

#include <vector>

namespace cnp::wb {

class InsightsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { TitleColumn = 0, SeverityColumn, WhereColumn, ColumnCount };
    enum Role { InsightRowRole = Qt::UserRole + 1, EvidenceRowRole, SeverityRole };
    explicit InsightsModel(QObject* parent = nullptr);
    void setInsights(std::vector<Insight> insights);
    const std::vector<Insight>& insights() const { return insights_; }
    // The insight and (for evidence rows) the evidence behind `index`.
    const Insight* insightAt(const QModelIndex& index) const;
    const InsightEvidence* evidenceAt(const QModelIndex& index) const;
    static QColor severityColor(InsightSeverity s);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Top-level rows carry internalId 0; evidence rows carry (insight row + 1).
    std::vector<Insight> insights_;
};

} // namespace cnp::wb
