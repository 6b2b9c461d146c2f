#pragma once
// Runs a program to its end and captures its exit code, stdout and stderr (the tests that drive real
// programs: cnp, podman, tar, dpkg-deb, ...).
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace cnp::testing {

struct ProgramRun {
    int code = -1; // -1: did not start or timed out (err says which); -2: crashed
    QByteArray out, err;
};

// `program` with `args` in environment `env`, waited for at most `timeoutMs` (then killed).
inline ProgramRun runProgram(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                             int timeoutMs = 120000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProgramRun r;
    if (!p.waitForStarted()) {
        r.err = (program + " does not start: " + p.errorString()).toUtf8();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace cnp::testing
