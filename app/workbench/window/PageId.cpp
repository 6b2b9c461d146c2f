#include "PageId.h"

namespace cnp::wb {

QString pageKey(PageId id) {
    switch (id) {
    case PageId::Ablation:
        return QStringLiteral("ablation");
    case PageId::Compare:
        return QStringLiteral("compare");
    case PageId::Kernels:
        return QStringLiteral("kernels");
    case PageId::Insights:
        return QStringLiteral("insights");
    case PageId::Timeline:
        return QStringLiteral("timeline");
    case PageId::Run:
        return QStringLiteral("run");
    case PageId::Ranks:
        return QStringLiteral("ranks");
    case PageId::Plans:
        return QStringLiteral("plans");
    case PageId::Trend:
        return QStringLiteral("trend");
    }
    return QStringLiteral("ablation");
}

QString pageTitle(PageId id) {
    switch (id) {
    case PageId::Ablation:
        return QStringLiteral("Ablation");
    case PageId::Compare:
        return QStringLiteral("Compare");
    case PageId::Kernels:
        return QStringLiteral("Kernels");
    case PageId::Insights:
        return QStringLiteral("Insights");
    case PageId::Timeline:
        return QStringLiteral("Timeline");
    case PageId::Run:
        return QStringLiteral("Run");
    case PageId::Ranks:
        return QStringLiteral("Ranks");
    case PageId::Plans:
        return QStringLiteral("Plans");
    case PageId::Trend:
        return QStringLiteral("Trend");
    }
    return {};
}

std::optional<PageId> pageFromKey(const QString& key) {
    for (PageId id : allPages())
        if (key.compare(pageKey(id), Qt::CaseInsensitive) == 0)
            return id;
    return std::nullopt;
}

std::array<PageId, kPageCount> allPages() {
    return {PageId::Ablation, PageId::Compare, PageId::Kernels, PageId::Insights, PageId::Timeline,
            PageId::Run,      PageId::Ranks,   PageId::Plans,   PageId::Trend};
}

} // namespace cnp::wb
