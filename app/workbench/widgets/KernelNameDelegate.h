#pragma once
// Draws a kernel's name so that what tells kernels apart stays in view (issue 32.10: names elided in the
// middle made different kernels look identical: "void at::native::vectorized_elem…char*, 3> >)" for an
// add and a multiply). The cell shows the compact name — no "void ", no namespace qualifiers, the argument
// list as "(…)" — cut at the right, so the kernel's own name and its first template arguments remain;
// the model's tooltip keeps the whole name, and sorting, search and copy use the model's full text.
#include <QStyledItemDelegate>

namespace cnp::wb {

class KernelNameDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    // "void at::native::f<4, at::native::AddFunctor<float> >(int, char*)" -> "f<4, AddFunctor<float> >(…)".
    static QString compact(const QString& name);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace cnp::wb
