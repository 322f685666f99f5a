// radt-explorer: argument parsing and wiring only (DESIGN §2).

#include "MainWindow.h"
#include "Store.h"
#include "StoreUri.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

const QCommandLineOption
    kStoreOption(QStringLiteral("store"),
                 QStringLiteral("Tracking store URI (sqlite:///file.db, postgresql://...)."),
                 QStringLiteral("URI"));
const QCommandLineOption kScreenshotOption(
    QStringLiteral("screenshot"),
    QStringLiteral("Load the store, plot the latest workload, save the window as a PNG and exit."),
    QStringLiteral("FILE.png"));

void setUpParser(QCommandLineParser& parser) {
    parser.setApplicationDescription(QStringLiteral(
        "Explore radt / MLflow tracking stores: experiments, workloads, runs and their metrics.\n"
        "Store: --store, else RADT_TRACKING_URI, else MLFLOW_TRACKING_URI, else the default store."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(kStoreOption);
    parser.addOption(kScreenshotOption);
}

void setApplicationNames() {
    QCoreApplication::setOrganizationName(QStringLiteral("radt"));
    QCoreApplication::setApplicationName(QStringLiteral("radt-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
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

} // namespace

int main(int argc, char* argv[]) {
    if (wantsTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        setApplicationNames();
        QCommandLineParser parser;
        setUpParser(parser);
        parser.process(core); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    setApplicationNames();
    QCommandLineParser parser;
    setUpParser(parser);
    parser.process(app);

    radt::MainWindow window;
    QString error;
    bool opened = false;
    try {
        const radt::ResolvedStoreUri resolved =
            radt::resolveStoreUri(parser.value(kStoreOption).toStdString());
        radt::OpenMode mode = radt::OpenMode::OpenExisting;
        if (resolved.source == "default") {
            radt::createDefaultStoreDir();
            mode = radt::OpenMode::CreateIfMissing;
        }
        opened = window.openStore(QString::fromStdString(resolved.uri), &error, mode);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }

    // A first look shows a chart: the latest workload and a sensible metric.
    if (opened && window.basketRunUuids().isEmpty()) {
        window.addLatestWorkloadToBasket();
        window.plotPreferredMetric();
    }

    if (parser.isSet(kScreenshotOption)) {
        // A dialog would wait for a click nobody gives in an automated run.
        if (!opened) {
            std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(error));
            return 1;
        }
        window.expandTree();
        window.resize(1400, 860);
        window.show();
        QApplication::processEvents();
        window.waitForLoads();
        QApplication::processEvents();
        const QString file = parser.value(kScreenshotOption);
        if (!window.grab().save(file)) {
            std::fprintf(stderr, "radt-explorer: cannot write %s\n", qPrintable(file));
            return 1;
        }
        return 0;
    }

    window.show();
    if (!opened) {
        QTimer::singleShot(0, &window, [&window, error] {
            QMessageBox::critical(&window, QObject::tr("Cannot open store"),
                                  QObject::tr("The store could not be opened:\n\n%1\n\n"
                                              "Use File > Open Store to choose another one.")
                                      .arg(error));
        });
    }
    return QApplication::exec();
}
