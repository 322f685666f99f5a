// SPDX-License-Identifier: MIT
#include "GuiTestSupport.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTimer>

#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreCopy.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartReads.h"

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace radt::test {

QStringList& modelTestWarnings() {
    static QStringList warnings;
    return warnings;
}

namespace {

struct RunSpec {
    const char* experiment;
    const char* workload; // "" for none
    const char* letter;
    const char* args;
    RunStatus status;
    int64_t startOffsetS;
    int64_t durationS; // < 0: still running
};

} // namespace

SampleStore buildSampleStore(const std::string& dbPath, bool withMetrics) {
    SampleStore result;
    result.uri = "sqlite:///" + dbPath;
    auto store = openStore(result.uri, OpenMode::CreateIfMissing);
    const int64_t base = 1'700'000'000'000; // 2023-11-14, a fixed past so durations are stable
    const std::vector<RunSpec> specs = {
        {"alpha", "1", "a", "--batch-size 256 --epochs 3", RunStatus::Finished, 0, 65},
        {"alpha", "1", "b", "--batch-size 512 --epochs 3", RunStatus::Failed, 0, 30},
        {"alpha", "2", "a", "--lr 0.1", RunStatus::Finished, 200, 3700},
        {"beta", "7", "a", "--model resnet50", RunStatus::Killed, 5000, 90},
        {"beta", "7", "b", "--model vgg16", RunStatus::Running, 5001, -1},
        {"beta", "", "", "", RunStatus::Finished, 4000, 10},
    };
    int index = 0;
    for (const RunSpec& spec : specs) {
        const std::string workload = spec.workload;
        const std::string label = std::string(spec.experiment) + "/" +
                                  (workload.empty() ? std::string("loose") : workload + "/" + spec.letter);
        NewRun nr;
        nr.experimentId = store->getOrCreateExperiment(spec.experiment);
        nr.name = workload.empty() ? "loose-run" : "(" + workload + " " + spec.letter + ") train";
        nr.startTime = base + spec.startOffsetS * 1000;
        nr.status = spec.status;
        const Run run = store->createRun(nr);
        if (spec.durationS >= 0)
            store->setRunStatus(run.uuid, spec.status, nr.startTime + spec.durationS * 1000);
        std::vector<std::pair<std::string, std::string>> params = {{"model", "train.py"}};
        if (!workload.empty()) {
            params.push_back({"workload", workload});
            params.push_back({"letter", spec.letter});
            params.push_back({"params", spec.args});
        }
        store->logParams(run.uuid, params);
        result.runs[label] = run.uuid;

        if (withMetrics) {
            std::vector<MetricPoint> points;
            for (int i = 0; i < 300; ++i) {
                double v = 20.0 * index + 10.0 + 8.0 * std::sin(i / 12.0);
                if (label == "alpha/1/a" && i == 150)
                    v = std::numeric_limits<double>::quiet_NaN();
                points.push_back({"PROC - CPU Utilization", v, nr.startTime + i * 1000, i});
                if (std::string(spec.letter) == "a")
                    points.push_back({"TOP - CPU Utilization", 50.0 + index, nr.startTime + i * 1000, i});
                else if (std::string(spec.letter) == "b")
                    points.push_back({"loss", 2.0 / (1 + i), nr.startTime + i * 1000, i});
            }
            store->logMetrics(run.uuid, points);
            if (label == "alpha/1/b") {
                for (int chunk = 0; chunk < 20; ++chunk) {
                    std::vector<MetricPoint> power;
                    for (int i = chunk * 1000; i < (chunk + 1) * 1000; ++i)
                        power.push_back({"GPU - Power", 100.0 + (i == 12345 ? 200.0 : std::sin(i / 50.0)),
                                         nr.startTime + i * 10, i});
                    store->logMetrics(run.uuid, power);
                }
            }
        }
        ++index;
    }
    return result;
}

SampleStore copySampleStoreTo(const std::string& uri, const std::string& scratchDbPath) {
    SampleStore sample = buildSampleStore(scratchDbPath, true);
    {
        auto source = openStore(sample.uri, OpenMode::OpenExisting);
        auto target = openStore(uri, OpenMode::CreateIfMissing);
        copyStore(*source, *target);
    }
    sample.uri = uri;
    return sample;
}

void answerNextMessageBox(int button, QString* text) {
    QTimer::singleShot(50, [button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) {
            answerNextMessageBox(button, text); // not open yet
            return;
        }
        if (text)
            *text = box->text();
        box->button(QMessageBox::StandardButton(button))->click();
    });
}

QAction* menuAction(const QMainWindow& window, const QString& text) {
    std::function<QAction*(const QMenu*)> find = [&](const QMenu* menu) -> QAction* {
        for (QAction* a : menu->actions()) {
            if (a->menu()) {
                if (QAction* found = find(a->menu()))
                    return found;
                continue;
            }
            QString t = a->text();
            t.remove(QLatin1Char('&'));
            while (t.endsWith(QLatin1Char('.')) || t.endsWith(QChar(0x2026)))
                t.chop(1);
            if (t == text)
                return a;
        }
        return nullptr;
    };
    for (QAction* top : window.menuBar()->actions())
        if (top->menu())
            if (QAction* found = find(top->menu()))
                return found;
    return nullptr;
}

void plotFromStore(ChartPanel& chart, Store& store, const std::vector<Run>& runs, const std::string& key) {
    chart.setData(readChartRuns(store, runs, key, chart.plotColumns()), QString::fromStdString(key));
}

} // namespace radt::test
