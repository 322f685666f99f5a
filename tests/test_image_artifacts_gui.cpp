// SPDX-License-Identifier: MIT
// Images in the run page: PNG, JPEG, GIF and SVG artifacts decoded off the GUI
// thread and shown scaled to fit, their size said; a folder's images as thumbnails; a 30,000 x
// 30,000 PNG, a truncated JPEG, a broken PNG and SVG that is not are refused with a sentence.
#include "TempDir.h"
#include "widgets/details/ArtifactsPane.h"
#include "widgets/details/ImageArtifact.h"
#include "widgets/details/ImageArtifactViewer.h"

#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QPainter>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

using namespace radt;
using radt::test::TempDir;

namespace {

/// A smooth loss-curve-like picture, as a training script saves one.
QImage plot(int width, int height) {
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setPen(QPen(Qt::blue, 3));
    for (int x = 1; x < width; ++x)
        painter.drawLine(x - 1, int(height * (1 - 1.0 / (1 + 0.02 * (x - 1)))), x,
                         int(height * (1 - 1.0 / (1 + 0.02 * x))));
    return image;
}

uint32_t crc32(const std::string& bytes) {
    uint32_t crc = 0xFFFFFFFFu;
    for (const unsigned char c : bytes) {
        crc ^= c;
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

std::string bigEndian(uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
    return bigEndian(uint32_t(data.size())) + type + data + bigEndian(crc32(type + data));
}

/// A PNG whose header says 30,000 x 30,000 (3.6 GB decoded) in a few dozen bytes: what a
/// decoder that trusted it would try to allocate.
void writeHugePng(const std::string& path) {
    const std::string ihdr = bigEndian(30000) + bigEndian(30000) + std::string("\x08\x06\x00\x00\x00", 5);
    std::ofstream(path, std::ios::binary)
        << std::string("\x89PNG\r\n\x1a\n", 8) << chunk("IHDR", ihdr)
        << chunk("IDAT", std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8)) << chunk("IEND", "");
}

void truncate(const std::string& path, double keep) {
    std::filesystem::resize_file(path, uintmax_t(double(std::filesystem::file_size(path)) * keep));
}

const char* const kSvg = R"(<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150">
<rect width="300" height="150" fill="#eef"/><circle cx="75" cy="75" r="60" fill="#36c"/></svg>)";

} // namespace

TEST(ImageArtifacts, EachFormatDecodesWithItsSizeAndTheBrokenOrHugeAreRefused) {
    TempDir dir;
    ASSERT_TRUE(plot(640, 480).save(QString::fromStdString(dir.file("loss.png"))));
    ASSERT_TRUE(plot(800, 600).save(QString::fromStdString(dir.file("confusion.jpg")), "JPEG", 90));
    std::filesystem::copy_file(RADT_FIXTURES_DIR "/images/two-frames.gif", dir.file("frames.gif"));
    std::ofstream(dir.file("diagram.svg")) << kSvg;

    const DecodedImage png = decodeImageArtifact(QString::fromStdString(dir.file("loss.png")));
    EXPECT_TRUE(png.error.isEmpty()) << png.error.toStdString();
    EXPECT_EQ(png.size, QSize(640, 480));
    EXPECT_EQ(png.image.size(), QSize(640, 480));
    EXPECT_EQ(png.format, "PNG");
    EXPECT_EQ(png.image.pixelColor(639, 0), QColor(Qt::white));
    const DecodedImage jpeg = decodeImageArtifact(QString::fromStdString(dir.file("confusion.jpg")));
    EXPECT_TRUE(jpeg.error.isEmpty()) << jpeg.error.toStdString();
    EXPECT_EQ(jpeg.image.size(), QSize(800, 600));
    EXPECT_EQ(jpeg.format, "JPEG");
    const DecodedImage gif = decodeImageArtifact(QString::fromStdString(dir.file("frames.gif")));
    EXPECT_TRUE(gif.error.isEmpty()) << gif.error.toStdString();
    EXPECT_EQ(gif.image.size(), QSize(40, 30));
    EXPECT_EQ(gif.image.pixelColor(0, 0), QColor(Qt::red)) << "the first frame";
    EXPECT_EQ(gif.frames, 2);
    const DecodedImage svg = decodeImageArtifact(QString::fromStdString(dir.file("diagram.svg")));
    EXPECT_TRUE(svg.error.isEmpty()) << svg.error.toStdString();
    EXPECT_EQ(svg.size, QSize(300, 150));
    EXPECT_EQ(svg.image.pixelColor(75, 75), QColor("#3366cc"));
    // A thumbnail is read at its size.
    EXPECT_EQ(thumbnailOf(QString::fromStdString(dir.file("confusion.jpg")), 160).image.size(),
              QSize(160, 120));

    // Refused, each with a sentence naming the file, never decoded.
    writeHugePng(dir.file("huge.png"));
    const DecodedImage huge = decodeImageArtifact(QString::fromStdString(dir.file("huge.png")));
    EXPECT_TRUE(huge.image.isNull());
    EXPECT_TRUE(
        huge.error.startsWith("huge.png is 30000 × 30000 px (900 megapixels, 3.6 GB decoded): more than "
                              "the 64 megapixels"))
        << huge.error.toStdString();
    std::filesystem::copy_file(dir.file("confusion.jpg"), dir.file("cut.jpg"));
    truncate(dir.file("cut.jpg"), 0.5);
    const DecodedImage cut = decodeImageArtifact(QString::fromStdString(dir.file("cut.jpg")));
    EXPECT_TRUE(cut.image.isNull());
    EXPECT_TRUE(cut.error.contains("cut.jpg is a JPEG cut short")) << cut.error.toStdString();
    std::filesystem::copy_file(dir.file("loss.png"), dir.file("broken.png"));
    truncate(dir.file("broken.png"), 0.3);
    const DecodedImage broken = decodeImageArtifact(QString::fromStdString(dir.file("broken.png")));
    EXPECT_TRUE(broken.image.isNull());
    EXPECT_TRUE(broken.error.contains("broken.png")) << broken.error.toStdString();
    std::ofstream(dir.file("notes.png")) << "not an image at all\n";
    const DecodedImage text = decodeImageArtifact(QString::fromStdString(dir.file("notes.png")));
    EXPECT_TRUE(text.error.contains("notes.png is not a PNG, JPEG or GIF image")) << text.error.toStdString();
    std::ofstream(dir.file("bad.svg")) << "<svg xmlns='http://www.w3.org/2000/svg'><rect width=";
    const DecodedImage badSvg = decodeImageArtifact(QString::fromStdString(dir.file("bad.svg")));
    EXPECT_TRUE(badSvg.error.contains("bad.svg is not an SVG image")) << badSvg.error.toStdString();
}

TEST(ImageArtifacts, TheRunPageShowsImagesFittedAndAFolderAsThumbnails) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    std::filesystem::create_directories(root + "/plots");
    ASSERT_TRUE(plot(1600, 1200).save(QString::fromStdString(root + "/plots/loss.png")));
    ASSERT_TRUE(plot(800, 600).save(QString::fromStdString(root + "/plots/accuracy.jpg"), "JPEG"));
    writeHugePng(root + "/plots/huge.png");
    std::ofstream(root + "/output.log") << "epoch 1\n";

    ArtifactsPane pane;
    pane.resize(900, 600);
    pane.show();
    pane.showArtifacts("file://" + root, {"here", "here", false, ""});
    ASSERT_TRUE(pane.waitIdle(20000));
    // The gallery entry leads the list.
    QTreeWidgetItem* gallery = pane.files()->topLevelItem(0);
    ASSERT_NE(gallery, nullptr);
    EXPECT_EQ(gallery->text(0), QStringLiteral("▦ plots/: 3 images"));
    pane.files()->setCurrentItem(gallery);
    ImageArtifactViewer* viewer = pane.images();
    ASSERT_TRUE(QTest::qWaitFor([&] { return viewer->pendingThumbnails() == 0; }, 20000));
    QListWidget* grid = viewer->thumbnails();
    ASSERT_EQ(grid->count(), 3);
    int withIcon = 0, refused = 0;
    for (int i = 0; i < grid->count(); ++i) {
        withIcon += !grid->item(i)->icon().isNull();
        refused += grid->item(i)->toolTip().contains("megapixels");
    }
    EXPECT_EQ(withIcon, 2);
    EXPECT_EQ(refused, 1) << "the huge one is a tile that says why";

    // An image: fitted (a 1600 px plot in a 900 px pane is shown smaller), its size said.
    ASSERT_TRUE(pane.openArtifact(QStringLiteral("plots/loss.png")));
    ASSERT_TRUE(pane.waitIdle(20000));
    EXPECT_TRUE(viewer->isVisibleTo(&pane));
    EXPECT_TRUE(viewer->infoText().startsWith(QStringLiteral("plots/loss.png: 1600 × 1200 px, PNG, ")))
        << viewer->infoText().toStdString();
    EXPECT_TRUE(viewer->fitted());
    EXPECT_LT(viewer->zoom(), 1.0);
    for (QToolButton* b : viewer->findChildren<QToolButton*>())
        if (b->text() == QStringLiteral("100 %"))
            QTest::mouseClick(b, Qt::LeftButton);
    EXPECT_DOUBLE_EQ(viewer->zoom(), 1.0);
    EXPECT_TRUE(viewer->infoText().endsWith(QStringLiteral("shown at 100 %")))
        << viewer->infoText().toStdString();

    // The huge one: a sentence, the desktop's application offered, nothing decoded.
    ASSERT_TRUE(pane.openArtifact(QStringLiteral("plots/huge.png")));
    ASSERT_TRUE(pane.waitIdle(20000));
    EXPECT_TRUE(pane.messageText().contains(QStringLiteral("30000 × 30000 px")))
        << pane.messageText().toStdString();
}
