// SPDX-License-Identifier: MIT
// Chart exports on a real store, offscreen, checking the files written: the CSV at full
// resolution (values, radT's EMA, hidden series, zoom, step axis, quoting) read back, PNG at 1x
// and 2x, SVG and PDF as vector drawings with text, a multi-page board PDF, and failures that
// leave no file behind (resources/DESIGN.md §8, §10).

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/board/BoardFile.h"
#include "core/store/Store.h"
#include "widgets/board/BoardExport.h"
#include "widgets/chart/ChartExport.h"
#include "widgets/chart/ChartPanel.h"

#include <QByteArray>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QtEndian>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;
constexpr int64_t kStart2 = kStart + 60'000; ///< workload 2's run starts a minute later
constexpr const char* kLetter2 = "c,\"q\"";  ///< needs CSV quoting

/// Workload 1 = runs a (0, 10, 0, 10, ...) and b (5, 6, 7, ...) of 100 "loss" points 1 s apart,
/// b half a second later; workload 2 = one run of 50 points 2 s apart, steps 0, 10, 20, ...
class ChartExportTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new test::TempDir;
        auto store = openStore("sqlite:///" + s_dir->file("chart.db"), OpenMode::CreateIfMissing);
        auto addRun = [&](const char* workload, const char* letter, int64_t start) {
            const std::string uuid = store->createRun({0, "r", start, "u", "s", RunStatus::Finished}).uuid;
            store->logParams(uuid, {{"workload", workload}, {"letter", letter}});
            return uuid;
        };
        const std::string a = addRun("1", "a", kStart), b = addRun("1", "b", kStart),
                          c = addRun("2", kLetter2, kStart2);
        std::vector<MetricPoint> pa, pb, pc;
        for (int i = 0; i < 100; ++i) {
            pa.push_back({"loss", i % 2 ? 10.0 : 0.0, kStart + i * 1000, i});
            pb.push_back({"loss", 5.0 + i, kStart + i * 1000 + 500, i});
        }
        for (int i = 0; i < 50; ++i)
            pc.push_back({"loss", 0.1 * i + 1.0 / 3.0, kStart2 + 2000 + i * 2000, i * 10});
        store->logMetrics(a, pa);
        store->logMetrics(b, pb);
        store->logMetrics(c, pc);
        s_runs = store->runs();
    }
    static void TearDownTestSuite() { delete s_dir; }

    void SetUp() override {
        m_out = std::make_unique<test::TempDir>();
        auto store = openStore("sqlite:///" + s_dir->file("chart.db"), OpenMode::OpenExisting);
        m_chart.resize(900, 500);
        ChartOptions radt = m_chart.engine().options(); // the CSV's line names as radT names them
        radt.naming = ChartOptions::Naming::RadtIds;
        radt.aggregate = ChartOptions::Aggregate::Merge;
        m_chart.changeOptions([&radt](ChartOptions& o) { o = radt; });
        test::plotFromStore(m_chart, *store, s_runs, "loss");
        for (const radt::Run& run : s_runs)
            m_series[run.uuid] = store->series(run.uuid, "loss");
    }

    QString out(const char* name) const { return QString::fromStdString(m_out->file(name)); }

    const radt::Run& runOf(const std::string& uuid) const {
        for (const radt::Run& r : s_runs)
            if (r.uuid == uuid)
                return r;
        throw std::runtime_error("no run " + uuid);
    }

    static test::TempDir* s_dir;
    static std::vector<radt::Run> s_runs;
    std::unique_ptr<test::TempDir> m_out;
    std::map<std::string, Series> m_series; ///< what the store holds, per run
    ChartPanel m_chart;
};

test::TempDir* ChartExportTest::s_dir = nullptr;
std::vector<radt::Run> ChartExportTest::s_runs;

// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (quoted) {
            if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += text[++i];
            else if (ch == '"')
                quoted = false;
            else
                field += ch;
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (ch == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else {
            field += ch;
        }
    }
    EXPECT_TRUE(row.empty() && field.empty()) << "the file ends with a line break";
    return rows;
}

struct CsvRow {
    std::string series, run, workload, letter, metric, unit;
    int64_t timestamp, elapsed, step;
    double value, smoothed;
};

std::vector<CsvRow> readCsv(const std::string& path) {
    const auto rows = parseCsv(test::readFile(path));
    EXPECT_FALSE(rows.empty());
    std::vector<CsvRow> out;
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& f = rows[i];
        EXPECT_EQ(f.size(), 14u) << "row " << i;
        if (f.size() != 14 || (f[1].empty() && f[3] == "mean"))
            continue; // a mean line's row (its band and N): not a run's point
        out.push_back({f[0], f[1], f[2], f[3], f[4], f[5], std::stoll(f[6]), std::stoll(f[7]),
                       std::stoll(f[8]), std::strtod(f[9].c_str(), nullptr),
                       std::strtod(f[10].c_str(), nullptr)});
    }
    return out;
}

std::vector<CsvRow> rowsOf(const std::vector<CsvRow>& rows, const std::string& series) {
    std::vector<CsvRow> out;
    for (const CsvRow& r : rows)
        if (r.series == series)
            out.push_back(r);
    return out;
}

// Rows of a run shown on its own: radT names it "<workload id> <letter> (<first 5 of its id>)".
std::vector<CsvRow> rowsOfRun(const std::vector<CsvRow>& rows, const std::string& workloadAndLetter) {
    std::vector<CsvRow> out;
    for (const CsvRow& r : rows)
        if (r.series == workloadAndLetter + " (" + r.run.substr(0, 5) + ")")
            out.push_back(r);
    return out;
}

// The content streams of a PDF, inflated: Qt compresses them and offers no switch.
std::string pdfContent(const QByteArray& pdf) {
    std::string all;
    int from = 0;
    for (;;) {
        const int at = pdf.indexOf("stream", from);
        if (at < 0)
            break;
        int body = at + 6;
        if (pdf.mid(body, 2) == "\r\n")
            body += 2;
        else if (pdf.mid(body, 1) == "\n")
            body += 1;
        else { // "endstream"
            from = body;
            continue;
        }
        const int end = pdf.indexOf("endstream", body);
        if (end < 0)
            break;
        const QByteArray raw = pdf.mid(body, end - body);
        from = end + 9;
        if (raw.isEmpty() || uchar(raw[0]) != 0x78) { // not zlib: fonts and the like, kept as they are
            all += raw.toStdString();
            continue;
        }
        // qUncompress wants zlib data behind a 4-byte big-endian size hint; it grows as needed.
        QByteArray framed(4, '\0');
        qToBigEndian<quint32>(quint32(raw.size() * 20 + 1024), framed.data());
        const QByteArray inflated = qUncompress(framed + raw);
        all += (inflated.isEmpty() ? raw : inflated).toStdString();
        all += '\n';
    }
    return all;
}

bool contains(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_F(ChartExportTest, CsvHasEveryVisiblePointAtFullResolutionWithRadtsEma) {
    m_chart.changeOptions([&](ChartOptions& o) { o.smoothing = 60; });
    const QString path = out("loss.csv");
    std::vector<std::pair<size_t, size_t>> calls;
    exportChartCsv(m_chart, path, [&](size_t done, size_t total) { calls.emplace_back(done, total); });

    const std::string text = test::readFile(path.toStdString());
    EXPECT_EQ(test::splitLines(text).front(),
              "series,run_uuid,workload,letter,metric,unit,timestamp,elapsed_ms,"
              "step,value,smoothed,band_low,band_high,n");
    EXPECT_EQ(std::string(kChartCsvHeader), test::splitLines(text).front());
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    ASSERT_EQ(rows.size(), 250u) << "every point of both lines, not the decimated ones";
    EXPECT_EQ(test::readByPythonCsvReaders(path.toStdString()), "csv 250 14 series\npandas 250 14 series")
        << "Python's csv module and pandas read it with their defaults";
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls.back(), std::make_pair(size_t(250), size_t(250)));
    EXPECT_TRUE(contains(text, std::string(",2,\"c,\"\"q\"\"\",loss,,"))) << "the letter is quoted";

    for (const std::string series : {"0-1", "0-2"}) {
        const std::vector<CsvRow> line = rowsOf(rows, series);
        ASSERT_EQ(line.size(), series == "0-1" ? 200u : 50u);
        double s = 0; // radT's EMA over the merged line: s_0 = x_0, s_i = w s_{i-1} + (1 - w) x_i
        for (size_t i = 0; i < line.size(); ++i) {
            const CsvRow& r = line[i];
            const radt::Run& run = runOf(r.run);
            EXPECT_EQ(r.workload, run.workload());
            EXPECT_EQ(r.letter, run.letter());
            EXPECT_EQ(r.metric, "loss");
            EXPECT_EQ(r.elapsed, r.timestamp - run.startTime);
            if (i > 0) {
                EXPECT_LE(line[i - 1].elapsed, r.elapsed) << "x order";
            }
            const Series& stored = m_series.at(r.run);
            const auto at = std::find(stored.t.begin(), stored.t.end(), r.timestamp);
            ASSERT_NE(at, stored.t.end());
            const size_t k = size_t(at - stored.t.begin());
            EXPECT_EQ(r.value, stored.v[k]) << "full precision round trip, row " << i;
            EXPECT_EQ(r.step, stored.step[k]);
            s = i == 0 ? r.value : 0.6 * s + 0.4 * r.value;
            EXPECT_NEAR(r.smoothed, s, 1e-12) << series << " row " << i;
        }
    }
    // Merged runs interleave: a at 0 s, b at 0.5 s, a at 1 s ...
    const std::vector<CsvRow> one = rowsOf(rows, "0-1");
    EXPECT_EQ(one[0].letter, "a");
    EXPECT_EQ(one[1].letter, "b");
    EXPECT_EQ(one[1].elapsed, 500);
    EXPECT_NEAR(one[1].smoothed, 0.4 * 5.0, 1e-12);
    // Integers stay integers; other values keep every digit.
    EXPECT_TRUE(contains(text, ",1700000001000,1000,1,10,")) << "run a's second point";
    EXPECT_TRUE(contains(text, ",0.3333333333333333,")) << "1/3 in shortest round-trip form";
}

TEST_F(ChartExportTest, CsvSmoothedEqualsValueWithoutSmoothingAndRunsShownOneByOne) {
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    const QString path = out("runs.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    ASSERT_EQ(rows.size(), 250u);
    EXPECT_EQ(rowsOfRun(rows, "0-1 a").size(), 100u);
    EXPECT_EQ(rowsOfRun(rows, "0-1 b").size(), 100u);
    EXPECT_EQ(rowsOf(rows, "0-2").size(), 50u);
    for (const CsvRow& r : rows)
        EXPECT_EQ(r.smoothed, r.value);
}

TEST_F(ChartExportTest, CsvOfAMeanBandLineHasEachRunsOwnEma) {
    m_chart.changeOptions([&](ChartOptions& o) { o.aggregate = ChartOptions::Aggregate::MeanBand; });
    m_chart.changeOptions([&](ChartOptions& o) { o.smoothing = 50; });
    const QString path = out("band.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    ASSERT_EQ(rowsOf(rows, "0-1").size(), 200u) << "the runs' raw points, not the mean";
    std::map<std::string, double> ema; // per run: the band's runs are smoothed one by one
    for (const CsvRow& r : rowsOf(rows, "0-1")) {
        auto it = ema.find(r.run);
        const double s = it == ema.end() ? r.value : 0.5 * it->second + 0.5 * r.value;
        ema[r.run] = s;
        EXPECT_NEAR(r.smoothed, s, 1e-12);
    }
    EXPECT_EQ(ema.size(), 2u);
}

// The chart as a radT board (JSON) carries each drawn mean line too: its runs, the
// band, and per x the mean, the band's edges and N, the same rows the CSV has; reopened, the board
// keeps them as found.
TEST_F(ChartExportTest, JsonOfAMeanBandLineCarriesItsMeansBandAndN) {
    m_chart.changeOptions([&](ChartOptions& o) { o.aggregate = ChartOptions::Aggregate::MeanBand; });
    const QString json = out("band.json"), csv = out("band.csv");
    exportFormat("json")->write(m_chart, 1, json, 1.0, {});
    exportChartCsv(m_chart, csv);
    std::vector<BoardProblem> problems;
    const Board board = loadBoardFile(json.toStdString(), problems);
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(board.charts.size(), 1u);
    const nlohmann::json& means = board.charts[0].extra.at("groupMeans");
    ASSERT_EQ(means.size(), 1u) << "workload 0-1's two runs: one mean line";
    EXPECT_EQ(means[0]["name"], "0-1");
    EXPECT_EQ(means[0]["runs"].size(), 2u);
    EXPECT_EQ(means[0]["columns"], nlohmann::json::array({"x", "mean", "low", "high", "n"}));
    size_t csvMeans = 0;
    for (const auto& f : parseCsv(test::readFile(csv.toStdString())))
        csvMeans += f.size() == 14 && f[1].empty() && f[3] == "mean";
    EXPECT_EQ(means[0]["points"].size(), csvMeans) << "the rows the CSV has";
    for (const nlohmann::json& p : means[0]["points"]) {
        EXPECT_LE(p[2].get<double>(), p[1].get<double>());
        EXPECT_GE(p[3].get<double>(), p[1].get<double>());
        EXPECT_LE(p[4].get<int>(), 2);
    }
}

// Two runs of one workload at +-1.7e308 made the mean band [-inf, inf]: the chart became a
// coloured wash and the CSV said "inf" and "-nan". The mean is drawn and exported without its band,
// named so, and no export writes a number a reader cannot take.
TEST(ChartExportHostile, ABandWiderThanADoubleIsLeftOutNamedAndNeverWrittenAsInfOrNan) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("huge.db"), OpenMode::CreateIfMissing);
    std::vector<std::string> uuids;
    for (const double sign : {1.0, -1.0}) {
        uuids.push_back(store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid);
        store->logParams(uuids.back(), {{"workload", "1"}, {"letter", sign > 0 ? "a" : "b"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 20; ++i)
            points.push_back({"loss", sign * 1.7e308, kStart + i * 1000, i});
        store->logMetrics(uuids.back(), points);
    }
    ChartPanel chart;
    chart.resize(900, 500);
    chart.changeOptions([](ChartOptions& o) {
        o.naming = ChartOptions::Naming::RadtIds;
        o.aggregate = ChartOptions::Aggregate::MeanBand;
        o.band = ChartOptions::Band::Sd; // a CI of two runs is no band at all: the mean alone
    });
    test::plotFromStore(chart, *store, store->runs(), "loss");
    ASSERT_EQ(chart.engine().lines().size(), 1u);
    const ChartLine& line = chart.engine().lines()[0];
    EXPECT_TRUE(line.bandTooWide);
    EXPECT_FALSE(line.bandLow);
    EXPECT_EQ(line.name.toStdString(), "0-1 (band too wide to draw)");
    const QString csv = QString::fromStdString(dir.file("huge.csv"));
    exportChartCsv(chart, csv);
    const std::string text = test::readFile(csv.toStdString());
    EXPECT_EQ(text.find("inf"), std::string::npos) << text.substr(0, 2000);
    EXPECT_EQ(text.find("nan"), std::string::npos);
    size_t means = 0;
    for (const auto& f : parseCsv(text))
        if (f.size() == 14 && f[1].empty() && f[3] == "mean") {
            ++means;
            EXPECT_EQ(f[9], "0") << "the mean of +-1.7e308, computed without overflow";
            EXPECT_TRUE(f[11].empty() && f[12].empty()) << "no band edges: empty cells";
        }
    EXPECT_EQ(means, 20u) << "the mean line is still exported";
    const size_t rows = test::splitLines(text).size() - 1;
    EXPECT_EQ(test::readByPythonCsvReaders(csv.toStdString()),
              "csv " + std::to_string(rows) + " 14 series\npandas " + std::to_string(rows) + " 14 series")
        << "empty cells, not inf or nan: the readers take them as missing";
    const QString json = QString::fromStdString(dir.file("huge.json"));
    exportFormat("json")->write(chart, 1, json, 1.0, {});
    const std::string board = test::readFile(json.toStdString());
    EXPECT_EQ(board.find("inf"), std::string::npos);
    EXPECT_EQ(board.find("nan"), std::string::npos);
}

TEST_F(ChartExportTest, CsvOnTheWallClockAxisKeepsToTheTimeRange) {
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    m_chart.zoomX(double(kStart + 10'000), double(kStart + 20'000)); // ms since the epoch
    ASSERT_TRUE(m_chart.engine().zoom());
    const QString path = out("clock.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    EXPECT_EQ(rows.size(), 21u) << "workload 2 starts a minute later";
    for (const CsvRow& r : rows) {
        EXPECT_GE(r.timestamp, kStart + 10'000);
        EXPECT_LE(r.timestamp, kStart + 20'000);
    }
}

TEST_F(ChartExportTest, CsvReportsProgressEvery65536RowsOfALargeChart) {
    ChartRunData data;
    data.run = runOf(s_runs.front().uuid);
    const size_t n = 150'000;
    data.series.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        data.series.t.push_back(kStart + int64_t(i) * 10);
        data.series.step.push_back(int64_t(i));
        data.series.v.push_back(double(i % 977) * 0.001);
    }
    ChartPanel big;
    big.resize(900, 500);
    big.changeOptions([this](ChartOptions& o) { o = m_chart.engine().options(); }); // radT's names
    std::vector<ChartRunData> runs;
    runs.push_back(std::move(data));
    big.setData(std::move(runs), "PROC - CPU Utilization");
    ASSERT_LT(big.seriesPoints(0).size(), 5000) << "drawn decimated";
    const QString path = out("big.csv");
    std::vector<std::pair<size_t, size_t>> calls;
    exportChartCsv(big, path, [&](size_t done, size_t total) { calls.emplace_back(done, total); });
    EXPECT_EQ(calls, (std::vector<std::pair<size_t, size_t>>{{65536, n}, {131072, n}, {n, n}}));
    const std::vector<std::string> lines = test::splitLines(test::readFile(path.toStdString()));
    ASSERT_EQ(lines.size(), n + 1) << "every point, not the decimated ones";
    EXPECT_EQ(lines[1000].substr(0, 4), "0-1,");
    const std::vector<std::vector<std::string>> last = parseCsv(lines.back() + "\n");
    ASSERT_EQ(last.front().size(), 14u);
    EXPECT_EQ(last.front()[8], "149999");
    EXPECT_EQ(std::strtod(last.front()[9].c_str(), nullptr), double(149'999 % 977) * 0.001) << lines.back();
}

TEST_F(ChartExportTest, CsvLeavesOutHiddenSeries) {
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.hiddenSeries.insert("0-1");
        else
            o.hiddenSeries.erase("0-1");
    });
    const QString path = out("hidden.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    ASSERT_EQ(rows.size(), 50u);
    EXPECT_EQ(rowsOf(rows, "0-2").size(), 50u);
}

TEST_F(ChartExportTest, CsvKeepsToTheZoomedRange) {
    m_chart.zoomX(10.0, 20.0); // seconds since start
    ASSERT_TRUE(m_chart.engine().zoom());
    EXPECT_EQ(*m_chart.engine().zoom(), std::make_pair(int64_t(10'000), int64_t(20'000)));
    const QString path = out("zoom.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    // a: 10..20 s (11 points), b: 10.5..19.5 s (10), workload 2: 10, 12, ..., 20 s (6)
    EXPECT_EQ(rowsOf(rows, "0-1").size(), 21u);
    EXPECT_EQ(rowsOf(rows, "0-2").size(), 6u);
    for (const CsvRow& r : rows) {
        EXPECT_GE(r.elapsed, 10'000);
        EXPECT_LE(r.elapsed, 20'000);
    }
    m_chart.resetZoom();
    exportChartCsv(m_chart, path);
    EXPECT_EQ(readCsv(path.toStdString()).size(), 250u) << "everything again";
}

TEST_F(ChartExportTest, CsvOnTheStepAxisKeepsToTheStepRange) {
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Step; });
    m_chart.zoomX(20, 39);
    ASSERT_TRUE(m_chart.engine().zoom());
    const QString path = out("steps.csv");
    exportChartCsv(m_chart, path);
    const std::vector<CsvRow> rows = readCsv(path.toStdString());
    EXPECT_EQ(rowsOf(rows, "0-1").size(), 40u) << "steps 20..39 of runs a and b";
    EXPECT_EQ(rowsOf(rows, "0-2").size(), 2u) << "steps 20 and 30";
    for (const CsvRow& r : rows) {
        EXPECT_GE(r.step, 20);
        EXPECT_LE(r.step, 39);
    }
}

TEST_F(ChartExportTest, PngHasTheRequestedPixelsAndIsDrawn) {
    for (const double scale : {1.0, 2.0}) {
        const QString path = out(scale == 1 ? "chart.png" : "chart@2x.png");
        exportChartPng(m_chart, path, QSize(800, 400), scale);
        const QImage image(path);
        ASSERT_FALSE(image.isNull());
        EXPECT_EQ(image.size(), QSize(800, 400) * scale);
        size_t ink = 0;
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QRgb px = image.pixel(x, y) | 0xff000000u;
                ink += px != 0xffffffffu;
                colours.insert(px);
            }
        EXPECT_GT(ink, size_t(image.width() * image.height() / 100)) << "lines, axes and text";
        EXPECT_GT(colours.size(), 20u) << "series colours and antialiased text";
        // Compressed: a chart is mostly white. Stored raw it was 4 bytes a pixel (1.28 MB at 1x).
        const qint64 bytes = QFileInfo(path).size();
        EXPECT_LT(bytes, qint64(image.width()) * image.height() / 4) << bytes << " bytes";
        std::printf("PNG at %gx: %lld bytes\n", scale, static_cast<long long>(bytes));
    }
    EXPECT_THROW(exportChartPng(m_chart, out("x.png"), QSize(800, 400), 8), ExportError);
    EXPECT_FALSE(QFile::exists(out("x.png")));
}

TEST_F(ChartExportTest, SvgIsAVectorDrawingWithText) {
    const QString path = out("loss.svg");
    exportChartSvg(m_chart, path, QSize(800, 400));
    const std::string svg = test::readFile(path.toStdString());
    EXPECT_TRUE(contains(svg, "<title>loss</title>"));
    EXPECT_TRUE(contains(svg, "viewBox=\"0 0 800 400\""));
    EXPECT_GT(countOf(svg, "<text"), 5u) << "axis labels";
    EXPECT_TRUE(contains(svg, ">loss</text>")) << "the y axis title";
    EXPECT_TRUE(contains(svg, ">time since start (s)</text>"));
    // Each line is one polyline with all of its drawn points (QSvgGenerator's <polyline>).
    ASSERT_GE(countOf(svg, "<polyline"), size_t(m_chart.engine().seriesCount()))
        << "lines stay vector outlines";
    size_t longest = 0;
    for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) {
        const size_t from = svg.find("points=\"", at) + 8;
        longest = std::max(longest, countOf(svg.substr(from, svg.find('"', from) - from), ","));
    }
    EXPECT_GE(longest, size_t(m_chart.seriesPoints(0).size())) << "every point of the line";
    EXPECT_TRUE(contains(svg, "vector-effect=\"none\"")) << "pens scale with the drawing";

    // Exporting lays the chart out at another size for a moment: what the window shows stays.
    m_chart.zoomX(10.0, 50.0);
    const QVector<QPointF> shown = m_chart.seriesPoints(0);
    exportChartSvg(m_chart, out("zoomed.svg"), QSize(1600, 300));
    EXPECT_EQ(m_chart.engine().zoom(), std::make_pair(int64_t(10'000), int64_t(50'000)));
    EXPECT_EQ(m_chart.seriesPoints(0), shown);
}

TEST_F(ChartExportTest, PdfKeepsTextAsTextAndLinesAsPaths) {
    const QString path = out("loss.pdf");
    exportChartPdf(m_chart, path, QSize(800, 400));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_TRUE(pdf.contains("/Font"));
    EXPECT_EQ(pdf.count("/Type /Page\n") + pdf.count("/Type /Page "), 1);
    // The page is the chart's size at the resolution it is laid out in (800 px at 96 dpi: 600 pt).
    const int at = pdf.indexOf("/MediaBox [");
    ASSERT_GE(at, 0);
    const QList<QByteArray> box = pdf.mid(at + 11, pdf.indexOf(']', at) - at - 11).simplified().split(' ');
    ASSERT_EQ(box.size(), 4);
    const double dpi = m_chart.logicalDpiY();
    EXPECT_NEAR(box[2].toDouble(), 800 * 72 / dpi, 1.0);
    EXPECT_NEAR(box[3].toDouble(), 400 * 72 / dpi, 1.0);
    const std::string content = pdfContent(pdf);
    EXPECT_TRUE(contains(content, "BT")) << "text objects";
    EXPECT_TRUE(contains(content, "Tj") || contains(content, "TJ")) << "glyphs shown as text";
    EXPECT_GT(countOf(content, " l\n") + countOf(content, " c\n"), 50u) << "lines drawn as paths";
}

TEST_F(ChartExportTest, BoardPdfHasOnePagePerChart) {
    ChartPanel second;
    second.resize(900, 500);
    auto store = openStore("sqlite:///" + s_dir->file("chart.db"), OpenMode::OpenExisting);
    test::plotFromStore(second, *store, s_runs, "loss");
    second.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Step; });
    const QString path = out("board.pdf");
    std::vector<std::pair<int, int>> calls;
    exportBoardPdf({&m_chart, &second}, path, QSize(800, 400),
                   [&](int done, int total) { calls.emplace_back(done, total); });
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_EQ(pdf.count("/Type /Page\n") + pdf.count("/Type /Page "), 2);
    EXPECT_EQ(calls, (std::vector<std::pair<int, int>>{{1, 2}, {2, 2}}));
    EXPECT_THROW(exportBoardPdf({}, out("empty.pdf"), QSize(800, 400), {}), ExportError);
    EXPECT_FALSE(QFile::exists(out("empty.pdf")));
}

TEST_F(ChartExportTest, AMissingDirectoryFailsNamingThePathAndLeavesNoFile) {
    const QString dir = out("missing");
    const std::vector<std::pair<QString, std::function<void(const QString&)>>> exports = {
        {"loss.csv", [&](const QString& p) { exportChartCsv(m_chart, p); }},
        {"loss.png", [&](const QString& p) { exportChartPng(m_chart, p, QSize(400, 300), 2); }},
        {"loss.svg", [&](const QString& p) { exportChartSvg(m_chart, p, QSize(400, 300)); }},
        {"loss.pdf", [&](const QString& p) { exportChartPdf(m_chart, p, QSize(400, 300)); }},
        {"board.pdf", [&](const QString& p) { exportBoardPdf({&m_chart}, p, QSize(400, 300)); }},
    };
    for (const auto& [name, run] : exports) {
        const QString path = dir + QLatin1Char('/') + name;
        try {
            run(path);
            ADD_FAILURE() << name.toStdString() << " did not throw";
        } catch (const ExportError& e) {
            EXPECT_TRUE(contains(e.what(), path.toStdString())) << e.what();
            EXPECT_EQ(e.path(), path);
            EXPECT_FALSE(e.detail().isEmpty());
        }
        EXPECT_FALSE(QFile::exists(path));
    }
    EXPECT_FALSE(QDir(dir).exists());
}

TEST_F(ChartExportTest, AnAbandonedExportKeepsTheOldFileAndLeavesNoTemporaryFile) {
    const QString path = out("loss.csv");
    test::writeFile(path.toStdString(), "old\n");
    EXPECT_THROW(exportChartCsv(m_chart, path, [](size_t, size_t) { throw std::runtime_error("cancelled"); }),
                 std::runtime_error);
    EXPECT_EQ(test::readFile(path.toStdString()), "old\n");
    EXPECT_EQ(QDir(QString::fromStdString(m_out->path())).entryList(QDir::Files), QStringList{"loss.csv"});
}

TEST_F(ChartExportTest, SuggestedFileNamesAreTheMetricSlug) {
    EXPECT_EQ(suggestedFileName(m_chart, "csv"), "loss.csv");
    ChartPanel other;
    other.setData({}, "DCGMI - Power Usage");
    EXPECT_EQ(suggestedFileName(other, "png"), "dcgmi-power-usage.png");
    EXPECT_EQ(suggestedFileName(other, ".pdf"), "dcgmi-power-usage.pdf");
}
