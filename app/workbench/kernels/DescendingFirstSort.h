#pragma once
// Sorting habit of profilers (Nsight Systems, HTA): the first click on a numeric column sorts it
// largest first; clicking it again toggles. A column is numeric when its cells are right-aligned (the
// workbench models right-align every number). Text columns keep Qt's ascending first click.
class QTableView;

namespace cnp::wb {

// Installs the habit on `view` (sorting must be enabled); lives as long as the view.
void sortNumbersDescendingFirst(QTableView* view);

} // namespace cnp::wb
