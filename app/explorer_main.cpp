// SPDX-License-Identifier: MIT
// radt-explorer: argument parsing and wiring only (resources/DESIGN.md §2).

#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreUri.h"
#include "widgets/board/BoardExport.h"
#include "widgets/common/FileReadPool.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/GuardedApplication.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/StoreSession.h"
#include "widgets/window/WidgetMap.h"
#include "widgets/window/WorkspaceLayout.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

const QCommandLineOption
    kStoreOption(QStringLiteral("store"),
                 QStringLiteral("Tracking store URI (sqlite:///file.db, postgresql://...)."),
                 QStringLiteral("URI"));
const QCommandLineOption
    kReadOnlyOption(QStringLiteral("read-only"),
                    QStringLiteral("Open the store without writing anything to it (no read "
                                   "index is added; reads are slower)."));
const QCommandLineOption kScreenshotOption(
    QStringLiteral("screenshot"),
    QStringLiteral("Load the store, plot the latest workload, save the window as a PNG and exit."),
    QStringLiteral("FILE.png"));

const QCommandLineOption kExportOption(
    QStringLiteral("export"),
    QStringLiteral("Render every chart of the board file offscreen into DIR as <NN>-<metric>.<ext> and exit "
                   "(no display needed)."),
    QStringLiteral("DIR"));
const QCommandLineOption
    kFormatOption(QStringLiteral("format"),
                  QStringLiteral("Formats for --export, comma-separated: %1 (default: all).")
                      .arg(radt::boardExportFormats().join(QLatin1Char(','))),
                  QStringLiteral("LIST"));

void setUpParser(QCommandLineParser& parser) {
    parser.setApplicationDescription(QStringLiteral(
        "Explore radt / MLflow tracking stores: experiments, workloads, runs and their metrics.\n"
        "Store: --store, else RADT_TRACKING_URI, else MLFLOW_TRACKING_URI, else the default store."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(kStoreOption);
    parser.addOption(kReadOnlyOption);
    parser.addOption(kScreenshotOption);
    parser.addOption(kExportOption);
    parser.addOption(kFormatOption);
    parser.addPositionalArgument(QStringLiteral("board.json"), QStringLiteral("A radT board file to open."),
                                 QStringLiteral("[board.json]"));
}

// --export: the board's charts drawn as the explorer draws them, written to files; 0 on success.
int exportHeadless(const QCommandLineParser& parser) {
    const QStringList boards = parser.positionalArguments();
    if (boards.size() != 1) {
        std::fprintf(stderr, "radt-explorer: --export needs exactly one board file (got %d)\n",
                     int(boards.size()));
        return 2;
    }
    QStringList formats = radt::boardExportFormats();
    if (parser.isSet(kFormatOption)) {
        formats = parser.value(kFormatOption).split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (formats.isEmpty()) { // '' would export nothing and still succeed
            std::fprintf(stderr, "radt-explorer: --format needs formats joined by ',' (%s)\n",
                         qPrintable(radt::boardExportFormats().join(QLatin1Char(','))));
            return 2;
        }
    }
    try {
        std::vector<radt::BoardProblem> problems;
        const radt::Board board = radt::loadBoardFile(boards.front().toStdString(), problems);
        const QStringList files =
            radt::exportBoardFiles(board, QFileInfo(boards.front()).fileName().toStdString(),
                                   parser.value(kExportOption), formats, problems);
        for (const radt::BoardProblem& p : problems)
            std::fprintf(stderr, "radt-explorer: %s\n", p.message.c_str());
        for (const QString& file : files)
            std::printf("%s\n", qPrintable(file));
        return 0;
    } catch (const std::exception& e) {
        // Errors about the board name it already; an export's error names the file it could not write.
        const std::string what = e.what();
        if (what.find(QFileInfo(boards.front()).fileName().toStdString()) != std::string::npos)
            std::fprintf(stderr, "radt-explorer: %s\n", what.c_str());
        else
            std::fprintf(stderr, "radt-explorer: %s: %s\n", qPrintable(boards.front()), what.c_str());
        return 1;
    }
}

bool hasFlag(int argc, char* argv[], const char* flag) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0)
            return true;
    return false;
}

void setApplicationNames() {
    QCoreApplication::setOrganizationName(QStringLiteral("radt"));
    QCoreApplication::setApplicationName(QStringLiteral("radt-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RADT_VERSION));
}

// --help and --version must work on a server without a display, where QApplication cannot start.
bool wantsTextOnly(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"-h", "--help", "--help-all", "-?", "-v", "--version"}) {
            if (std::strcmp(argv[i], flag) == 0)
                return true;
        }
    }
    return false;
}

int runExplorer(int argc, char* argv[]);

/// The store the explorer starts on (--store, RADT_STORE, or the default store), or why none.
struct StartStore {
    QString uri;
    radt::OpenMode mode = radt::OpenMode::OpenExisting;
    QString error;
};
StartStore resolveStartStore(const QCommandLineParser& parser);
void showFirstLook(radt::MainWindow& window, bool restoreAllowed);
int runInteractive(radt::MainWindow& window, const StartStore& start, const QStringList& boards);
int runScreenshot(radt::GuardedApplication& app, radt::MainWindow& window, const QCommandLineParser& parser,
                  const StartStore& start, const QStringList& boards);

} // namespace

// No exception leaves main: one line on stderr and exit 1 instead of std::terminate's abort.
int main(int argc, char* argv[]) {
    try {
        return runExplorer(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "radt-explorer: error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "radt-explorer: error: an unknown exception\n");
    }
    return 1;
}

namespace {

int runExplorer(int argc, char* argv[]) {
    if (wantsTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        setApplicationNames();
        QCommandLineParser parser;
        setUpParser(parser);
        parser.process(core); // prints and exits
        return 0;
    }

    // A headless export draws with Qt's offscreen platform: no display is needed.
    if (hasFlag(argc, argv, "--export") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    radt::GuardedApplication app(argc, argv);
    setApplicationNames();
    QCommandLineParser parser;
    setUpParser(parser);
    parser.process(app);
    if (parser.isSet(kExportOption))
        return exportHeadless(parser);
    if (parser.isSet(kFormatOption)) {
        std::fprintf(stderr, "radt-explorer: --format goes with --export\n");
        return 2;
    }

    // A board named on the command line opens over whatever the store shows.
    const QStringList boards = parser.positionalArguments();
    if (boards.size() > 1) {
        std::fprintf(stderr, "radt-explorer: one board file at a time (got %d)\n", int(boards.size()));
        return 2;
    }
    radt::MainWindow window(nullptr, parser.isSet(kReadOnlyOption));
    // Where everything is on screen, for scripts and tests that drive the window with xdotool.
    if (const QString map = qEnvironmentVariable("RADT_EXPLORER_WIDGET_MAP"); !map.isEmpty())
        new radt::WidgetMapWriter(map, &app);
    const StartStore start = resolveStartStore(parser);
    if (parser.isSet(kScreenshotOption))
        return runScreenshot(app, window, parser, start, boards);
    return runInteractive(window, start, boards);
}

StartStore resolveStartStore(const QCommandLineParser& parser) {
    StartStore start;
    try {
        const radt::ResolvedStoreUri resolved =
            radt::resolveStoreUri(parser.value(kStoreOption).toStdString());
        if (resolved.source == "default") {
            radt::createDefaultStoreDir();
            start.mode = radt::OpenMode::CreateIfMissing;
        }
        start.uri = QString::fromStdString(resolved.uri);
    } catch (const std::exception& e) {
        start.error = QString::fromStdString(e.what());
    }
    return start;
}

// What the window shows first: the last session (File > Restore Last Session at Start), else the
// latest workload with a sensible metric. A board named on the command line is not mixed with a
// restored session.
void showFirstLook(radt::MainWindow& window, bool restoreAllowed) {
    bool restored = false;
    if (restoreAllowed) {
        QSettings settings;
        restored = radt::BoardDocument::sessionRestoreEnabled(settings) &&
                   window.document().restoreSession(settings);
    }
    if (!restored && window.basketRunUuids().isEmpty()) {
        window.addLatestWorkloadToBasket();
        window.plotPreferredMetric();
    }
}

// The window at once; the store opened and first read on the loader's thread (a first open of a
// large SQLite store adds its read index: seconds, with the progress bar busy), then the first look.
int runInteractive(radt::MainWindow& window, const StartStore& start, const QStringList& boards) {
    {
        QSettings settings; // the window as the user left it: size, docks, board columns
        window.workspace().restore(settings);
    }
    window.show();
    auto openBoard = [&window, boards] {
        if (!boards.isEmpty())
            window.document().openBoardInteractive(boards.front());
    };
    if (!start.error.isEmpty()) {
        QTimer::singleShot(0, &window, [&window, error = start.error, openBoard] {
            QMessageBox::critical(&window, QObject::tr("Cannot open store"),
                                  QObject::tr("The store could not be opened:\n\n%1\n\n"
                                              "Use File > Open Store to choose another one.")
                                      .arg(error));
            openBoard(); // a board carries its own data
        });
    } else {
        window.openStoreInteractive(start.uri, start.mode,
                                    [&window, restore = boards.isEmpty(), openBoard](bool opened) {
                                        if (opened)
                                            showFirstLook(window, restore);
                                        openBoard();
                                    });
    }
    const int exitCode = QApplication::exec();
    radt::quitLeavingHungFileReads(exitCode, 2000); // Ctrl+Q ends the process, whatever hangs
    return exitCode;
}

// --screenshot: everything in order on this thread, no dialog (nobody is there to click one);
// the screenshot shows the latest workload, reproducibly, or the board named.
int runScreenshot(radt::GuardedApplication& app, radt::MainWindow& window, const QCommandLineParser& parser,
                  const StartStore& start, const QStringList& boards) {
    QString error = start.error;
    const bool opened = error.isEmpty() && window.openStore(start.uri, &error, start.mode);
    if (!opened) {
        std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(error));
        return 1;
    }
    showFirstLook(window, false);
    if (!boards.isEmpty()) {
        QStringList problems;
        QString boardError;
        if (!window.document().openBoard(boards.front(), &problems, &boardError)) {
            std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(boardError));
            return 1;
        }
        for (const QString& p : problems)
            std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(p));
    }
    window.workspace().arrangeForScreenshot(QSize(1400, 860));
    window.show();
    QApplication::processEvents();
    window.waitForLoads();
    QApplication::processEvents();
    const QString file = parser.value(kScreenshotOption);
    if (!window.grab().save(file)) {
        std::fprintf(stderr, "radt-explorer: cannot write %s\n", qPrintable(file));
        return 1;
    }
    return app.caughtExceptions() ? 1 : 0; // the screenshot may lack what failed
}

} // namespace
