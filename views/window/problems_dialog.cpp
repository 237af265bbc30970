#include "window/problems_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cb::views {

ProblemsDialog::ProblemsDialog(const QString &filePath, const Problems &problems, QWidget *parent)
    : QDialog(parent)
    , m_count(int(problems.size()))
{
    setWindowTitle(tr("Cannot open %1").arg(QFileInfo(filePath).fileName()));
    setObjectName(QStringLiteral("problemsDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(
        tr("<b>%1</b> was not opened: %n problem(s) found. The open scenario is unchanged.",
           nullptr, m_count)
            .arg(filePath.toHtmlEscaped()),
        this);
    label->setWordWrap(true);
    layout->addWidget(label);
    auto *tree = new QTreeWidget(this);
    tree->setRootIsDecorated(false);
    tree->setAlternatingRowColors(true);
    tree->setHeaderLabels({tr("Where"), tr("Problem")});
    QStringList plain;
    for (const Problem &p : problems) {
        const QString where = QString::fromStdString(p.where.empty() ? "(file)" : p.where);
        auto *item = new QTreeWidgetItem(tree, {where, QString::fromStdString(p.message)});
        item->setToolTip(1, QString::fromStdString(p.message));
        plain << QString::fromStdString(p.toString());
    }
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    layout->addWidget(tree);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [plain, filePath] {
        QApplication::clipboard()->setText(filePath + QStringLiteral(":\n") +
                                           plain.join(QLatin1Char('\n')));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 360);
}

} // namespace cb::views
