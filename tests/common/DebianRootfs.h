#pragma once
// A "clean Debian" root file system for testing a .deb without a registry: the files of exactly the
// packages a Depends field pulls in (its closure over Depends and Pre-Depends, alternatives and virtual
// packages resolved to what this machine has installed, as apt would resolve them here), hard-linked from
// this machine's own installed copies (a few thousand links, under a second; copied where a link is
// refused). Nothing else of the host is in it, so a library the package needs but does not declare is
// missing there, and the program fails to start. Run it with `podman run --read-only --rootfs DIR`:
// read-only, because its files are the host's own inodes.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QStringList>

#include <sys/stat.h>
#include <unistd.h>

namespace cnp::testing {

class DebianRootfs {
public:
    // The installed packages `depends` (a Depends field's value) needs, itself included transitively.
    // Empty with `why` set when dpkg-query fails.
    static QStringList closure(const QString& depends, QString& why) {
        QProcess q;
        q.start("dpkg-query",
                {"-W", "-f=${Package}\t${db:Status-Abbrev}\t${Depends}, ${Pre-Depends}\t${Provides}\n"});
        if (!q.waitForFinished(60000) || q.exitCode() != 0) {
            why = "dpkg-query -W failed: " + QString::fromUtf8(q.readAllStandardError());
            return {};
        }
        QHash<QString, QString> dependsOf; // installed package -> its Depends, Pre-Depends
        QHash<QString, QString> provider;  // virtual package -> an installed package providing it
        for (const QString& line : QString::fromUtf8(q.readAllStandardOutput()).split('\n')) {
            const QStringList f = line.split('\t');
            if (f.size() != 4 || !f[1].startsWith("ii"))
                continue;
            dependsOf.insert(f[0], f[2]);
            for (const QString& p : f[3].split(',', Qt::SkipEmptyParts))
                provider.insert(p.trimmed().section(' ', 0, 0), f[0]);
        }
        QSet<QString> seen;
        QStringList todo{depends};
        while (!todo.isEmpty()) {
            const QString field = todo.takeLast();
            for (const QString& clause : field.split(',', Qt::SkipEmptyParts)) {
                // "a (>= 1) | b": the first alternative installed here.
                for (const QString& alt : clause.split('|')) {
                    QString name = alt.trimmed().section(' ', 0, 0).section(':', 0, 0);
                    if (name.isEmpty())
                        continue;
                    if (!dependsOf.contains(name))
                        name = provider.value(name);
                    if (name.isEmpty())
                        continue;
                    if (!seen.contains(name)) {
                        seen.insert(name);
                        todo << dependsOf.value(name);
                    }
                    break;
                }
            }
        }
        QStringList out(seen.begin(), seen.end());
        out.sort();
        return out;
    }

    // Makes `root` hold every file of `packages` at its installed path, with Debian 12's merged /usr
    // (/bin, /lib, /lib64, /sbin are links into /usr), plus an empty /tmp. False with `why` set on failure.
    static bool populate(const QString& root, const QStringList& packages, QString& why) {
        QProcess q;
        q.start("dpkg-query", QStringList{"-L"} + packages);
        if (!q.waitForFinished(60000) || q.exitCode() != 0) {
            why = "dpkg-query -L failed: " + QString::fromUtf8(q.readAllStandardError());
            return false;
        }
        QDir().mkpath(root + "/usr");
        for (const char* d : {"bin", "lib", "lib64", "sbin"}) {
            QDir().mkpath(root + "/usr/" + d);
            QFile::link(QStringLiteral("usr/") + d, root + "/" + d);
        }
        QDir().mkpath(root + "/tmp");
        ::chmod(QFile::encodeName(root + "/tmp").constData(), 01777);
        for (const QString& path : QString::fromUtf8(q.readAllStandardOutput()).split('\n')) {
            if (!path.startsWith('/'))
                continue; // blank separators, "package diverts others to: ..."
            if (!placeOne(root, path, why))
                return false;
        }
        return true;
    }

private:
    // One listed path: its directory, symbolic link or regular file under `root`.
    static bool placeOne(const QString& root, const QString& path, QString& why) {
        const QFileInfo info(path);
        const QString target = root + path;
        if (info.isSymLink()) {
            if (QFileInfo(target).isSymLink() || QFileInfo::exists(target))
                return true;
            QDir().mkpath(QFileInfo(target).absolutePath());
            char buf[4096]; // the link's own text, relative or not, as dpkg installed it
            const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buf, sizeof buf);
            if (n > 0 &&
                ::symlink(QByteArray(buf, int(n)).constData(), QFile::encodeName(target).constData()) == 0)
                return true;
            why = "cannot recreate the link " + path;
            return false;
        }
        if (info.isDir()) {
            if (QDir().mkpath(target))
                return true;
            why = "cannot make " + target;
            return false;
        }
        if (!info.isFile() || QFileInfo::exists(target))
            return true; // dpkg lists files another package diverted or removed: not there to place
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (::link(QFile::encodeName(path).constData(), QFile::encodeName(target).constData()) == 0 ||
            QFile::copy(path, target))
            return true;
        why = "cannot link or copy " + path + " into " + root;
        return false;
    }
};

} // namespace cnp::testing
