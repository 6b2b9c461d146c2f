#pragma once
// The check that two workspaces holding the same runs stored two ways (one file; a study of shards,
// ingested in parallel or assembled from shards written alone) answer a `cnp` command alike: `args` with
// each workspace inserted after the command word, both exit 0 and print the same bytes but for each run's
// `created_at` (when it was ingested: the only difference allowed). Use inside a Qt Test function.
#include "CliRunner.h"

#include <QRegularExpression>
#include <QtTest>

namespace cnp::testing {

inline void verifySameCliAnswers(const QStringList& args, const QString& reference, const QString& other) {
    QStringList a = args, b = args;
    a.insert(1, reference);
    b.insert(1, other);
    const CliResult one = runCli(a), two = runCli(b);
    QVERIFY2(one.exitCode == 0, one.err.constData());
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QVERIFY(one.out.size() > 100);
    const QRegularExpression createdAt(QStringLiteral("\"created_at\": \"[^\"]*\""));
    QCOMPARE(QString::fromUtf8(two.out).replace(createdAt, "created_at"),
             QString::fromUtf8(one.out).replace(createdAt, "created_at"));
}

} // namespace cnp::testing
