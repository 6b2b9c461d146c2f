#pragma once
// Every number of an AblationResult as a table beneath the Ablation page's charts, one row per
// configuration in the chosen order. Display text is formatted for reading; Qt::UserRole returns the
// raw value (ns as qint64, ratios as double) so sorting and tests see exact numbers.
#include "requests/AblationRequest.h"
#include "requests/PredictionRequest.h"

#include "RowTableModel.h"

#include <string>
#include <vector>

namespace cnp::wb {

class AblationTableModel : public RowTableModel<AblationConfig> {
    Q_OBJECT
public:
    enum Column {
        ConfigColumn = 0,
        RunsColumn,
        StepsColumn,
        MedianColumn,
        CiColumn,
        ThroughputColumn,
        MfuColumn,
        SpeedupColumn,
        GainColumn,
        MeanColumn,
        ComputeColumn,
        CommunicationColumn,
        OverlapColumn,
        MemoryColumn,
        IdleColumn,
        LogColumn,       // the step time the runs' logs reported, beside the traced one
        PredictedColumn, // predicted from the previous configuration's trace, and the error (predict, then
                         // measure)
        MissColumn,      // the prediction's biggest miss: a category, predicted vs measured change
        ColumnCount
    };
    explicit AblationTableModel(QObject* parent = nullptr);
    // `plan` (Workspace::planOrder()) keys the configuration swatches, whatever the row order.
    void setResult(const AblationResult& result, const std::vector<std::string>& plan);
    // The predictions of the configurations that state an expectation (predict, then measure), shown in
    // the Predicted and Miss columns; a configuration without one shows "—". setResult() clears them.
    void setPredictions(const AblationPredictions& predictions);
    // The prediction of `config`, nullptr when none.
    const StepPrediction* predictionOf(const std::string& config) const;

    // "1.32× [1.10×, 1.35×]" plus " n.s." when the CI includes 1.
    static QString ratioText(const RatioWithCi& r);

protected:
    QVariant extraData(const AblationConfig& c, int column, int role) const override;

private:
    bool isBaseline(const AblationConfig& c) const { return c.config == baseline_; }
    std::string baseline_;
    std::vector<std::string> plan_; // the workspace's plan order: the colour key
    std::vector<StepPrediction> predictions_;
};

} // namespace cnp::wb
