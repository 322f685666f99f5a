// SPDX-License-Identifier: MIT
#include "widgets/window/GuardedApplication.h"

#include <QMessageBox>
#include <QTimer>

#include <cstdio>
#include <exception>

namespace radt {

GuardedApplication::GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

bool GuardedApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        report(QString::fromStdString(e.what()));
    } catch (...) {
        report(QStringLiteral("an unknown error"));
    }
    return true; // the event is handled: nothing further may act on a half-done handler
}

void GuardedApplication::report(const QString& message) {
    ++m_caught;
    std::fprintf(stderr, "radt-explorer: error: %s\n", qPrintable(message));
    if (!m_dialogs || m_dialogOpen || platformName() == QLatin1String("offscreen"))
        return;
    // Shown from the event loop, not from inside the failed handler; one dialog at a time.
    m_dialogOpen = true;
    QTimer::singleShot(0, this, [this, message] {
        QMessageBox::warning(activeWindow(), QStringLiteral("radt-explorer"),
                             QStringLiteral("An action failed and was abandoned:\n\n%1\n\n"
                                            "The window keeps running; what was shown before stays.")
                                 .arg(message));
        m_dialogOpen = false;
    });
}

} // namespace radt
