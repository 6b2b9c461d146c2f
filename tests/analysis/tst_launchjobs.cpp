// The launcher's backend-neutral parts, on plans built in code: jobs per configuration × repeat in plan
// order (names, output folders, traced/untraced), the --configs/--repeats selection, torchrun around the
// workload when a node has more than one GPU, the collector environment every backend injects, the
// podman/docker argv, the log metric (median over matches, units), and the JSON progress lines the Plans
// page reads. Expected values are written out by hand from the plan in tests/common/TestPlans.h.
#include "TestPlans.h"
#include "core/InputError.h"
#include "launch/ContainerBackend.h"
#include "launch/JobPlanner.h"
#include "launch/LocalBackend.h"
#include "launch/LogFigures.h"
#include "launch/LogTail.h"
#include "launch/RunProgress.h"

#include <QtTest>

using namespace cnp;
using namespace cnp::launch;

namespace {

QStringList toQt(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

QString envValue(const EnvList& env, const std::string& name) {
    for (const auto& [k, v] : env)
        if (k == name)
            return QString::fromStdString(v);
    return "<unset>";
}

} // namespace

class TestLaunchJobs : public QObject {
    Q_OBJECT

private slots:
    void jobsPerConfigurationAndRepeat_data() {
        QTest::addColumn<QStringList>("configs");
        QTest::addColumn<int>("repeatsOverride");
        QTest::addColumn<QStringList>("runs"); // runName:traced
        QTest::newRow("plan: 2 traced + 1 untraced")
            << QStringList{} << -1 << QStringList{"Base-r1:1",     "Base-r2:1",     "Base-r3:0",
                                                  "Base+Opt-r1:1", "Base+Opt-r2:1", "Base+Opt-r3:0"};
        QTest::newRow("--configs in the order given")
            << QStringList{"Base+Opt", "Base"} << -1
            << QStringList{"Base+Opt-r1:1", "Base+Opt-r2:1", "Base+Opt-r3:0",
                           "Base-r1:1",     "Base-r2:1",     "Base-r3:0"};
        QTest::newRow("--repeats 1") << QStringList{"Base"} << 1 << QStringList{"Base-r1:1", "Base-r2:0"};
        QTest::newRow("--repeats 0: untraced only") << QStringList{"Base"} << 0 << QStringList{"Base-r1:0"};
    }
    void jobsPerConfigurationAndRepeat() {
        QFETCH(QStringList, configs);
        QFETCH(int, repeatsOverride);
        QFETCH(QStringList, runs);
        const auto plan = testing::twoConfigPlan({"train", "--steps", "3"}, 2, 1);
        JobSelection sel;
        for (const auto& c : configs)
            sel.configs.push_back(c.toStdString());
        sel.tracedRepeats = repeatsOverride;
        const auto jobs = planJobs(plan, sel, "/out");
        QStringList got;
        for (const auto& j : jobs) {
            got << QString("%1:%2").arg(QString::fromStdString(j.runName)).arg(j.traced ? 1 : 0);
            QVERIFY(j.jobName.size() <= kMaxJobNameLength);
            QCOMPARE(QString::fromStdString(j.outputDir), "/out/" + QString::fromStdString(j.jobName));
        }
        QCOMPARE(got, runs);
    }

    void jobNamesAreDnsLabelsAndDistinct() {
        auto plan = testing::twoConfigPlan({"train"});
        plan.configurations.push_back(testing::testConfiguration("base opt", "", {}));
        plan.configurations.push_back(testing::testConfiguration("Base/Opt", "", {}));
        const auto jobs = planJobs(plan, {}, "/out");
        QSet<QString> names;
        for (const auto& j : jobs) {
            const QString n = QString::fromStdString(j.jobName);
            QVERIFY2(QRegularExpression("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").match(n).hasMatch(),
                     qPrintable(n));
            names.insert(n);
        }
        QCOMPARE(names.size(),
                 4); // "Base+Opt", "base opt" and "Base/Opt" fold to one label, told apart by hash
    }

    void unknownConfigurationNamesThePlan() {
        const auto plan = testing::twoConfigPlan({"train"});
        JobSelection sel;
        sel.configs = {"Nope"};
        try {
            planJobs(plan, sel, "/out");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()), "/plans/test-plan.yaml: no configuration named 'Nope'");
        }
    }

    void invalidCaptureIsRefusedNotRecordedAsAll_data() {
        QTest::addColumn<QString>("capture");
        QTest::newRow("no such mode") << "sometimes";
        QTest::newRow("steps without a count") << "steps:10";
        QTest::newRow("negative delay") << "time:-1";
    }
    void invalidCaptureIsRefusedNotRecordedAsAll() {
        QFETCH(QString, capture);
        auto plan = testing::twoConfigPlan({"train"});
        plan.capture = capture.toStdString();
        try {
            const auto jobs = planJobs(plan, {}, "/out");
            QFAIL(qPrintable("accepted as CNP_CAPTURE=" + QString::fromStdString(jobs[0].capture)));
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("/plans/test-plan.yaml: capture '" + capture +
                                                  "' is not valid ("),
                     e.what());
        }
    }

    void programThatLaunchersWouldMisread_data() {
        QTest::addColumn<QString>("program");
        QTest::newRow("option") << "-rf";
        QTest::newRow("assignment") << "A=B";
        QTest::newRow("empty") << "";
    }
    void programThatLaunchersWouldMisread() {
        QFETCH(QString, program);
        const auto plan = testing::twoConfigPlan({program.toStdString(), "x"});
        QVERIFY_THROWS_EXCEPTION(InputError, planJobs(plan, {}, "/out"));
    }

    void torchrunWhenANodeHasSeveralGpus_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QStringList>("argv");
        QTest::newRow("1 GPU: the workload itself")
            << QStringList{"python", "train.py"} << 1 << 1 << QStringList{"python", "train.py"};
        QTest::newRow("8 GPUs, python script")
            << QStringList{"python3", "train.py", "--bf16"} << 1 << 8
            << QStringList{"torchrun",     "--nnodes=1", "--nproc-per-node=8",
                           "--standalone", "train.py",   "--bf16"};
        QTest::newRow("2 nodes, a program")
            << QStringList{"ljperf", "benchmark"} << 2 << 8 << QStringList{"torchrun",
                                                                           "--nnodes=2",
                                                                           "--nproc-per-node=8",
                                                                           "--master-addr=job-0.job",
                                                                           "--master-port=29500",
                                                                           "--no-python",
                                                                           "ljperf",
                                                                           "benchmark"};
        QTest::newRow("python with an interpreter flag")
            << QStringList{"python", "-u", "train.py"} << 1 << 2
            << QStringList{"torchrun",     "--nnodes=1",  "--nproc-per-node=2",
                           "--standalone", "--no-python", "python",
                           "-u",           "train.py"};
    }
    void aLauncherIsNeverWrappedAgain_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpus");
        QTest::newRow("torchrun") << QStringList{"torchrun", "--nproc-per-node=8", "train.py"} << 1 << 8;
        QTest::newRow("torchrun by path, 2 nodes")
            << QStringList{"/opt/conda/bin/torchrun", "--nnodes=2", "train.py"} << 2 << 8;
        QTest::newRow("deepspeed") << QStringList{"deepspeed", "--num_gpus=8", "train.py", "--zero", "3"} << 1
                                   << 8;
        QTest::newRow("accelerate launch")
            << QStringList{"accelerate", "launch", "--multi_gpu", "train.py"} << 1 << 8;
        QTest::newRow("python -m torch.distributed.run")
            << QStringList{"python3", "-m", "torch.distributed.run", "--nproc-per-node=4", "t.py"} << 1 << 4;
        QTest::newRow("python -u -m torch.distributed.launch")
            << QStringList{"python", "-u", "-m", "torch.distributed.launch", "t.py"} << 1 << 2;
    }
    void aLauncherIsNeverWrappedAgain() {
        QFETCH(QStringList, command);
        QFETCH(int, nodes);
        QFETCH(int, gpus);
        JobSpec j;
        for (const auto& c : command)
            j.command.push_back(c.toStdString());
        j.nodes = nodes;
        j.gpusPerNode = gpus;
        QCOMPARE(toQt(nodeArgv(j, "job-0.job")), command); // its own arguments, passed through
    }

    void launcherRendezvousEnvironment_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("masterAddr");
        QTest::addColumn<QStringList>("expected"); // NAME=VALUE of PET_NNODES, PET_NPROC_PER_NODE,
                                                   // PET_MASTER_ADDR, PET_MASTER_PORT
        QTest::newRow("torchrun, one node")
            << QStringList{"torchrun", "t.py"} << 1 << "localhost"
            << QStringList{"PET_NNODES=1", "PET_NPROC_PER_NODE=4", "PET_MASTER_ADDR=<unset>",
                           "PET_MASTER_PORT=<unset>"};
        QTest::newRow("torchrun, 2 nodes")
            << QStringList{"torchrun", "t.py"} << 2 << "job-0.job"
            << QStringList{"PET_NNODES=2", "PET_NPROC_PER_NODE=4", "PET_MASTER_ADDR=job-0.job",
                           "PET_MASTER_PORT=29500"};
        QTest::newRow("python -m torch.distributed.run, 2 nodes")
            << QStringList{"python", "-m", "torch.distributed.run", "t.py"} << 2 << "job-0.job"
            << QStringList{"PET_NNODES=2", "PET_NPROC_PER_NODE=4", "PET_MASTER_ADDR=job-0.job",
                           "PET_MASTER_PORT=29500"};
        QTest::newRow("torchrun under the Kubeflow operator: its PET_*")
            << QStringList{"torchrun", "t.py"} << 2 << ""
            << QStringList{"PET_NNODES=<unset>", "PET_NPROC_PER_NODE=<unset>", "PET_MASTER_ADDR=<unset>",
                           "PET_MASTER_PORT=<unset>"};
        QTest::newRow("deepspeed finds its GPUs itself")
            << QStringList{"deepspeed", "t.py"} << 1 << "localhost"
            << QStringList{"PET_NNODES=<unset>", "PET_NPROC_PER_NODE=<unset>", "PET_MASTER_ADDR=<unset>",
                           "PET_MASTER_PORT=<unset>"};
        QTest::newRow("a wrapped program: torchrun is told on its command line")
            << QStringList{"python", "t.py"} << 1 << "localhost"
            << QStringList{"PET_NNODES=<unset>", "PET_NPROC_PER_NODE=<unset>", "PET_MASTER_ADDR=<unset>",
                           "PET_MASTER_PORT=<unset>"};
    }
    void launcherRendezvousEnvironment() {
        QFETCH(QStringList, command);
        QFETCH(int, nodes);
        QFETCH(QString, masterAddr);
        QFETCH(QStringList, expected);
        JobSpec j;
        for (const auto& c : command)
            j.command.push_back(c.toStdString());
        j.nodes = nodes;
        j.gpusPerNode = 4;
        j.traced = false;
        const EnvList env = workloadEnvironment(j, "/lib/c.so", "/traces", masterAddr.toStdString());
        QStringList got;
        for (const char* name : {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_MASTER_ADDR", "PET_MASTER_PORT"})
            got << QString(name) + "=" + envValue(env, name);
        QCOMPARE(got, expected);
        // The configuration's own setting wins over cnp's default.
        setEnv(j.env, "PET_NPROC_PER_NODE", "2");
        QCOMPARE(envValue(workloadEnvironment(j, "/lib/c.so", "/traces", masterAddr.toStdString()),
                          "PET_NPROC_PER_NODE"),
                 "2");
    }

    void torchrunWhenANodeHasSeveralGpus() {
        QFETCH(QStringList, command);
        QFETCH(int, nodes);
        QFETCH(int, gpus);
        QFETCH(QStringList, argv);
        JobSpec j;
        for (const auto& c : command)
            j.command.push_back(c.toStdString());
        j.nodes = nodes;
        j.gpusPerNode = gpus;
        QCOMPARE(toQt(nodeArgv(j, "job-0.job")), argv);
    }

    void collectorEnvironmentOnTracedJobsOnly() {
        auto plan = testing::twoConfigPlan({"train"}, 1, 1);
        plan.capture = "steps:2:3";
        plan.configurations[0].resolved.env.push_back({"CNP_OUTPUT_DIR", "/user/choice", {}});
        const auto jobs = planJobs(plan, {}, "/out");
        const EnvList traced = workloadEnvironment(jobs[0], "/lib/c.so", "/traces", "localhost");
        QCOMPARE(envValue(traced, "CUDA_INJECTION64_PATH"), "/lib/c.so");
        QCOMPARE(envValue(traced, "NVTX_INJECTION64_PATH"), "/lib/c.so");
        QCOMPARE(envValue(traced, "CNP_OUTPUT_DIR"), "/traces"); // the collector's settings win
        QCOMPARE(envValue(traced, "CNP_CONFIG"), "Base");
        QCOMPARE(envValue(traced, "CNP_RUN"), "Base-r1");
        QCOMPARE(envValue(traced, "CNP_CAPTURE"), "steps:2:3:step");
        QCOMPARE(envValue(traced, "CNP_IMAGE"), "localhost/cnp-test:1");
        QCOMPARE(envValue(traced, "HARNESS_THROUGHPUT"), "1000");
        const EnvList untraced = workloadEnvironment(jobs[1], "/lib/c.so", "/traces", "localhost");
        QCOMPARE(envValue(untraced, "CUDA_INJECTION64_PATH"), "<unset>");
        QCOMPARE(envValue(untraced, "NVTX_INJECTION64_PATH"), "<unset>");
        QCOMPARE(envValue(untraced, "HARNESS_THROUGHPUT"), "1000");
    }

    void localCommandLineIsEnvThenArgv() {
        const auto plan = testing::twoConfigPlan({"/bin/train", "$(rm -rf ~)"});
        const auto jobs = planJobs(plan, {}, "/out");
        LocalBackend local("/lib/c.so");
        const QStringList argv = toQt(local.commandLine(jobs[1]));
        QCOMPARE(argv.first(), "env");
        QVERIFY(argv.contains("HARNESS_THROUGHPUT=2000"));
        QVERIFY(argv.contains("CUDA_INJECTION64_PATH=/lib/c.so"));
        QCOMPARE(argv.mid(argv.size() - 3), (QStringList{"/bin/train", "$(rm -rf ~)", "--opt"}));
        QCOMPARE(QString::fromStdString(local.describe(jobs[1])).count('\n'), 1);
    }

    // A local job runs beside its plan file: the workload's relative paths never depend on where cnp (or
    // the workbench) was started (issue 32.5: `python train.py` was looked for in the GUI's folder).
    void localJobRunsInThePlansFolder_data() {
        QTest::addColumn<QString>("workingDir");
        QTest::addColumn<QString>("expected"); // "PLAN" stands for the plan's folder
        QTest::newRow("none: the plan's folder") << ""
                                                 << "PLAN";
        QTest::newRow("relative: under the plan's folder") << "sub/dir"
                                                           << "PLAN/sub/dir";
        QTest::newRow("dot-dot") << "../x"
                                 << "PLANPARENT/x";
        QTest::newRow("absolute: kept") << "/abs/work"
                                        << "/abs/work";
    }
    void localJobRunsInThePlansFolder() {
        QFETCH(QString, workingDir);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("plans"));
        const QString planDir = QDir(dir.path()).filePath("plans");
        auto plan = testing::twoConfigPlan({"./train.sh"});
        plan.path = (planDir + "/plan.yaml").toStdString();
        plan.workload.workingDir = workingDir.toStdString();
        const auto jobs = planJobs(plan, {}, "/out");
        expected.replace("PLANPARENT", dir.path()).replace("PLAN", planDir);
        QCOMPARE(QString::fromStdString(localWorkingDir(jobs[0])), expected);
    }

    void localJobRunsInThePlansFolderOfARelativePlanPath() {
        QTemporaryDir dir;
        const QString keep = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        QVERIFY(QDir(dir.path()).mkpath("plans"));
        auto plan = testing::twoConfigPlan({"./train.sh"});
        plan.path = "plans/plan.yaml"; // as typed on the command line, from `dir`
        const QString wd = QString::fromStdString(localWorkingDir(planJobs(plan, {}, "/out")[0]));
        QDir::setCurrent(keep);
        QCOMPARE(QFileInfo(wd).canonicalFilePath(), QFileInfo(dir.filePath("plans")).canonicalFilePath());
    }

    void aPlanBuiltInCodeKeepsItsWorkingDir() {
        auto plan = testing::twoConfigPlan({"/bin/train"}); // path /plans/test-plan.yaml: no such folder
        QCOMPARE(localWorkingDir(planJobs(plan, {}, "/out")[0]), std::string());
    }

    // Issue 32.5: a failed job's message carries what its log said last (the cause was only in node0.log).
    void logTailOfAFailedJob_data() {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QString>("tail");
        QTest::newRow("python's complaint")
            << QByteArray("step 1\npython: can't open file '/home/u/train.py': [Errno 2] No such file or "
                          "directory\n")
            << 400
            << "step 1 | python: can't open file '/home/u/train.py': [Errno 2] No such file or directory";
        QTest::newRow("last three non-blank lines")
            << QByteArray("a\nb\n\n  c  \n\t\nd\n\n") << 400 << "b | c | d";
        QTest::newRow("CRLF and a progress bar")
            << QByteArray("x\r\n10%\r50%\r90%\r\nError: boom\r\n") << 400 << "x | 90% | Error: boom";
        QTest::newRow("no final newline") << QByteArray("one\ntwo") << 400 << "one | two";
        QTest::newRow("control characters") << QByteArray("\x1b[31mred\x1b[0m\n") << 400 << "[31mred [0m";
        QTest::newRow("empty") << QByteArray("\n \n") << 400 << "";
        QTest::newRow("cut at the front") << QByteArray("abcdefghij\n") << 4 << "…ghij";
        QTest::newRow("never inside a character") << QByteArray("ééé\n") << 3 << "…é";
    }
    void logTailOfAFailedJob() {
        QFETCH(QByteArray, log);
        QFETCH(int, maxChars);
        QFETCH(QString, tail);
        QCOMPARE(QString::fromStdString(logTail(log.toStdString(), 3, std::size_t(maxChars))), tail);
    }

    void localUntracedJobUnsetsTheCallersInjection() {
        auto plan = testing::twoConfigPlan({"/bin/train"}, 1, 1);
        plan.configurations[1].resolved.env.push_back({"NVTX_INJECTION64_PATH", "/my/nvtx.so", {}});
        const auto jobs = planJobs(plan, {}, "/out");
        LocalBackend local("/lib/c.so");
        const QStringList untraced = toQt(local.commandLine(jobs[1]));
        // CNP_IMAGE too, traced or not: a local run never ran an image, whatever the caller exported.
        QCOMPARE(untraced.mid(0, 7), (QStringList{"env", "-u", "CNP_IMAGE", "-u", "CUDA_INJECTION64_PATH",
                                                  "-u", "NVTX_INJECTION64_PATH"}));
        const QStringList traced = toQt(local.commandLine(jobs[0]));
        QCOMPARE(traced.mid(0, 3), (QStringList{"env", "-u", "CNP_IMAGE"}));
        QCOMPARE(traced.count("-u"), 1); // the injection is set to the collector, which wins anyway
        // A configuration that sets one itself keeps it (its choice), the other is still unset.
        const QStringList own = toQt(local.commandLine(jobs[3]));
        QCOMPARE(own.mid(0, 5), (QStringList{"env", "-u", "CNP_IMAGE", "-u", "CUDA_INJECTION64_PATH"}));
        QVERIFY(own.contains("NVTX_INJECTION64_PATH=/my/nvtx.so"));
        QVERIFY(!own.contains("NVTX_INJECTION64_PATH"));
    }

    void containerRunArgv_data() {
        QTest::addColumn<QString>("gpuFlags");
        QTest::addColumn<bool>("ipcHost");
        QTest::addColumn<QStringList>("mustHave"); // consecutive words
        QTest::addColumn<QStringList>("mustNotHave");
        QTest::newRow("docker-style GPUs, --ipc=host")
            << "--gpus all" << true << QStringList{"--gpus", "all", "--ipc=host"}
            << QStringList{"--privileged"};
        QTest::newRow("CDI GPUs, no --ipc=host")
            << "--device nvidia.com/gpu=all" << false << QStringList{"--device", "nvidia.com/gpu=all"}
            << QStringList{"--ipc=host", "--privileged"};
    }
    void containerRunArgv() {
        QFETCH(QString, gpuFlags);
        QFETCH(bool, ipcHost);
        QFETCH(QStringList, mustHave);
        QFETCH(QStringList, mustNotHave);
        auto plan = testing::twoConfigPlan({"/bin/train", "--x"});
        plan.configurations[0].resolved.ipcHost = ipcHost;
        plan.configurations[0].resolved.mounts.push_back({"/data", "/mnt/data", true, "", {}});
        auto jobs = planJobs(plan, {}, "/out");
        ContainerSettings s;
        s.collectorLibrary = "/build/lib/libcnp-collector.so";
        s.gpuFlags = splitWords(gpuFlags.toStdString());
        s.extraArgs = {"--ulimit", "nofile=20000:20000"};
        s.planName = "test plan";
        const QStringList a = toQt(ContainerBackend(s).runArgv(jobs[0]));
        QCOMPARE(a.mid(0, 6), (QStringList{"podman", "run", "--rm", "--name",
                                           QString::fromStdString(jobs[0].jobName), "--init"}));
        s.initPath = "/usr/bin/tini-static";
        QCOMPARE(toQt(ContainerBackend(s).runArgv(jobs[0])).mid(5, 3),
                 (QStringList{"--init", "--init-path", "/usr/bin/tini-static"}));
        const QString joined = a.join('\x1f');
        QVERIFY2(joined.contains(mustHave.join('\x1f')), qPrintable(a.join(' ')));
        for (const auto& bad : mustNotHave)
            QVERIFY(!a.contains(bad));
        QVERIFY(joined.contains(
            QString("-v\x1f/build/lib/libcnp-collector.so:%1:ro").arg(kContainerCollectorPath)));
        QVERIFY(joined.contains(QString("-v\x1f/out/%1:%2:rw")
                                    .arg(QString::fromStdString(jobs[0].jobName), kContainerOutputDir)));
        QVERIFY(joined.contains("-v\x1f/data:/mnt/data:ro"));
        QVERIFY(joined.contains(QString("-e\x1f"
                                        "CUDA_INJECTION64_PATH=%1")
                                    .arg(kContainerCollectorPath)));
        QVERIFY(joined.contains("-e\x1fHARNESS_THROUGHPUT=1000"));
        QVERIFY(joined.contains("--label\x1f"
                                "cnp.config=Base"));
        QCOMPARE(a.mid(a.size() - 5), (QStringList{"--ulimit", "nofile=20000:20000", "localhost/cnp-test:1",
                                                   "/bin/train", "--x"}));
    }

    void severalNodesAreRefusedOnOneMachine_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("local") << "local";
        QTest::newRow("podman") << "podman";
        QTest::newRow("docker") << "docker";
    }
    void severalNodesAreRefusedOnOneMachine() {
        QFETCH(QString, backend);
        auto plan = testing::twoConfigPlan({"python", "train.py"});
        plan.resources.nodes = 2;
        plan.resources.gpusPerNode = 8;
        const JobSpec job = planJobs(plan, {}, "/out")[0];
        ContainerSettings s;
        s.engine = backend.toStdString();
        s.collectorLibrary = "/lib/c.so";
        try {
            if (backend == "local")
                LocalBackend("/lib/c.so").describe(job);
            else
                ContainerBackend(s).describe(job);
            QFAIL("a 2-node job was accepted (it would wait for a second node at localhost)");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()),
                     "/plans/test-plan.yaml: configuration 'Base': the plan asks for 2 nodes, but the " +
                         backend +
                         " backend runs one node (this machine); set resources.nodes: 1, or run it with "
                         "--backend kubernetes");
        }
    }

    void containerBackendRefusesPrivilege_data() {
        QTest::addColumn<QString>("field"); // extraArgs, gpuFlags, image, mount
        QTest::addColumn<QStringList>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("--privileged") << "extraArgs" << QStringList{"--privileged"} << "--privileged gives";
        QTest::newRow("--cap-add=ALL")
            << "extraArgs" << QStringList{"--cap-add=ALL"} << "--cap-add ALL grants";
        QTest::newRow("seccomp=unconfined")
            << "extraArgs" << QStringList{"--security-opt", "seccomp=unconfined"}
            << "seccomp=unconfined lifts";
        QTest::newRow("--pid=host") << "extraArgs" << QStringList{"--pid=host"} << "--pid=host shares";
        QTest::newRow("--device=/dev/mem")
            << "extraArgs" << QStringList{"--device=/dev/mem"} << "/dev/mem hands";
        QTest::newRow("-v /:/host") << "extraArgs" << QStringList{"-v", "/:/host"} << "the host's root";
        QTest::newRow("gpu flags --privileged")
            << "gpuFlags" << QStringList{"--privileged"} << "--privileged gives";
        QTest::newRow("image --privileged") << "image" << QStringList{"--privileged"} << "is an option";
        QTest::newRow("image -v=/:/host") << "image" << QStringList{"-v=/:/host"} << "is an option";
        QTest::newRow("writable host root mount") << "mount" << QStringList{"/"} << "the host's root";
    }
    void containerBackendRefusesPrivilege() {
        QFETCH(QString, field);
        QFETCH(QStringList, value);
        QFETCH(QString, message);
        auto plan = testing::twoConfigPlan({"/bin/train"});
        if (field == "image")
            plan.configurations[0].resolved.image = value[0].toStdString();
        if (field == "mount")
            plan.configurations[0].resolved.mounts.push_back(
                {value[0].toStdString(), "/host", false, "", {}});
        ContainerSettings s;
        s.collectorLibrary = "/lib/c.so";
        for (const auto& w : value) {
            if (field == "extraArgs")
                s.extraArgs.push_back(w.toStdString());
            else if (field == "gpuFlags")
                s.gpuFlags.push_back(w.toStdString());
        }
        try {
            const auto argv = ContainerBackend(s).runArgv(planJobs(plan, {}, "/out")[0]);
            QFAIL(qPrintable("built: " + toQt(argv).join(' ')));
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("/plans/test-plan.yaml: ") &&
                         QString(e.what()).contains(message),
                     e.what());
        }
    }

    void containerMountPathsTheEngineWouldMisread() {
        auto plan = testing::twoConfigPlan({"/bin/train"});
        plan.configurations[0].resolved.mounts.push_back({"/data:/etc", "/mnt", true, "", {}});
        ContainerSettings s;
        s.collectorLibrary = "/lib/c.so";
        QVERIFY_THROWS_EXCEPTION(InputError, ContainerBackend(s).runArgv(planJobs(plan, {}, "/out")[0]));
    }

    void logFigures_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("regex");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("throughput"); // -1 = none
        QTest::addColumn<double>("stepTime");   // -1 = none
        QTest::addColumn<int>("matches");
        const QString tput = R"(throughput ([0-9.]+) tokens/s)";
        QTest::newRow("odd count: the middle") << "a throughput 1200 tokens/s\nthroughput 1000 tokens/s\nx\n"
                                                  "throughput 1100 tokens/s"
                                               << tput << "tokens/s" << 1100.0 << -1.0 << 3;
        QTest::newRow("even count: mean of the middle two")
            << "throughput 10 tokens/s\nthroughput 40 tokens/s\nthroughput 20 tokens/s\nthroughput 30 "
               "tokens/s\n"
            << tput << "tokens/s" << 25.0 << -1.0 << 4;
        QTest::newRow("not a number is skipped") << "throughput 1.2.3 tokens/s\nthroughput 7 tokens/s\n"
                                                 << tput << "tokens/s" << 7.0 << -1.0 << 1;
        QTest::newRow("ms/step into seconds")
            << "step 1 took 250 ms\nstep 2 took 350 ms\nstep 3 took 300 ms\n"
            << R"(took ([0-9.]+) ms)"
            << "ms/step" << -1.0 << 0.3 << 3;
        QTest::newRow("no match") << "nothing here\n" << tput << "tokens/s" << -1.0 << -1.0 << 0;
    }
    void logFigures() {
        QFETCH(QString, log);
        QFETCH(QString, regex);
        QFETCH(QString, unit);
        QFETCH(double, throughput);
        QFETCH(double, stepTime);
        QFETCH(int, matches);
        plan::LogMetric m;
        m.regex = regex.toStdString();
        m.unit = unit.toStdString();
        const auto f = parseLogFigures(log.toStdString(), m, "p.yaml");
        QCOMPARE(f.matches, matches);
        QCOMPARE(f.throughput.value_or(-1), throughput);
        QCOMPARE(f.stepTimeSeconds.value_or(-1), stepTime);
    }

    void logMetricErrorsNameThePlan_data() {
        QTest::addColumn<QString>("regex");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad regex") << "(unclosed"
                                   << "tokens/s"
                                   << "p.yaml: logMetric regex does not compile";
        QTest::newRow("no group") << "throughput [0-9]+"
                                  << "tokens/s"
                                  << "p.yaml: logMetric regex needs a capture";
        QTest::newRow("bad unit") << "(x)"
                                  << "furlongs"
                                  << "p.yaml: logMetric unit 'furlongs'";
    }
    void logMetricErrorsNameThePlan() {
        QFETCH(QString, regex);
        QFETCH(QString, unit);
        QFETCH(QString, message);
        plan::LogMetric m{regex.toStdString(), unit.toStdString(), {}};
        try {
            parseLogFigures("x\n", m, "p.yaml");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(message), e.what());
        }
    }

    void progressJsonLines_data() {
        QTest::addColumn<int>("rank"); // -1 = none
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("json");
        QTest::newRow("job-level") << -1 << int(JobState::Running)
                                   << "{\"type\":\"run\",\"config\":\"Base "
                                      "\\\"q\\\"\",\"repeat\":2,\"rank\":null,\"state\":\"running\","
                                      "\"message\":\"m\\n\"}";
        QTest::newRow("per rank")
            << 3 << int(JobState::Failed)
            << "{\"type\":\"run\",\"config\":\"Base \\\"q\\\"\",\"repeat\":2,\"rank\":3,\"state\":\"failed\","
               "\"message\":\"m\\n\"}";
    }
    void progressJsonLines() {
        QFETCH(int, rank);
        QFETCH(int, state);
        QFETCH(QString, json);
        ProgressEvent e{"Base \"q\"", 2, rank < 0 ? std::nullopt : std::optional<int>(rank), JobState(state),
                        "m\n"};
        QCOMPARE(QString::fromStdString(toJsonLine(e)), json);
        RunSummary s;
        for (JobState st :
             {JobState::Done, JobState::Done, JobState::Failed, JobState::Skipped, JobState::Cancelled})
            s.count(st);
        QCOMPARE(QString::fromStdString(toJsonLine(s)),
                 R"({"type":"summary","done":2,"failed":1,"skipped":1,"cancelled":1,"detached":0})");
    }
};

QTEST_GUILESS_MAIN(TestLaunchJobs)
#include "tst_launchjobs.moc"
