#pragma once
// What the window shows with no scenario open: the sample scenarios (name, description,
// size) and the recently opened files, each one click (or Enter) away.

#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace cb::views {

class StartPage : public QWidget
{
    Q_OBJECT

public:
    explicit StartPage(QWidget *parent = nullptr);

    /// Lists the *.json scenarios of these folders (missing folders are skipped).
    void setSampleFolders(const QStringList &folders);
    void setRecentFiles(const QStringList &files);
    int sampleCount() const;
    QString samplePath(int row) const;

signals:
    void openRequested(const QString &path);
    void openDialogRequested();
    void newRequested();

private:
    void activate(QListWidgetItem *item);

    QListWidget *m_samples;
    QListWidget *m_recent;
};

} // namespace cb::views
