#pragma once
// The run combo box of a page that shows runs (Insights, Kernels, Ranks, Run, Compare): each item's text
// is the run's name (a label only) and its data the run's id, so the page reads the current run by id.
// The workspace dock's selection is remembered as the wanted run even before the box lists it (refresh()
// picks it up later).
#include "core/Ids.h"
#include "store/Workspace.h"

class QComboBox;

namespace cnp::wb {

// Appends `run` to `box`: its name as the text, its id as the data.
void addRunItem(QComboBox* box, const RunRecord& run);
// Replaces the items of `box` by `runs`, in their order, and selects `wanted`, else the first; the box
// emits no signal meanwhile.
void listRuns(QComboBox* box, const std::vector<RunRecord>& runs, RunId wanted);
// The id of item `index` of `box`; RunId() when out of range.
RunId runIdAt(const QComboBox* box, int index);
// The id of the current item of `box`; RunId() when the box is empty.
RunId currentRunId(const QComboBox* box);
// Selects the item of `runId`; false (the selection unchanged) when the box does not list it.
bool selectRunItem(QComboBox* box, RunId runId);
// Records `runId` as wanted and selects it in `box` when listed. True when the selection moved to it (the
// page should show that run now); false for RunId(), the run already wanted, or one the box does not list
// yet.
bool pickWantedRun(QComboBox* box, RunId& wanted, RunId runId);

} // namespace cnp::wb
