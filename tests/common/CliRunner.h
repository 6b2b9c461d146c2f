#pragma once
// Runs the built `cnp` binary (testpaths::cliPath()) and captures exit code, stdout and stderr.
#include "ProgramRunner.h"
#include "TestPaths.h"
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cnp::testing {

struct CliResult {
    int exitCode = -1;
    QByteArray out, err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 120000) {
    const ProgramRun r =
        runProgram(testpaths::cliPath(), args, QProcessEnvironment::systemEnvironment(), timeoutMs);
    return {r.code, r.out, r.err};
}

// Ingests the bundled H200 demo traces (resources/demo/demo_<config>.json.gz) into `ws` with `cnp ingest`,
// one run per configuration, named and labelled like it. Returns the first failure's stderr; empty when
// every ingest succeeded.
inline QByteArray ingestDemoRuns(const QString& ws, const QStringList& configs) {
    for (const auto& c : configs) {
        const auto r =
            runCli({"ingest", ws,
                    (testpaths::sourceDir() + QStringLiteral("/resources/demo/demo_%1.json.gz")).arg(c),
                    "--run", c, "--config", c});
        if (r.exitCode != 0)
            return c.toUtf8() + ": " + r.err;
    }
    return {};
}

} // namespace cnp::testing
