#pragma once
// Runs an importer (or any long read) on a worker thread behind a window-modal progress
// dialog with Cancel, for the import dialogs. The worker owns copies of what it reads; a
// cancelled read's result is dropped (importers cannot be interrupted, so the thread ends in
// the background and its result is thrown away).

#include <QEventLoop>
#include <QPointer>
#include <QProgressDialog>
#include <QThread>

#include <functional>
#include <memory>
#include <optional>

namespace cb::views {

/// `work`'s result, or nothing when the user cancelled (or `cancelAtOnce`, for tests).
template<typename T>
std::optional<T> runWithProgress(QWidget *parent, const QString &label, std::function<T()> work,
                                 bool cancelAtOnce = false)
{
    auto outcome = std::make_shared<std::optional<T>>();
    QThread *worker = QThread::create([outcome, work = std::move(work)] { outcome->emplace(work()); });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    const QPointer<QThread> running(worker);
    QProgressDialog progress(label, QObject::tr("Cancel"), 0, 0, parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    QEventLoop loop;
    bool cancelled = false;
    QObject::connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    QObject::connect(&progress, &QProgressDialog::canceled, &loop, [&] {
        cancelled = true;
        loop.quit();
    });
    worker->start();
    if (cancelAtOnce)
        progress.cancel();
    else
        loop.exec();
    cancelled = cancelled || progress.wasCanceled();
    progress.reset();
    if (cancelled)
        return std::nullopt;
    // The loop can return before the worker is done: once the application has been asked to
    // quit, every nested event loop returns at once. Wait for the result rather than read it
    // early; a deleted worker has finished.
    if (running)
        running->wait();
    return std::move(*outcome);
}

} // namespace cb::views
