// The Debian package (resources/packaging/Packaging.cmake, docs/install.md), built with cpack from this build
// and checked as a user meets it:
//  - its control fields and file list (programs, collector, resources, desktop entry, MIME types, icon);
//  - the desktop entry passes desktop-file-validate, the MIME XML compiles with update-mime-database
//    into globs for *.cnpdb and cnp-study.json;
//  - unpacked into a folder of its own (dpkg-deb -x, no install), its programs run from there and read
//    their own resources (a broken rules file in that folder makes ingest fail naming it);
//  - in a container holding only the packages its Depends pulls in (tests/common/DebianRootfs.h), `cnp
//    --version`, an ingest of the bundled demo traces and `cnp ablation --json` run, and print what this
//    build's cnp prints on the same traces; the workbench renders its Ablation page offscreen there.
// Needs cpack (cmake), dpkg-deb, desktop-file-validate (desktop-file-utils), update-mime-database
// (shared-mime-info) and podman (scripts/install-deps installs them); a missing tool fails the test and
// says which.
#include "ContainerTestImage.h"
#include "DebianRootfs.h"
#include "ProgramRunner.h"
#include "TestPaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

namespace {

using Run = ProgramRun;

// Runs `program` to its end (at most `timeoutMs`); `env` entries are added to this environment, and
// CNP_RESOURCE_DIR is always removed, so a program finds its resources by itself.
Run run(const QString& program, const QStringList& args, const QStringList& env = {},
        int timeoutMs = 180000) {
    auto e = QProcessEnvironment::systemEnvironment();
    e.remove("CNP_RESOURCE_DIR");
    for (const QString& kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    return runProgram(program, args, e, timeoutMs);
}

QByteArray describe(const Run& r) {
    return "exit " + QByteArray::number(r.code) + "\nstdout:\n" + r.out.right(2000) + "\nstderr:\n" +
           r.err.right(2000);
}

// The demo traces the package ships (resources/demo), two configurations of one H200 run each.
const QStringList kDemoRuns{"demo_base.json.gz", "demo_compile.json.gz"};
const QStringList kDemoConfigs{"Base", "Compile"};

} // namespace

class TestDebPackage : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString deb_;       // the package cpack made
    QString unpacked_;  // dpkg-deb -x of it
    QString version_;   // the project's, as this build's cnp prints it
    QStringList files_; // the package's paths, without the leading "."

    QString field(const QString& name) const {
        const Run r = run("dpkg-deb", {"-f", deb_, name});
        return QString::fromUtf8(r.out).trimmed();
    }
    // `ws` ingested from the demo traces under `demoDir` by `cnp`; empty, or why not.
    static QByteArray ingestDemo(const QString& cnp, const QString& ws, const QString& demoDir) {
        for (int i = 0; i < kDemoRuns.size(); ++i) {
            const Run r = run(cnp, {"ingest", ws, demoDir + "/" + kDemoRuns[i], "--run",
                                    kDemoConfigs[i].toLower(), "--config", kDemoConfigs[i]});
            if (r.code != 0)
                return describe(r);
        }
        return {};
    }

private slots:
    void initTestCase();
    void controlFields();
    void fileList();
    void resourcesAreTheSourceTree();
    void desktopEntry();
    void mimeTypes();
    void runsFromAnUnpackedFolder();
    void runsInACleanContainer();
};

void TestDebPackage::initTestCase() {
    QVERIFY(dir_.isValid());
    for (const char* tool : {"cpack", "dpkg-deb", "desktop-file-validate", "update-mime-database", "podman"})
        QVERIFY2(!QStandardPaths::findExecutable(tool).isEmpty(),
                 qPrintable(QString("%1 is not installed (scripts/install-deps installs it)").arg(tool)));
    const Run v = run(testpaths::cliPath(), {"--version"});
    QCOMPARE(v.code, 0);
    version_ = QString::fromUtf8(v.out).trimmed().section(' ', 1);
    QVERIFY(!version_.isEmpty());

    const Run pack = run("cpack", {"-G", "DEB", "--config", testpaths::buildDir() + "/CPackConfig.cmake",
                                   "-B", dir_.path() + "/pkg"});
    QVERIFY2(pack.code == 0, describe(pack).constData());
    const QStringList debs = QDir(dir_.path() + "/pkg").entryList({"*.deb"}, QDir::Files);
    QVERIFY2(debs.size() == 1, qPrintable("cpack made " + debs.join(", ")));
    deb_ = dir_.path() + "/pkg/" + debs.first();

    const Run contents = run("dpkg-deb", {"-c", deb_});
    QCOMPARE(contents.code, 0);
    for (const QString& line : QString::fromUtf8(contents.out).split('\n', Qt::SkipEmptyParts))
        files_ << line.section(' ', -1).mid(1); // "./usr/bin/cnp" -> "/usr/bin/cnp"
    unpacked_ = dir_.path() + "/unpacked";
    const Run x = run("dpkg-deb", {"-x", deb_, unpacked_});
    QVERIFY2(x.code == 0, describe(x).constData());
}

void TestDebPackage::controlFields() {
    QCOMPARE(field("Package"), QString("cnp-workbench"));
    QCOMPARE(field("Version"), version_);
    QCOMPARE(field("Architecture"), QString("amd64"));
    const QString depends = field("Depends");
    // From dpkg-shlibdeps, so the runtime libraries of what is linked, each with its Debian package name.
    for (const char* lib :
         {"libqt6widgets6", "libqt6gui6", "libqt6core6", "libqt6svg6", "libqcustomplot2.1-qt6",
          "libsqlite3-0", "libyaml-cpp0.7", "libre2-9", "zlib1g", "libcairo2", "libc6"})
        QVERIFY2(depends.contains(QLatin1String(lib) + " "),
                 qPrintable(lib + QString(" missing in ") + depends));
    QVERIFY2(!depends.contains("-dev"), qPrintable(depends)); // no build dependency leaks in
    QVERIFY2(!depends.contains("cuda") && !depends.contains("cupti"), qPrintable(depends));
}

void TestDebPackage::fileList() {
    for (const char* path :
         {"/usr/bin/cnp", "/usr/bin/cnp-workbench", "/usr/share/cnp/resources/rules/categories.json",
          "/usr/share/cnp/resources/demo/demo_base.json.gz", "/usr/share/applications/cnp-workbench.desktop",
          "/usr/share/mime/packages/cnp-workbench.xml",
          "/usr/share/icons/hicolor/scalable/apps/cnp-workbench.svg"})
        QVERIFY2(files_.contains(path), path);
    if (!testpaths::collectorPath().isEmpty())
        QVERIFY(files_.contains("/usr/lib/cnp/libcnp-collector.so")); // where cnp looks: bin/../lib/cnp
    for (const QString& f : files_) {
        QVERIFY2(f.startsWith("/usr/"), qPrintable(f));
        QVERIFY2(!f.contains("/packaging") && !f.contains("/container/"), qPrintable(f)); // build-only files
    }
    // Installed programs carry no search path into this build folder.
    for (const char* program : {"/usr/bin/cnp", "/usr/bin/cnp-workbench"}) {
        const Run d = run("readelf", {"-d", unpacked_ + program});
        QCOMPARE(d.code, 0);
        QVERIFY2(!d.out.contains(testpaths::buildDir().toUtf8()), d.out.constData());
    }
}

// Every shipped resource is the source tree's file, byte for byte, and none is left out.
void TestDebPackage::resourcesAreTheSourceTree() {
    const QString src = testpaths::sourceDir() + "/resources";
    int compared = 0;
    QDirIterator it(src, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = path.mid(src.size());
        if (rel.startsWith("/packaging/") || rel.startsWith("/container/"))
            continue;
        QFile a(path), b(unpacked_ + "/usr/share/cnp/resources" + rel);
        QVERIFY2(b.open(QIODevice::ReadOnly), qPrintable(rel + " is not in the package"));
        QVERIFY(a.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), qPrintable(rel));
        ++compared;
    }
    QVERIFY(compared >= 8);
}

void TestDebPackage::desktopEntry() {
    const QString file = unpacked_ + "/usr/share/applications/cnp-workbench.desktop";
    const Run v = run("desktop-file-validate", {file});
    QVERIFY2(v.code == 0 && v.out.isEmpty(), describe(v).constData());
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.contains("\nExec=cnp-workbench %f\n")); // a double-clicked file is its argument
    QVERIFY(text.contains("\nIcon=cnp-workbench\n"));    // the icon the package installs
    QVERIFY(text.contains("MimeType=application/x-cnp-workspace;application/x-cnp-study;"));
}

// The MIME XML compiled as the desktop does (update-mime-database after install) maps both names.
void TestDebPackage::mimeTypes() {
    const QString db = dir_.path() + "/mime";
    QVERIFY(QDir().mkpath(db + "/packages"));
    QVERIFY(QFile::copy(unpacked_ + "/usr/share/mime/packages/cnp-workbench.xml",
                        db + "/packages/cnp-workbench.xml"));
    const Run u = run("update-mime-database", {db});
    QVERIFY2(u.code == 0 && !u.err.contains("rror"), describe(u).constData());
    QFile globs(db + "/globs2");
    QVERIFY(globs.open(QIODevice::ReadOnly));
    const QByteArray g = globs.readAll();
    QVERIFY2(g.contains("60:application/x-cnp-workspace:*.cnpdb"), g.constData());
    QVERIFY2(g.contains("80:application/x-cnp-study:cnp-study.json"), g.constData());
    QVERIFY(QFile::exists(db + "/application/x-cnp-workspace.xml"));
}

// Unpacked anywhere, the programs find their own resources: a rules file broken in that folder (and only
// there) makes an ingest fail naming it; repaired, the ingest and ablation equal this build's.
void TestDebPackage::runsFromAnUnpackedFolder() {
    const QString cnp = unpacked_ + "/usr/bin/cnp";
    const Run v = run(cnp, {"--version"});
    QCOMPARE(QString::fromUtf8(v.out).trimmed(), "cnp " + version_);
    const Run wv = run(unpacked_ + "/usr/bin/cnp-workbench", {"--version"}, {"QT_QPA_PLATFORM=offscreen"});
    QCOMPARE(QString::fromUtf8(wv.out).trimmed(), "cnp-workbench " + version_);

    const QString demo = unpacked_ + "/usr/share/cnp/resources/demo";
    const QString rules = unpacked_ + "/usr/share/cnp/resources/rules/categories.json";
    QFile r(rules);
    QVERIFY(r.open(QIODevice::ReadOnly));
    const QByteArray good = r.readAll();
    r.close();
    QVERIFY(r.open(QIODevice::WriteOnly | QIODevice::Truncate));
    r.write("{");
    r.close();
    const Run broken =
        run(cnp, {"ingest", dir_.path() + "/broken.cnpdb", demo + "/demo_base.json.gz", "--run", "b"});
    QVERIFY2(broken.code != 0 && broken.err.contains(rules.toUtf8()), describe(broken).constData());
    QVERIFY(r.open(QIODevice::WriteOnly | QIODevice::Truncate));
    r.write(good);
    r.close();

    const QString packaged = dir_.path() + "/unpacked.cnpdb", built = dir_.path() + "/built.cnpdb";
    QByteArray why = ingestDemo(cnp, packaged, demo);
    QVERIFY2(why.isEmpty(), why.constData());
    why = ingestDemo(testpaths::cliPath(), built, testpaths::sourceDir() + "/resources/demo");
    QVERIFY2(why.isEmpty(), why.constData());
    const Run a = run(cnp, {"ablation", packaged, "--json"});
    const Run b = run(testpaths::cliPath(), {"ablation", built, "--json"});
    QVERIFY2(a.code == 0 && b.code == 0, describe(a).constData());
    QVERIFY(a.out.contains("\"gain_vs_previous\": {")); // both configurations, compared
    QCOMPARE(a.out, b.out);
}

void TestDebPackage::runsInACleanContainer() {
    QString why;
    const QStringList packages = DebianRootfs::closure(field("Depends"), why);
    QVERIFY2(!packages.isEmpty(), qPrintable(why));
    QVERIFY(packages.contains("libqt6widgets6") && packages.contains("libc6"));
    const QString root = dir_.path() + "/rootfs";
    QVERIFY2(DebianRootfs::populate(root, packages, why), qPrintable(why));
    const Run copy = run("cp", {"-a", unpacked_ + "/usr/.", root + "/usr/"});
    QVERIFY2(copy.code == 0, describe(copy).constData());
    QVERIFY(!QFile::exists(root + "/usr/bin/podman") &&
            !QFile::exists(root + "/usr/bin/cmake")); // nothing else

    const QString conf = dir_.path() + "/containers.conf", out = dir_.path() + "/out";
    QVERIFY(writePodmanConf(conf));
    QVERIFY(QDir().mkpath(out));
    // Read-only: the root's files are this machine's own (hard links).
    const QStringList podman{"run",         "--rm",        "--network",
                             "none",        "--read-only", "-v",
                             out + ":/out", "-e",          "QT_QPA_PLATFORM=offscreen",
                             "--rootfs",    root};
    const QStringList env{"CONTAINERS_CONF=" + conf};
    const Run v = run("podman", podman + QStringList{"/usr/bin/cnp", "--version"}, env);
    QVERIFY2(v.code == 0, describe(v).constData());
    QCOMPARE(QString::fromUtf8(v.out).trimmed(), "cnp " + version_);
    for (int i = 0; i < kDemoRuns.size(); ++i) {
        const Run in = run("podman",
                           podman + QStringList{"/usr/bin/cnp", "ingest", "/out/ws.cnpdb",
                                                "/usr/share/cnp/resources/demo/" + kDemoRuns[i], "--run",
                                                kDemoConfigs[i].toLower(), "--config", kDemoConfigs[i]},
                           env);
        QVERIFY2(in.code == 0, describe(in).constData());
    }
    const QString built = dir_.path() + "/built-c.cnpdb";
    const QByteArray ingestWhy =
        ingestDemo(testpaths::cliPath(), built, testpaths::sourceDir() + "/resources/demo");
    QVERIFY2(ingestWhy.isEmpty(), ingestWhy.constData());
    const Run a =
        run("podman", podman + QStringList{"/usr/bin/cnp", "ablation", "/out/ws.cnpdb", "--json"}, env);
    const Run b = run(testpaths::cliPath(), {"ablation", built, "--json"});
    QVERIFY2(a.code == 0 && b.code == 0, describe(a).constData());
    QCOMPARE(a.out, b.out);

    const Run shot = run("podman",
                         podman + QStringList{"/usr/bin/cnp-workbench", "/out/ws.cnpdb", "--page", "ablation",
                                              "--screenshot", "/out/ablation.png", "--size", "1024x640"},
                         env);
    QVERIFY2(shot.code == 0, describe(shot).constData());
    const QImage image(out + "/ablation.png");
    QCOMPARE(image.size(), QSize(1024, 640));
    QSet<QRgb> colours; // a drawn page, not a blank one: bars, text and background
    for (int y = 0; y < image.height(); y += 8)
        for (int x = 0; x < image.width(); x += 8)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

QTEST_GUILESS_MAIN(TestDebPackage)
#include "tst_debpackage.moc"
