// SPDX-License-Identifier: MIT
#pragma once
// A QApplication that no exception escapes from: Qt does not support exceptions
// thrown through its event loop, so a throwing slot or event handler would abort the program and
// lose the user's session. Each one is caught where Qt delivers the event, reported on stderr and,
// with a display, in one dialog; the application keeps running.

#include <QApplication>

namespace radt {

class GuardedApplication : public QApplication {
public:
    GuardedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;

    /// How many exceptions were caught in event handlers so far (tests, --screenshot's exit code).
    int caughtExceptions() const { return m_caught; }
    /// No dialog (headless runs: --screenshot, --export, tests); stderr still gets the message.
    void setDialogsEnabled(bool enabled) { m_dialogs = enabled; }

private:
    void report(const QString& message);

    int m_caught = 0;
    bool m_dialogs = true;
    bool m_dialogOpen = false;
};

} // namespace radt
