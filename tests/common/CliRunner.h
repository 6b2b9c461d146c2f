#pragma once
// Runs the built `cnp` binary (CNP_CLI_PATH) and captures exit code, stdout and stderr.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cnp::testing {

struct CliResult {
    int exitCode = -1;
    QByteArray out, err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(QStringLiteral(CNP_CLI_PATH), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace cnp::testing
