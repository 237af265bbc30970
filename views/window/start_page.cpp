#include "window/start_page.h"

#include "models/quantity_format.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QVBoxLayout>

namespace cb::views {

namespace {

constexpr int kPathRole = Qt::UserRole + 1;

QListWidget *makeList(QWidget *parent)
{
    auto *list = new QListWidget(parent);
    list->setWordWrap(true);
    list->setSpacing(2);
    list->setUniformItemSizes(false);
    list->setIconSize(QSize(32, 32));
    list->setAlternatingRowColors(true);
    return list;
}

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    label->setFont(f);
    return label;
}

/// "name\ndescription\n64 nodes · 512 GPUs · 12 jobs" read cheaply from the file.
QString describeSample(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QFileInfo(path).fileName();
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QString name = root.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        name = QFileInfo(path).completeBaseName();
    QString description = root.value(QStringLiteral("description")).toString();
    if (description.size() > 180)
        description = description.left(177) + QStringLiteral("…");
    const QJsonObject cluster = root.value(QStringLiteral("cluster")).toObject();
    const QJsonArray nodes = cluster.value(QStringLiteral("nodes")).toArray();
    int gpus = 0;
    for (const QJsonValue &n : nodes)
        gpus += n.toObject().value(QStringLiteral("gpus")).toInt();
    const int jobs = int(root.value(QStringLiteral("jobs")).toArray().size());
    const QString size = QObject::tr("%1 nodes · %2 GPUs · %3 jobs · %4")
                             .arg(formatNumber(double(nodes.size())), formatNumber(gpus),
                                  formatNumber(jobs), QFileInfo(path).fileName());
    QString text = name;
    if (!description.isEmpty())
        text += QLatin1Char('\n') + description;
    return text + QLatin1Char('\n') + size;
}

} // namespace

StartPage::StartPage(QWidget *parent)
    : QWidget(parent)
    , m_samples(makeList(this))
    , m_recent(makeList(this))
{
    setObjectName(QStringLiteral("startPage"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(40, 30, 40, 30);
    outer->setSpacing(14);

    auto *title = new QLabel(tr("ClusterBench"), this);
    QFont tf = title->font();
    tf.setPointSizeF(tf.pointSizeF() * 2.2);
    tf.setBold(true);
    title->setFont(tf);
    auto *subtitle = new QLabel(
        tr("Plan distributed deep-learning training on GPU clusters: build a cluster, queue "
           "jobs, compare scheduling policies, export the placement."),
        this);
    subtitle->setWordWrap(true);
    outer->addWidget(title);
    outer->addWidget(subtitle);

    auto *buttons = new QHBoxLayout;
    auto *newButton = new QPushButton(QIcon(QStringLiteral(":/icons/new.svg")),
                                      tr("New scenario"), this);
    auto *openButton = new QPushButton(QIcon(QStringLiteral(":/icons/open.svg")),
                                       tr("Open scenario…"), this);
    buttons->addWidget(newButton);
    buttons->addWidget(openButton);
    buttons->addStretch();
    outer->addLayout(buttons);
    connect(newButton, &QPushButton::clicked, this, &StartPage::newRequested);
    connect(openButton, &QPushButton::clicked, this, &StartPage::openDialogRequested);

    auto *columns = new QHBoxLayout;
    columns->setSpacing(24);
    auto *left = new QVBoxLayout;
    left->addWidget(heading(tr("Sample scenarios"), this));
    left->addWidget(m_samples);
    auto *right = new QVBoxLayout;
    right->addWidget(heading(tr("Recent files"), this));
    right->addWidget(m_recent);
    columns->addLayout(left, 3);
    columns->addLayout(right, 2);
    outer->addLayout(columns, 1);

    for (QListWidget *list : {m_samples, m_recent}) {
        connect(list, &QListWidget::itemActivated, this, &StartPage::activate);
        connect(list, &QListWidget::itemClicked, this, &StartPage::activate);
    }
}

void StartPage::activate(QListWidgetItem *item)
{
    const QString path = item ? item->data(kPathRole).toString() : QString();
    if (!path.isEmpty())
        emit openRequested(path);
}

void StartPage::setSampleFolders(const QStringList &folders)
{
    m_samples->clear();
    QSet<QString> seen;
    for (const QString &folder : folders) {
        const QDir dir(folder);
        if (!dir.exists())
            continue;
        const QFileInfoList files =
            dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QFileInfo &info : files) {
            const QString path = info.canonicalFilePath();
            if (seen.contains(path))
                continue;
            seen.insert(path);
            auto *item = new QListWidgetItem(QIcon(QStringLiteral(":/icons/cluster.svg")),
                                             describeSample(path), m_samples);
            item->setData(kPathRole, path);
            item->setToolTip(path);
        }
    }
    if (m_samples->count() == 0) {
        auto *item = new QListWidgetItem(tr("No sample scenarios found."), m_samples);
        item->setFlags(Qt::NoItemFlags);
    }
}

void StartPage::setRecentFiles(const QStringList &files)
{
    m_recent->clear();
    for (const QString &path : files) {
        const QFileInfo info(path);
        auto *item = new QListWidgetItem(QIcon(QStringLiteral(":/icons/file.svg")),
                                         info.fileName() + QLatin1Char('\n') +
                                             info.absolutePath(),
                                         m_recent);
        item->setData(kPathRole, path);
        item->setToolTip(path);
        if (!info.exists())
            item->setForeground(Qt::gray);
    }
    if (files.isEmpty()) {
        auto *item = new QListWidgetItem(tr("Files you open appear here."), m_recent);
        item->setFlags(Qt::NoItemFlags);
    }
}

int StartPage::sampleCount() const
{
    int n = 0;
    for (int i = 0; i < m_samples->count(); ++i)
        n += m_samples->item(i)->data(kPathRole).isValid() ? 1 : 0;
    return n;
}

QString StartPage::samplePath(int row) const
{
    QListWidgetItem *item = m_samples->item(row);
    return item ? item->data(kPathRole).toString() : QString();
}

} // namespace cb::views
