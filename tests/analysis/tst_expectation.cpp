// A configuration's expectation in the vocabulary of `cnp whatif` (metrics/Expectation.h): each item
// parses to the scenario the CLI's option would build, the canonical text reads back to the same
// scenario, and hostile text is refused with the item named.
#include "metrics/Expectation.h"

#include <QtTest>

using namespace cnp;

class TestExpectation : public QObject {
    Q_OBJECT
private slots:
    void parses_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("described"); // WhatIfScenario::describe() of the parse
        QTest::addColumn<QString>("canonical");
        QTest::newRow("comm") << "comm=0.5128"
                              << "communication x0.5128"
                              << "comm=0.5128";
        QTest::newRow("category") << " scale.gemm = 0.8 "
                                  << "gemm x0.8"
                                  << "scale.gemm=0.8";
        QTest::newRow("kernel") << "scale_kernel.ncclDevKernel=0.5"
                                << "kernels 'ncclDevKernel' x0.5"
                                << "scale_kernel.ncclDevKernel=0.5";
        QTest::newRow("recompute factor") << "recompute=0.25"
                                          << "recompute x0.25"
                                          << "scale.recompute=0.25";
        QTest::newRow("recompute drop") << "recompute=drop"
                                        << "no recomputation"
                                        << "recompute=drop";
        QTest::newRow("launch") << "launch_overhead=remove"
                                << "no launch overhead"
                                << "launch_overhead=remove";
        QTest::newRow("syncs") << "remove_sync=cudaStreamSynchronize;remove_sync=all"
                               << "without sync cudaStreamSynchronize, without sync all"
                               << "remove_sync=cudaStreamSynchronize; remove_sync=all";
        QTest::newRow("several") << "scale.gemm=0.8; comm=0.5;;launch_overhead=remove"
                                 << "gemm x0.8, no launch overhead, communication x0.5"
                                 << "comm=0.5; scale.gemm=0.8; launch_overhead=remove";
    }
    void parses() {
        QFETCH(QString, text);
        QFETCH(QString, described);
        QFETCH(QString, canonical);
        const ExpectationParse p = parseExpectation(text.toStdString());
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(QString::fromStdString(p.scenario.describe()), described);
        QCOMPARE(QString::fromStdString(formatExpectation(p.scenario)), canonical);
        // The canonical text is a fixed point.
        const ExpectationParse again = parseExpectation(formatExpectation(p.scenario));
        QVERIFY(again.ok());
        QCOMPARE(again.scenario.describe(), p.scenario.describe());
    }

    void refuses_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error"); // a part of the message
        QTest::newRow("empty") << ""
                               << "no transformation";
        QTest::newRow("separators only") << " ; ;"
                                         << "no transformation";
        QTest::newRow("no value") << "comm"
                                  << "'comm' is not KEY=VALUE";
        QTest::newRow("negative") << "comm=-1"
                                  << "not a factor from 0 to 1000";
        QTest::newRow("too large") << "scale.gemm=1001"
                                   << "not a factor from 0 to 1000";
        QTest::newRow("not a number") << "comm=fast"
                                      << "'fast' is not a factor";
        QTest::newRow("nan") << "comm=nan"
                             << "not a factor";
        QTest::newRow("no category") << "scale.=0.5"
                                     << "no name after";
        QTest::newRow("launch") << "launch_overhead=half"
                                << "can only be 'remove'";
        QTest::newRow("unknown") << "speed=2"
                                 << "unknown transformation";
        QTest::newRow("sql") << "comm=0.5'; DROP TABLE runs; --"
                             << "not a factor";
    }
    void refuses() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const ExpectationParse p = parseExpectation(text.toStdString());
        QVERIFY(!p.ok());
        QVERIFY2(QString::fromStdString(p.error).contains(error), p.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExpectation)
#include "tst_expectation.moc"
