#pragma once
// Runs a function on the global thread pool and delivers its outcome on the receiver's (GUI) thread
// through a queued connection. The work gets nothing from the GUI thread but copies; anything that needs
// the workspace opens its own SQLite connection there (WAL lets readers run beside one writer).
// Exceptions thrown by the work become the error string of the outcome (never a crash). If `receiver`
// is destroyed first, the outcome is dropped.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include "core/EventsElsewhere.h"
#include "core/InputError.h"

#include <exception>
#include <functional>
#include <memory>
#include <optional>

namespace cnp::wb {

template <typename T> struct TaskOutcome {
    std::optional<T> value;
    QString error; // one readable line when the work threw
    bool cancelled = false;
    // The work read events a run keeps elsewhere (core/EventsElsewhere.h): the error says where, and the
    // events can be fetched.
    bool eventsElsewhere = false;
};

template <typename T>
void runInBackground(QObject* receiver, std::function<T()> work, std::function<void(TaskOutcome<T>&)> done) {
    using Outcome = TaskOutcome<T>;
    auto* watcher = new QFutureWatcher<std::shared_ptr<Outcome>>(receiver);
    QObject::connect(watcher, &QFutureWatcher<std::shared_ptr<Outcome>>::finished, receiver,
                     [watcher, done]() {
                         std::shared_ptr<Outcome> o = watcher->result();
                         watcher->deleteLater();
                         done(*o);
                     });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)]() {
        auto o = std::make_shared<Outcome>();
        try {
            o->value.emplace(work());
        } catch (const cnp::Cancelled&) {
            o->cancelled = true;
        } catch (const cnp::EventsElsewhere& e) {
            o->error = QString::fromStdString(e.what());
            o->eventsElsewhere = true;
        } catch (const std::exception& e) {
            o->error = QString::fromStdString(e.what());
        } catch (...) {
            o->error = QStringLiteral("unknown error");
        }
        return o;
    }));
}

} // namespace cnp::wb
