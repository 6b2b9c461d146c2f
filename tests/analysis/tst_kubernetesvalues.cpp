// KubernetesValues: resource quantities and label keys/values by Kubernetes' own grammar (issue 28:
// `memory: lots` and `cpu: "-3"` passed the lint). The accepted forms are the apimachinery Quantity
// grammar's (suffixes, exponents, fractions) and the label rules of the API server's validation.
#include "plan/KubernetesValues.h"

#include <QtTest>

using namespace cnp::plan;

class TestKubernetesValues : public QObject {
    Q_OBJECT

private slots:
    void quantities_data() {
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<QString>("problem"); // "" = valid; else a part of the reason
        for (const char* ok : {"16", "0", "500m", "0.5", ".5", "1.", "128Gi", "1Ki", "2Ei", "1.5G", "3k",
                               "1e3", "1E-2", "5e+2", "+4", "-0", "100M", "7P"})
            QTest::newRow(ok) << ok << "";
        QTest::newRow("lots") << "lots"
                              << "is not a Kubernetes quantity";
        QTest::newRow("-3") << "-3"
                            << "is negative";
        QTest::newRow("-0.5Gi") << "-0.5Gi"
                                << "is negative";
        QTest::newRow("empty") << ""
                               << "is not a Kubernetes quantity";
        QTest::newRow("unit word") << "16GB"
                                   << "is not a Kubernetes quantity";
        QTest::newRow("lower-case binary") << "128gi"
                                           << "is not a Kubernetes quantity";
        QTest::newRow("space") << "1 Gi"
                               << "is not a Kubernetes quantity";
        QTest::newRow("bare dot") << "."
                                  << "is not a Kubernetes quantity";
        QTest::newRow("exponent without digits") << "1e"
                                                 << "is not a Kubernetes quantity";
        QTest::newRow("two signs") << "--1"
                                   << "is not a Kubernetes quantity";
        QTest::newRow("fraction exponent") << "1e1.5"
                                           << "is not a Kubernetes quantity";
    }
    void quantities() {
        QFETCH(QString, quantity);
        QFETCH(QString, problem);
        const QString why = QString::fromStdString(quantityProblem(quantity.toStdString()));
        if (problem.isEmpty())
            QCOMPARE(why, QString());
        else
            QVERIFY2(why.contains(problem), qPrintable(why));
    }

    void labels_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("problem"); // "" = both valid
        QTest::newRow("plain") << "pool"
                               << "h200-x8"
                               << "";
        QTest::newRow("prefixed") << "node.kubernetes.io/instance-type"
                                  << "p5.48xlarge"
                                  << "";
        QTest::newRow("resource name") << "nvidia.com/gpu"
                                       << ""
                                       << "";
        QTest::newRow("underscore and dot inside") << "a_b.c"
                                                   << "A_b.9"
                                                   << "";
        QTest::newRow("63 characters") << QString(63, 'k') << QString(63, 'v') << "";
        QTest::newRow("64-character name") << QString(64, 'k') << "x"
                                           << "longer than 63";
        QTest::newRow("64-character value") << "k" << QString(64, 'v') << "longer than 63";
        QTest::newRow("space in value") << "pool"
                                        << "a b"
                                        << "holds ' '";
        QTest::newRow("leading dash") << "-pool"
                                      << "x"
                                      << "must begin and end";
        QTest::newRow("upper-case prefix") << "Example.com/pool"
                                           << "x"
                                           << "is not a DNS subdomain";
        QTest::newRow("empty name after prefix") << "example.com/"
                                                 << "x"
                                                 << "is empty";
        QTest::newRow("empty prefix") << "/pool"
                                      << "x"
                                      << "must be a DNS subdomain";
        QTest::newRow("two slashes") << "a/b/c"
                                     << "x"
                                     << "holds '/'";
        QTest::newRow("empty key") << ""
                                   << "x"
                                   << "is empty";
    }
    void labels() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, problem);
        const QString why = QString::fromStdString(labelKeyProblem(key.toStdString()) +
                                                   labelValueProblem(value.toStdString()));
        if (problem.isEmpty())
            QCOMPARE(why, QString());
        else
            QVERIFY2(why.contains(problem), qPrintable(why));
    }

    // Plan-wide: the Kueue queue is a label value, and Pod Security "restricted" refuses what it forbids.
    void planProblems_data() {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("key");     // "" = no problem
        QTest::addColumn<QString>("problem"); // part of the reason
        QTest::newRow("queue ok") << "queue:team-a"
                                  << ""
                                  << "";
        QTest::newRow("queue with a space") << "queue:team a"
                                            << "kubernetes.queueName"
                                            << "label value 'team a'";
        QTest::newRow("restricted alone") << "restricted"
                                          << ""
                                          << "";
        QTest::newRow("restricted, hostNetwork") << "restricted+hostNetwork"
                                                 << "kubernetes.hostNetwork"
                                                 << "forbids hostNetwork";
        QTest::newRow("restricted, IPC_LOCK") << "restricted+IPC_LOCK"
                                              << "kubernetes.addCapabilities"
                                              << "drops every capability";
        QTest::newRow("restricted, root") << "restricted+root"
                                          << "kubernetes.runAsUser"
                                          << "not UID 0";
        QTest::newRow("root without restricted") << "root"
                                                 << ""
                                                 << "";
    }
    void planProblems() {
        QFETCH(QString, setting);
        QFETCH(QString, key);
        QFETCH(QString, problem);
        Plan plan;
        KubernetesOptions& k = plan.kubernetes;
        if (setting.startsWith("queue:"))
            k.queueName = setting.mid(6).toStdString();
        k.restricted = setting.startsWith("restricted");
        k.hostNetwork = setting.endsWith("+hostNetwork");
        if (setting.endsWith("+IPC_LOCK"))
            k.addCapabilities = {"IPC_LOCK"};
        if (setting.endsWith("root"))
            k.runAsUser = 0;
        const auto problems = kubernetesValueProblems(plan);
        if (key.isEmpty()) {
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].message.c_str());
            return;
        }
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems[0].key), key);
        QVERIFY2(QString::fromStdString(problems[0].message).contains(problem), problems[0].message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestKubernetesValues)
#include "tst_kubernetesvalues.moc"
