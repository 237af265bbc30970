#pragma once
// Lists every problem found in a file that could not be opened: where (JSON pointer or line)
// and what was expected. Non-blocking (open()), so a failed load never stalls the caller.

#include "util/result.h"

#include <QDialog>

namespace cb::views {

class ProblemsDialog : public QDialog
{
    Q_OBJECT

public:
    ProblemsDialog(const QString &filePath, const Problems &problems, QWidget *parent = nullptr);
    int problemCount() const { return m_count; }

private:
    int m_count;
};

} // namespace cb::views
