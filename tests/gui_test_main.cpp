// SPDX-License-Identifier: MIT
// main() of the GUI tests: a QApplication on the offscreen platform, settings kept out of $HOME.

#include "GuiTestSupport.h"
#include "TempDir.h"

#include <QApplication>
#include <QLoggingCategory>

#include <gtest/gtest.h>

namespace {

QtMessageHandler g_previousHandler = nullptr;

void collectModelTestWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (context.category && QLatin1String(context.category) == QLatin1String("qt.modeltest"))
        radt::test::modelTestWarnings().append(message);
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // File > Recent Stores writes QSettings: keep the developer's real settings untouched.
    radt::test::TempDir config;
    qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(config.path()));
    g_previousHandler = qInstallMessageHandler(collectModelTestWarnings);
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
