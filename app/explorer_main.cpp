// radt-explorer: argument parsing and wiring only (DESIGN §2).

#include "MainWindow.h"
#include "Store.h"
#include "StoreUri.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("radt"));
    QApplication::setApplicationName(QStringLiteral("radt-explorer"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explore radt / MLflow tracking stores: experiments, workloads, runs and their metrics.\n"
                       "Store: --store, else RADT_TRACKING_URI, else MLFLOW_TRACKING_URI, else the default store."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption storeOption(
        QStringLiteral("store"), QStringLiteral("Tracking store URI (sqlite:///file.db, postgresql://...)."),
        QStringLiteral("URI"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Load the store, plot the latest workload, save the window as a PNG and exit."),
        QStringLiteral("FILE.png"));
    parser.addOption(storeOption);
    parser.addOption(screenshotOption);
    parser.process(app);

    radt::MainWindow window;
    QString error;
    bool opened = false;
    try {
        const radt::ResolvedStoreUri resolved = radt::resolveStoreUri(parser.value(storeOption).toStdString());
        radt::OpenMode mode = radt::OpenMode::OpenExisting;
        if (resolved.source == "default") {
            radt::createDefaultStoreDir();
            mode = radt::OpenMode::CreateIfMissing;
        }
        opened = window.openStore(QString::fromStdString(resolved.uri), &error, mode);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }

    if (opened && window.basketRunUuids().isEmpty()) {
        window.addLatestWorkloadToBasket();
        window.plotPreferredMetric();
    }

    if (parser.isSet(screenshotOption)) {
        // A dialog would wait for a click nobody gives in an automated run.
        if (!opened) {
            std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(error));
            return 1;
        }
        window.expandTree();
        window.resize(1400, 860);
        window.show();
        QApplication::processEvents();
        const QString file = parser.value(screenshotOption);
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
