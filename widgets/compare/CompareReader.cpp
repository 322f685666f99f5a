// SPDX-License-Identifier: MIT
#include "widgets/compare/CompareReader.h"

#include "core/StoreFactory.h"
#include "core/analysis/InsightReport.h"
#include "widgets/common/StoreReadThread.h"

#include <QObject>

#include <set>

namespace radt {

QString preferredMetric(const QStringList& keys) {
    for (const char* word : {"acc", "loss"})
        for (const QString& key : keys)
            if (key.contains(QLatin1String(word), Qt::CaseInsensitive))
                return key;
    return QString();
}

namespace {

std::vector<Run> requestedRuns(Store& store, const CompareRequest& request) {
    std::vector<Run> basket;
    for (const std::string& u : request.uuids)
        if (auto r = store.run(u))
            basket.push_back(std::move(*r));
    if (!request.wholeExperiments)
        return basket;
    std::set<int64_t> experiments;
    for (const Run& r : basket)
        experiments.insert(r.experimentId);
    std::vector<Run> runs;
    for (int64_t e : experiments)
        for (Run& r : store.runs(e))
            runs.push_back(std::move(r));
    return runs;
}

} // namespace

CompareResult readComparison(Store& store, const CompareRequest& request,
                             const std::function<void(size_t, size_t)>& progress) {
    CompareResult result;
    result.runs = requestedRuns(store, request);
    std::vector<std::string> uuids;
    for (const Run& r : result.runs)
        uuids.push_back(r.uuid);
    for (const std::string& key : store.metricKeys(uuids))
        result.metricKeys << QString::fromStdString(key);
    result.preferredMetric = preferredMetric(result.metricKeys);
    std::vector<QString> keys;
    for (const std::string& k : request.metricKeys)
        keys.push_back(QString::fromStdString(k));
    if (request.preferredMetric && !result.preferredMetric.isEmpty())
        keys.push_back(result.preferredMetric);
    const bool readReport = request.report.is_null();
    const size_t total = (readReport ? result.runs.size() : 0) + keys.size() * result.runs.size();
    size_t done = 0;
    if (readReport)
        result.report = buildReport(store, result.runs, ReportOptions{}, [&](size_t d, size_t) {
            if (progress)
                progress(done = d, total);
        });
    else
        result.report = request.report;
    for (const QString& key : keys) {
        if (result.stats.count(key) || !result.metricKeys.contains(key))
            continue;
        if (const auto kept = request.stats.find(key);
            kept != request.stats.end() && kept->second.size() == result.runs.size()) {
            result.stats[key] = kept->second;
            continue;
        }
        std::vector<SeriesStats>& stats = result.stats[key];
        for (const Run& r : result.runs) {
            const auto all = store.seriesStatsOfRun(r.uuid, key.toStdString());
            const auto it = all.find(key.toStdString());
            stats.push_back(it == all.end() ? SeriesStats{} : it->second);
            if (progress)
                progress(++done, total);
        }
    }
    return result;
}

CompareReader::CompareReader() : m_worker(StoreReadThread::start(QStringLiteral("radt compare"))) {}

CompareReader::~CompareReader() = default;

void CompareReader::read(CompareRequest request, QObject* receiver, std::function<void(CompareResult)> done,
                         std::function<void(int, int)> progress) {
    const quint64 generation = ++m_generation;
    m_pending = true;
    QPointer<QObject> target(receiver);
    // The receiver owns this reader: while it lives, `this` does.
    auto land = [this, target, generation, done = std::move(done)](CompareResult result) mutable {
        if (!target || generation != m_generation)
            return;
        m_pending = false;
        done(std::move(result));
    };
    // std::function needs a copyable task: the landing is shared, not moved.
    auto landing = std::make_shared<decltype(land)>(std::move(land));
    m_worker->postLatest(
        generation, [target, request = std::move(request), landing, progress](StoreReadThread& reader) {
            CompareResult result;
            try {
                result = readComparison(reader.connection(request.uri), request, [&](size_t d, size_t t) {
                    if (progress)
                        QMetaObject::invokeMethod(target, [target, progress, d, t] {
                            if (target)
                                progress(int(d), int(t));
                        });
                });
            } catch (const std::exception& e) {
                result = CompareResult{};
                result.error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(
                target, [landing, result = std::move(result)]() mutable { (*landing)(std::move(result)); });
        });
}

} // namespace radt
