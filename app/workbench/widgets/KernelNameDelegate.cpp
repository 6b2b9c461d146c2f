#include "KernelNameDelegate.h"

namespace cnp::wb {

namespace {

bool isIdentifierChar(QChar c) {
    return c.isLetterOrNumber() || c == '_';
}

// The start of the argument list of a name ending in ')': the '(' balancing the last ')', -1 if none (or
// the parentheses belong to an operator name such as "operator()").
qsizetype argumentListStart(const QString& s) {
    if (!s.endsWith(')'))
        return -1;
    int depth = 0;
    for (qsizetype i = s.size() - 1; i >= 0; --i) {
        if (s[i] == ')')
            ++depth;
        else if (s[i] == '(' && --depth == 0)
            return i > 0 && s[i - 1] != ' ' && !s.left(i).endsWith(QLatin1String("operator")) ? i : -1;
    }
    return -1;
}

// Every "qualifier::" (an identifier, or "(anonymous namespace)") dropped, wherever it is.
QString withoutQualifiers(QString s) {
    s.remove(QStringLiteral("(anonymous namespace)::"));
    QString out;
    out.reserve(s.size());
    qsizetype identifierStart = 0; // in `out`
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
            if (out.endsWith('>')) // a template's member ("Kernel<Op>::operator()"): its class stays
                out += QStringLiteral("::");
            else
                out.truncate(identifierStart); // the qualifier before "::"
            ++i;
            continue;
        }
        out += s[i];
        if (!isIdentifierChar(s[i]))
            identifierStart = out.size();
    }
    return out;
}

} // namespace

QString KernelNameDelegate::compact(const QString& name) {
    QString s = name.trimmed();
    if (s.startsWith(QLatin1String("void ")))
        s.remove(0, 5);
    if (const qsizetype args = argumentListStart(s); args > 0)
        s = s.left(args) + QStringLiteral("(…)");
    return withoutQualifiers(s);
}

void KernelNameDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = compact(option->text);
    option->textElideMode = Qt::ElideRight; // the kernel's own name first: its start tells it apart
}

} // namespace cnp::wb
