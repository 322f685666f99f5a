// SPDX-License-Identifier: MIT
// radt-explorer driven as a person drives it: the real binary in a real X server
// (Xvfb), a real mouse and keyboard (xdotool's XTEST events, which reach the window exactly as a
// user's do), and a real screenshot of the screen (ImageMagick's import). The scenario: clear the
// basket, drag two workloads from the tree into it, add a chart, find a metric by typing, zoom
// with a rubber band, export the chart through the File menu and its file dialog, save the board
// with Ctrl+S, quit with Ctrl+Q, open the board again from the command line and check what is on
// screen. The explorer says where its widgets are through RADT_EXPLORER_WIDGET_MAP (WidgetMap.h).
// Skipped where Xvfb, xdotool or import is missing (README command 2 installs them).

#include "TempDir.h"
#include "collector/listeners/ChildProcess.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRect>

#include <filesystem>

#include <gtest/gtest.h>

#include <map>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;
const char* const kExplorer = RADT_BINARY_DIR "/app/radt-explorer";

bool onPath(const std::string& program) {
    return std::system(("command -v " + program + " > /dev/null 2>&1").c_str()) == 0;
}

// A store with workload 1 (runs a and b, collocated) and workload 2 (run a, later), each logging
// "SMI - Power Draw" once a second for ten minutes (workload 1 near 100 W, workload 2 near 250 W)
// and "SMI - GPU Util", which the first look shows (the first key).
void buildStore(const std::string& path) {
    auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
    auto addRun = [&](const char* workload, const char* letter, int64_t start, double watts) {
        const std::string uuid = store
                                     ->createRun({0, std::string("train-") + workload + letter, start, "u",
                                                  "train.py", RunStatus::Running})
                                     .uuid;
        store->logParams(uuid, {{"workload", workload}, {"letter", letter}});
        std::vector<MetricPoint> points;
        for (int s = 0; s <= 600; ++s) {
            points.push_back({"SMI - Power Draw", watts + 20 * std::sin(s / 40.0), start + s * 1000, 0});
            points.push_back({"SMI - GPU Util", watts / 3, start + s * 1000, 0});
        }
        store->logMetrics(uuid, points);
        store->setRunStatus(uuid, RunStatus::Finished, start + 600'000);
    };
    addRun("1", "a", kStart, 100);
    addRun("1", "b", kStart, 110);
    addRun("2", "a", kStart + 700'000, 250);
}

// An X server of its own on a free display number, gone with the object.
class XServer {
public:
    explicit XServer(const std::string& screen = "1280x800x24") {
        ChildOptions options;
        options.onStdoutLine = [this](const std::string& line) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_display = ":" + line;
        };
        m_process =
            std::make_unique<ChildProcess>(std::vector<std::string>{"Xvfb", "-displayfd", "1", "-screen", "0",
                                                                    screen, "-nolisten", "tcp", "-noreset"},
                                           std::map<std::string, std::string>{}, options);
        test::waitFor([this] { return !display().empty(); }, 10000);
    }
    ~XServer() { m_process->terminate(2000); }
    std::string display() const {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_display;
    }
    /// xdotool with `args` against this display; its exit code.
    int xdotool(const std::string& args) const {
        return std::system(("DISPLAY=" + display() + " xdotool " + args).c_str());
    }
    /// The whole screen as a PNG, as the user sees it.
    QImage screenshot(const std::string& path) const {
        std::system(("DISPLAY=" + display() + " import -window root " + path).c_str());
        return QImage(QString::fromStdString(path));
    }

private:
    mutable std::mutex m_mutex;
    std::string m_display;
    std::unique_ptr<ChildProcess> m_process;
};

// What the explorer says is on screen (its RADT_EXPLORER_WIDGET_MAP file).
struct Screen {
    QJsonObject map;

    static QRect rectOf(const QJsonValue& value) {
        const QJsonArray r = value.toArray();
        return QRect(r.at(0).toInt(), r.at(1).toInt(), r.at(2).toInt(), r.at(3).toInt());
    }
    std::optional<QRect> row(const QString& view, const QString& text) const {
        for (const QJsonValue& r : map["rows"].toArray())
            if (r["view"].toString() == view && r["text"].toString() == text)
                return rectOf(r["rect"]);
        return std::nullopt;
    }
    int rowCount(const QString& view) const {
        int n = 0;
        for (const QJsonValue& r : map["rows"].toArray())
            n += r["view"].toString() == view;
        return n;
    }
    std::optional<QRect> widget(const QString& cls, const QString& text = QString()) const {
        for (const QJsonValue& w : map["widgets"].toArray())
            if (w["class"].toString() == cls && (text.isNull() || w["text"].toString() == text))
                return rectOf(w["rect"]);
        return std::nullopt;
    }
    std::optional<QRect> named(const QString& name) const {
        for (const QJsonValue& w : map["widgets"].toArray())
            if (w["name"].toString() == name)
                return rectOf(w["rect"]);
        return std::nullopt;
    }
    std::optional<QRect> action(const QString& text) const {
        for (const QJsonValue& a : map["actions"].toArray())
            if (a["text"].toString() == text)
                return rectOf(a["rect"]);
        return std::nullopt;
    }
    QJsonArray charts() const { return map["charts"].toArray(); }
    std::optional<QJsonObject> chartOf(const QString& metric) const {
        for (const QJsonValue& c : charts())
            if (c["metric"].toString() == metric)
                return c.toObject();
        return std::nullopt;
    }
};

class ExplorerX11Test : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* tool : {"Xvfb", "xdotool", "import"})
            if (!onPath(tool))
                GTEST_SKIP() << tool << " is not installed (Debian: xvfb, xdotool, imagemagick)";
        m_x = std::make_unique<XServer>();
        ASSERT_FALSE(m_x->display().empty()) << "Xvfb did not start";
        buildStore(m_dir.file("store.db"));
    }
    void TearDown() override {
        // What the screen showed when something went wrong, kept beside the build for a look.
        if (HasFailure() && m_x) {
            const std::string keep = RADT_BINARY_DIR "/tests/test_explorer_x11-failure.png";
            m_x->screenshot(keep);
            std::fprintf(stderr, "the screen at the failure: %s\n", keep.c_str());
        }
        if (m_explorer)
            m_explorer->terminate(2000);
        if (m_windowManager)
            m_windowManager->terminate(2000);
    }
    /// Openbox on this display, as a desktop has a window manager (title bar, placement, focus).
    void startWindowManager() {
        m_windowManager = std::make_unique<ChildProcess>(
            std::vector<std::string>{"openbox"},
            // Its cache (openbox.log) in the test's folder, not the suite's home (resources/test.sh).
            std::map<std::string, std::string>{{"DISPLAY", m_x->display()},
                                               {"XDG_CACHE_HOME", m_dir.file("cache")}},
            m_dir.file("openbox.log"));
    }
    void launch(const std::vector<std::string>& extraArgs) {
        std::vector<std::string> argv{kExplorer, "--store", "sqlite:///" + m_dir.file("store.db")};
        argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
        QFile::remove(QString::fromStdString(m_dir.file("map.json")));
        m_explorer = std::make_unique<ChildProcess>(
            argv,
            std::map<std::string, std::string>{{"DISPLAY", m_x->display()},
                                               {"QT_QPA_PLATFORM", "xcb"},
                                               {"HOME", m_dir.file("home")},
                                               {"XDG_CONFIG_HOME", m_dir.file("home/.config")},
                                               {"RADT_EXPLORER_WIDGET_MAP", m_dir.file("map.json")}},
            m_dir.file("explorer.log"));
    }
    Screen screen() const {
        QFile file(QString::fromStdString(m_dir.file("map.json")));
        if (!file.open(QIODevice::ReadOnly))
            return Screen{};
        return Screen{QJsonDocument::fromJson(file.readAll()).object()};
    }
    /// Waits until what is on screen satisfies `condition` (the map is rewritten as it changes).
    bool waitForScreen(const std::function<bool(const Screen&)>& condition, int timeoutMs = 15000) {
        return test::waitFor([&] { return condition(screen()); }, timeoutMs);
    }
    void click(const QPoint& at) {
        m_x->xdotool("mousemove " + std::to_string(at.x()) + " " + std::to_string(at.y()) + " click 1");
    }
    /// Press, move in steps (Qt starts a drag after a few pixels), release: as a hand does it.
    void drag(const QPoint& from, const QPoint& to) {
        auto move = [&](const QPoint& p) {
            m_x->xdotool("mousemove " + std::to_string(p.x()) + " " + std::to_string(p.y()));
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
        };
        move(from);
        m_x->xdotool("mousedown 1");
        for (int i = 1; i <= 12; ++i)
            move(from + (to - from) * i / 12);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        m_x->xdotool("mouseup 1");
    }
    /// Types an absolute path into the file dialog that has the focus and accepts it.
    void answerFileDialog(const std::string& path) {
        ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.widget("QFileDialog").has_value(); }))
            << "a file dialog";
        m_x->xdotool("key ctrl+a");
        m_x->xdotool("type --delay 15 '" + path + "'");
        m_x->xdotool("key Return");
        ASSERT_TRUE(waitForScreen([](const Screen& s) { return !s.widget("QFileDialog").has_value(); }));
        focusMainWindow();
    }
    /// Without a window manager nobody gives the keyboard to a new window or back to the main
    /// window when a dialog closes: do what the window manager would.
    void focusMainWindow() {
        m_x->xdotool("search --onlyvisible --name '^radt-explorer' windowfocus --sync");
    }
    std::string log() const { return test::readFile(m_dir.file("explorer.log")); }
    /// Under openbox: the explorer launched, workload 1 opened with the keyboard, its run
    /// train-1a clicked (current and selected).
    void launchAndClickTrain1a() {
        startWindowManager();
        launch({});
        ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.row("runTree", "workload 1").has_value(); }))
            << log();
        // Under a loaded machine the key can reach the window before the click has given the tree
        // the keyboard (seen once in CI with the GUI tests four at a time): click and press again.
        bool expanded = false;
        for (int attempt = 0; attempt < 3 && !expanded; ++attempt) {
            click(screen().row("runTree", "workload 1")->center());
            m_x->xdotool("key Right");
            expanded =
                waitForScreen([](const Screen& s) { return s.row("runTree", "train-1a").has_value(); }, 5000);
        }
        ASSERT_TRUE(expanded) << log();
        click(screen().row("runTree", "train-1a")->center());
    }

    test::TempDir m_dir;
    std::unique_ptr<XServer> m_x;
    std::unique_ptr<ChildProcess> m_explorer;
    std::unique_ptr<ChildProcess> m_windowManager;
};

double xAt(const QJsonObject& chart, int end) {
    return chart["xRange"].toArray().at(end).toDouble();
}

// Pixels of `image` inside `rect` within 40 (per channel) of `colour`.
int pixelsNear(const QImage& image, const QRect& rect, QRgb colour) {
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x) {
            const QRgb p = image.pixel(x, y);
            n += std::abs(qRed(p) - qRed(colour)) < 40 && std::abs(qGreen(p) - qGreen(colour)) < 40 &&
                 std::abs(qBlue(p) - qBlue(colour)) < 40;
        }
    return n;
}

} // namespace

TEST_F(ExplorerX11Test, DragZoomExportSaveAndReopenABoardWithMouseAndKeys) {
    const QString power = QStringLiteral("SMI - Power Draw");
    launch({});
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.row("runTree", "workload 1").has_value(); }))
        << log();
    // The first look shows the latest workload: empty the basket with its button.
    click(screen().widget("QPushButton", "Clear all")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.rowCount("basketView") == 0; })) << log();

    // Drag each workload from the tree into the basket.
    // The basket's title counts its runs: its few rows may not show every workload dropped.
    const std::map<QString, QString> basketTitle = {
        {QStringLiteral("workload 1"), QStringLiteral("Basket (2 runs)")},
        {QStringLiteral("workload 2"), QStringLiteral("Basket (3 runs)")}};
    for (const QString& workload : {QStringLiteral("workload 1"), QStringLiteral("workload 2")}) {
        const Screen now = screen();
        drag(now.row("runTree", workload)->center(), now.named("basketView")->center());
        ASSERT_TRUE(waitForScreen([&](const Screen& s) {
            if (s.widget("QLabel", basketTitle.at(workload)).has_value())
                return true;
            for (const QJsonValue& r : s.map["rows"].toArray())
                if (r["view"].toString() == "basketView" && r["text"].toString().endsWith(workload))
                    return true;
            return false;
        })) << "dropped "
            << workload.toStdString() << "\n"
            << log();
    }
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        return s.widget("QLabel", "Basket (3 runs)").has_value() && s.rowCount("basketView") >= 3;
    })) << "two workloads' three runs, a workload and its runs in view (the basket is a few rows high)";

    // A new chart, and the metric found by typing into the metric search.
    const int chartsBefore = int(screen().charts().size());
    click(screen().widget("QPushButton", "Add chart")->center());
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return int(s.charts().size()) == chartsBefore + 1; }));
    click(screen().named("metricSearch")->center());
    m_x->xdotool("type --delay 15 'Power'");
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.row("metricList", "Power Draw").has_value(); }));
    const auto plotted = [&](const Screen& s) {
        const auto chart = s.chartOf(power);
        return chart && (*chart)["series"].toArray().size() == 2;
    };
    click(screen().row("metricList", "Power Draw")->center());
    // The basket's metric keys are read off the GUI thread; on a loaded machine they can land
    // between the widget map naming the row and the click, and rebuild the list under the mouse
    // (the click then selects nothing). A person clicks again: so does the test, once.
    if (!waitForScreen(plotted, 5000))
        click(screen().row("metricList", "Power Draw")->center());
    ASSERT_TRUE(waitForScreen(plotted)) << log();
    QJsonObject chart = *screen().chartOf(power);
    EXPECT_EQ(chart["series"].toArray(), (QJsonArray{"workload 1", "workload 2"}));
    const double fullFrom = xAt(chart, 0), fullTo = xAt(chart, 1);

    // Zoom: a rubber band over the second quarter of the plot.
    const QRect plot = Screen::rectOf(chart["plot"]);
    drag(QPoint(plot.left() + plot.width() / 4, plot.center().y()),
         QPoint(plot.left() + plot.width() / 2, plot.center().y()));
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return (*s.chartOf(power))["zoomed"].toBool(); }))
        << log();
    chart = *screen().chartOf(power);
    const double span = fullTo - fullFrom;
    EXPECT_NEAR(xAt(chart, 0), fullFrom + span / 4, span * 0.02);
    EXPECT_NEAR(xAt(chart, 1), fullFrom + span / 2, span * 0.02);

    // Export the chart through the menus: File > Export > Chart as PNG, scale 2 (the default).
    click(screen().action("&File")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.action("&Export").has_value(); }));
    click(screen().action("&Export")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.action("Chart as &PNG...").has_value(); }));
    click(screen().action("Chart as &PNG...")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.widget("QInputDialog").has_value(); }));
    m_x->xdotool("key Return");
    answerFileDialog(m_dir.file("power.png"));
    ASSERT_TRUE(test::waitFor(
        [&] { return QImage(QString::fromStdString(m_dir.file("power.png"))).width() > 0; }, 10000))
        << log();
    const QImage exported(QString::fromStdString(m_dir.file("power.png")));
    EXPECT_EQ(exported.size(), QSize(2400, 1200)) << "1200 x 600 at 2x";
    const QRect whole = exported.rect();
    EXPECT_GT(pixelsNear(exported, whole, 0x4e79a7), 500) << "workload 1's line";
    EXPECT_GT(pixelsNear(exported, whole, 0xf28e2b), 500) << "workload 2's line";

    // Save the board (Ctrl+S asks where the first time), quit with Ctrl+Q.
    m_x->xdotool("key ctrl+s");
    answerFileDialog(m_dir.file("board.json"));
    ASSERT_TRUE(test::waitFor([&] { return !test::readFile(m_dir.file("board.json")).empty(); }, 10000));
    m_x->xdotool("key ctrl+q");
    ASSERT_TRUE(test::waitFor([&] { return m_explorer->poll().has_value(); }, 15000)) << "quits";
    EXPECT_EQ(m_explorer->poll()->code, 0) << log();
    m_explorer.reset();

    // Open the board from the command line: the same chart, zoomed where it was, drawn on screen.
    launch({m_dir.file("board.json")});
    ASSERT_TRUE(waitForScreen([&](const Screen& s) {
        const auto c = s.chartOf(power);
        return c && (*c)["series"].toArray().size() == 2 && (*c)["zoomed"].toBool();
    })) << log();
    const QJsonObject reopened = *screen().chartOf(power);
    EXPECT_EQ(reopened["series"], chart["series"]);
    ASSERT_EQ(reopened["xTitle"].toString(), "time since start (s)");
    EXPECT_NEAR(xAt(reopened, 0), xAt(chart, 0), 0.001) << "the board keeps the zoom to the ms";
    EXPECT_NEAR(xAt(reopened, 1), xAt(chart, 1), 0.001);
    // The board opens at its first chart; Ctrl+wheel over the board scrolls it
    // down to the power chart (the wheel alone would zoom the chart under the mouse, item 4).
    ASSERT_TRUE(waitForScreen([&](const Screen& s) {
        const auto charts = s.charts();
        return !charts.isEmpty() && charts.at(0).toObject()["metric"].toString() != power &&
               Screen::rectOf(charts.at(0).toObject()["plot"]).top() < 400;
    })) << "the first chart at the top of the board";
    const QRect board = *screen().named("boardScroll");
    m_x->xdotool("mousemove " + std::to_string(board.center().x()) + " " +
                 std::to_string(board.center().y()));
    m_x->xdotool("keydown ctrl click --repeat 6 --delay 80 5 keyup ctrl");
    ASSERT_TRUE(waitForScreen([&](const Screen& s) {
        const QRect plot = Screen::rectOf((*s.chartOf(power))["plot"]);
        return board.contains(plot);
    })) << "Ctrl+wheel scrolled the board to the power chart";
    EXPECT_TRUE((*screen().chartOf(power))["zoomed"].toBool()) << "scrolled, not zoomed";
    // Take the screen once the plot has stayed where the map says it is, and check the map still
    // says so after the shot.
    QImage shot;
    QRect shown;
    for (int attempt = 0; attempt < 20; ++attempt) {
        shown = Screen::rectOf((*screen().chartOf(power))["plot"]);
        std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the frame reaches the X server
        shot = m_x->screenshot(m_dir.file("screen.png"));
        if (Screen::rectOf((*screen().chartOf(power))["plot"]) == shown)
            break;
    }
    ASSERT_EQ(shot.size(), QSize(1280, 800));
    EXPECT_GT(pixelsNear(shot, shown, 0x4e79a7), 100) << "workload 1's line on screen";
    EXPECT_GT(pixelsNear(shot, shown, 0xf28e2b), 100) << "workload 2's line on screen";
    focusMainWindow();
    m_x->xdotool("key ctrl+q");
    EXPECT_TRUE(test::waitFor([&] { return m_explorer->poll().has_value(); }, 15000));
}

// On a 1024x700 laptop screen under a real window manager the window, its title
// bar and its status bar (the progress bar, the index notice) are all on the screen. The frame made
// the window 20 px taller than the screen before.
TEST_F(ExplorerX11Test, UnderAWindowManagerTheWindowAndItsStatusBarFitA1024x700Screen) {
    if (!onPath("openbox"))
        GTEST_SKIP() << "openbox is not installed (Debian: openbox)";
    m_x = std::make_unique<XServer>("1024x700x24");
    ASSERT_FALSE(m_x->display().empty()) << "Xvfb did not start";
    startWindowManager();
    launch({});
    // Framed (the client area starts below a title bar) and wholly on the screen.
    ASSERT_TRUE(waitForScreen(
        [](const Screen& s) {
            const auto window = s.widget("radt::MainWindow");
            const auto status = s.widget("QStatusBar");
            return window && status && window->top() > 0 && window->left() >= 0 && window->right() < 1024 &&
                   status->bottom() < 700;
        },
        20000))
        << "main window " << test::readFile(m_dir.file("map.json")).substr(0, 400) << "\n"
        << log();
}

// With real keys under a window manager at 1024x700: Enter on a run in the tree
// opens Run Details beside the tree; Alt+A shows its artifacts, whose output.log is open; Ctrl+F,
// a word typed and Enter find the line that holds it, scrolled into view.
TEST_F(ExplorerX11Test, EnterOnARunShowsItsDetailsAndCtrlFFindsALineOfItsOutputLog) {
    if (!onPath("openbox"))
        GTEST_SKIP() << "openbox is not installed (Debian: openbox)";
    m_x = std::make_unique<XServer>("1024x700x24");
    ASSERT_FALSE(m_x->display().empty()) << "Xvfb did not start";
    {
        auto store = openStore("sqlite:///" + m_dir.file("store.db"), OpenMode::OpenExisting);
        for (const radt::Run& run : store->runs())
            if (run.name == "train-1a") {
                std::string log;
                for (int i = 1; i <= 5000; ++i)
                    log += i == 4321 ? "epoch 43: loss went NaN, stopping\n"
                                     : "epoch " + std::to_string(i / 100) + " ok\n";
                std::filesystem::create_directories(run.artifactUri);
                test::writeFile(run.artifactUri + "/output.log", log);
            }
    }
    // workload 1 opened with the keyboard, its first run current, Enter.
    ASSERT_NO_FATAL_FAILURE(launchAndClickTrain1a());
    m_x->xdotool("key Return");
    // Beside the tree, once the dock has settled into the layout (it is mapped before it is placed).
    EXPECT_TRUE(waitForScreen([](const Screen& s) {
        const auto details = s.named("runDetails"), tree = s.named("runTree");
        return details && tree && details->left() > tree->left() + tree->width() / 2;
    })) << "the details beside the tree: "
        << log();
    m_x->xdotool("key alt+a");
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        const auto status = [&]() -> QString {
            for (const QJsonValue& w : s.map["widgets"].toArray())
                if (w["name"].toString() == "artifactStatus")
                    return w["text"].toString();
            return QString();
        }();
        return s.named("textPageView").has_value() && status.startsWith("output.log: 5");
    })) << "output.log opened first\n"
        << log();
    click(screen().named("textPageView")->center());
    m_x->xdotool("key ctrl+f");
    m_x->xdotool("type --delay 15 'nan, stop'");
    m_x->xdotool("key Return");
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        for (const QJsonValue& w : s.map["widgets"].toArray())
            if (w["name"].toString() == "artifactStatus")
                return w["text"].toString().remove(',').contains("Found on line 4321");
        return false;
    })) << "the search found line 4,321\n"
        << log();
    // On screen: the match's highlight in the viewer (the line is scrolled into view).
    const QImage shot = m_x->screenshot(m_dir.file("details.png"));
    EXPECT_GT(pixelsNear(shot, *screen().named("textPageView"), qRgb(255, 210, 60)), 50);
}

// Twelve runs of a batch-size sweep (3 batch sizes x 4 seeds, each run its own
// workload) are twelve lines; the chart's Runs menu, clicked with the mouse under a window
// manager, groups them per configuration into three means named by batch size with their N.
TEST_F(ExplorerX11Test, TwelveRunsOfASweepGroupIntoThreeLinesPerConfigurationFromTheRunsMenu) {
    if (!onPath("openbox"))
        GTEST_SKIP() << "openbox is not installed (Debian: openbox)";
    const QString power = QStringLiteral("SMI - Power Draw");
    QFile::remove(QString::fromStdString(m_dir.file("store.db")));
    {
        auto store = openStore("sqlite:///" + m_dir.file("store.db"), OpenMode::CreateIfMissing);
        const int64_t experiment = store->getOrCreateExperiment("sweep");
        int64_t start = kStart;
        int workload = 0;
        for (const int batch : {256, 64, 128})
            for (int seed = 1; seed <= 4; ++seed) {
                const std::string uuid =
                    store->createRun({experiment, "train", start, "u", "train.py", RunStatus::Running}).uuid;
                store->logParams(uuid, {{"workload", std::to_string(++workload)},
                                        {"letter", "0"},
                                        {"batch-size", std::to_string(batch)},
                                        {"seed", std::to_string(seed)}});
                std::vector<MetricPoint> points;
                for (int s = 0; s <= 120; ++s)
                    points.push_back({"SMI - Power Draw", batch + 10.0 * seed + 15 * std::sin(s / 9.0 + seed),
                                      start + s * 1000, 0});
                store->logMetrics(uuid, points);
                store->setRunStatus(uuid, RunStatus::Finished, start + 120'000);
                start += 200'000;
            }
    }
    startWindowManager();
    launch({});
    const auto sweepRow = [](const Screen& s) -> std::optional<QRect> {
        for (const QJsonValue& r : s.map["rows"].toArray())
            if (r["view"].toString() == "runTree" && r["text"].toString().startsWith("sweep"))
                return Screen::rectOf(r["rect"]);
        return std::nullopt;
    };
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return sweepRow(s).has_value(); }, 20000)) << log();
    // The first look fills the basket as the window comes up; a click in that moment can be lost
    // under a busy machine: a person clicks again, so does the test, once.
    const auto emptied = [](const Screen& s) { return s.rowCount("basketView") == 0; };
    click(screen().widget("QPushButton", "Clear all")->center());
    if (!waitForScreen(emptied, 5000))
        click(screen().widget("QPushButton", "Clear all")->center());
    ASSERT_TRUE(waitForScreen(emptied)) << log();
    // A double-click on the experiment puts all its runs in the basket.
    const QPoint row = sweepRow(screen())->center();
    m_x->xdotool("mousemove " + std::to_string(row.x()) + " " + std::to_string(row.y()) +
                 " click --repeat 2 --delay 60 1");
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        return s.widget("QLabel", "Basket (12 runs)").has_value();
    })) << log();
    const auto lines = [&](const Screen& s) {
        const auto chart = s.chartOf(power);
        return chart ? (*chart)["series"].toArray().size() : 0;
    };
    if (!waitForScreen([&](const Screen& s) { return lines(s) == 12; }, 8000)) {
        click(screen().widget("QPushButton", "Add chart")->center());
        ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.named("metricSearch").has_value(); }));
        click(screen().named("metricSearch")->center());
        m_x->xdotool("type --delay 15 'Power'");
        ASSERT_TRUE(
            waitForScreen([](const Screen& s) { return s.row("metricList", "Power Draw").has_value(); }));
        click(screen().row("metricList", "Power Draw")->center());
    }
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return lines(s) == 12; }))
        << "one line per run: " << log();

    // Runs > Per configuration: the menu opened and the choice clicked with the mouse.
    const QString perConfiguration = QStringLiteral("Per configuration (params less seed)");
    click(screen().widget("QToolButton", "Runs")->center());
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return s.action(perConfiguration).has_value(); }))
        << "the Runs menu is open";
    // As a hand does: onto the entry (the menu highlights it), a moment, then the click.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const QPoint entry = screen().action(perConfiguration)->center();
    m_x->xdotool("mousemove " + std::to_string(entry.x()) + " " + std::to_string(entry.y()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    m_x->xdotool("click 1");
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return lines(s) == 3; })) << log();
    EXPECT_EQ((*screen().chartOf(power))["series"].toArray(),
              (QJsonArray{"batch-size=64 (N=4)", "batch-size=128 (N=4)", "batch-size=256 (N=4)"}));
    const QImage shot = m_x->screenshot(m_dir.file("grouped.png"));
    EXPECT_EQ(shot.size(), QSize(1280, 800));
    focusMainWindow();
    m_x->xdotool("key ctrl+q");
    EXPECT_TRUE(test::waitFor([&] { return m_explorer->poll().has_value(); }, 15000));
}

// With real keys and the mouse under a window manager: F2 renames the selected run,
// Delete deletes it (it leaves the tree), Run > Show Deleted Runs brings it back struck out, its
// context menu restores it, Ctrl+Z undoes that; each read back from the store as another client.
TEST_F(ExplorerX11Test, F2RenamesDeleteDeletesTheContextMenuRestoresAndCtrlZUndoes) {
    if (!onPath("openbox"))
        GTEST_SKIP() << "openbox is not installed (Debian: openbox)";
    m_x = std::make_unique<XServer>("1024x700x24");
    ASSERT_FALSE(m_x->display().empty()) << "Xvfb did not start";
    const std::string uri = "sqlite:///" + m_dir.file("store.db");
    const auto stored = [&]() -> std::optional<radt::Run> {
        for (const radt::Run& r : openStore(uri, OpenMode::OpenExisting)->runs())
            if (r.name == "seed 3 (wrong flag)")
                return r;
        return std::nullopt;
    };
    const auto deletedInStore = [&] {
        for (const radt::Run& r : openStore(uri, OpenMode::OpenExisting)->curation().deletedRuns())
            if (r.name == "seed 3 (wrong flag)")
                return true;
        return false;
    };
    ASSERT_NO_FATAL_FAILURE(launchAndClickTrain1a());
    m_x->xdotool("key F2");
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.widget("QInputDialog").has_value(); }))
        << "F2 asks for the name\n"
        << log();
    m_x->xdotool("key ctrl+a");
    m_x->xdotool("type --delay 15 'seed 3 (wrong flag)'");
    m_x->xdotool("key Return");
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        return s.row("runTree", "seed 3 (wrong flag)").has_value();
    })) << log();
    ASSERT_TRUE(stored().has_value()) << "renamed in the store";
    EXPECT_EQ(stored()->tags.at("mlflow.runName"), "seed 3 (wrong flag)");

    // Delete on the selected row: gone from the tree and from the store's runs.
    focusMainWindow();
    click(screen().row("runTree", "seed 3 (wrong flag)")->center());
    m_x->xdotool("key Delete");
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        return !s.row("runTree", "seed 3 (wrong flag)").has_value();
    })) << log();
    EXPECT_TRUE(test::waitFor([&] { return deletedInStore(); }, 5000));

    // Run > Show Deleted Runs, with the mouse.
    click(screen().action("&Run")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.action("Show &Deleted Runs").has_value(); }))
        << log();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    click(screen().action("Show &Deleted Runs")->center());
    ASSERT_TRUE(waitForScreen([](const Screen& s) {
        return s.row("runTree", "seed 3 (wrong flag)").has_value();
    })) << "the deleted run is back in the tree, to be restored\n"
        << log();
    // Its context menu restores it.
    const QPoint row = screen().row("runTree", "seed 3 (wrong flag)")->center();
    click(row);
    m_x->xdotool("mousemove " + std::to_string(row.x()) + " " + std::to_string(row.y()) + " click 3");
    ASSERT_TRUE(waitForScreen([](const Screen& s) { return s.action("Re&store Runs").has_value(); }))
        << log();
    if (const char* keep = std::getenv("RADT_X11_SCREENSHOTS"))
        m_x->screenshot(std::string(keep) + "/run-curation-1024x700.png");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    click(screen().action("Re&store Runs")->center());
    EXPECT_TRUE(test::waitFor([&] { return !deletedInStore() && stored().has_value(); }, 10000)) << log();

    // Ctrl+Z undoes the restore: deleted again.
    focusMainWindow();
    m_x->xdotool("key ctrl+z");
    EXPECT_TRUE(test::waitFor([&] { return deletedInStore(); }, 10000)) << log();
}

// From a chart: the mouse onto a legend entry, a right-click, Details (or one run of a
// merged line's list) with the mouse: the Run Details dock comes up with a run of that line.
TEST_F(ExplorerX11Test, ARightClickOnALegendEntryOpensTheDetailsOfItsRun) {
    if (!onPath("openbox"))
        GTEST_SKIP() << "openbox is not installed (Debian: openbox)";
    m_x = std::make_unique<XServer>("1024x700x24");
    ASSERT_FALSE(m_x->display().empty()) << "Xvfb did not start";
    startWindowManager();
    launch({});
    // The first look plots the latest workload: its chart's legend on screen.
    const auto legendEntry = [](const Screen& s) -> std::optional<QRect> {
        for (const QJsonValue& c : s.charts())
            for (const QJsonValue& e : c["legend"].toArray())
                if (!e["text"].toString().isEmpty())
                    return Screen::rectOf(e["rect"]);
        return std::nullopt;
    };
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return legendEntry(s).has_value(); })) << log();
    const QPoint entry = legendEntry(screen())->center();
    // As a hand does: onto the entry (the legend marks it hovered), a moment, then the right button.
    m_x->xdotool("mousemove " + std::to_string(entry.x()) + " " + std::to_string(entry.y()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    m_x->xdotool("click 3");
    const auto details = [](const Screen& s) -> std::optional<QRect> { // "Details of train-2a"
        for (const QJsonValue& a : s.map["actions"].toArray())
            if (a["text"].toString().startsWith("Details of"))
                return Screen::rectOf(a["rect"]);
        return std::nullopt;
    };
    ASSERT_TRUE(waitForScreen([&](const Screen& s) { return details(s).has_value(); }))
        << "the legend entry's menu\n"
        << log();
    if (const char* keep = std::getenv("RADT_X11_SCREENSHOTS"))
        m_x->screenshot(std::string(keep) + "/legend-details-1024x700.png");
    if (const auto list = screen().action("Details of")) { // a merged line: its runs listed
        m_x->xdotool("mousemove " + std::to_string(list->center().x()) + " " +
                     std::to_string(list->center().y()));
        const auto firstRun = [](const Screen& s) -> std::optional<QRect> {
            for (const QJsonValue& a : s.map["actions"].toArray())
                if (a["menu"].toString() == "Details of")
                    return Screen::rectOf(a["rect"]);
            return std::nullopt;
        };
        ASSERT_TRUE(waitForScreen([&](const Screen& s) { return firstRun(s).has_value(); })) << log();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        click(firstRun(screen())->center());
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        click(details(screen())->center());
    }
    EXPECT_TRUE(waitForScreen([](const Screen& s) { return s.named("runDetails").has_value(); }))
        << "the Run Details dock\n"
        << log();
}
