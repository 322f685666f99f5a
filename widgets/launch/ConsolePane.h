// SPDX-License-Identifier: MIT
#pragma once
// The console of workloads launched from the explorer: each run's output coloured by its letter
// (stderr marked), collector notices in grey, and a Stop button that ends the launch cleanly.

#include <QWidget>

#include <map>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace radt {

class ConsolePane : public QWidget {
    Q_OBJECT
public:
    explicit ConsolePane(QWidget* parent = nullptr);

    void appendOutput(const QString& letter, bool isStderr, const QString& line);
    void appendMessage(const QString& text);
    /// Running: Stop is enabled and the status says so; finished: the exit code is shown.
    void setRunning(const QString& what);
    void setFinished(int exitCode);
    QString plainText() const;
    QPushButton* stopButton() const { return m_stop; }

signals:
    void stopRequested();

private:
    QColor colourOf(const QString& letter);

    QPlainTextEdit* m_text;
    bool m_follow = true; ///< at the end of the output, where the user left the scroll bar
    QLabel* m_status;
    QPushButton* m_stop;
    std::map<QString, int> m_letters; ///< colour index per run letter, in order of appearance
};

} // namespace radt
