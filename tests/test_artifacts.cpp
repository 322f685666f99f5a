// SPDX-License-Identifier: MIT
// A run's artifacts without a widget (core/artifacts): where artifact_uri points and why it cannot
// be read, the listing, text told from binary by content, and the paged text reader on broken and
// large input (empty, no last newline, CRLF, a very long line, a 200 MB file read with small memory).

#include "TempDir.h"
#include "core/artifacts/ArtifactListing.h"
#include "core/artifacts/ArtifactLocation.h"
#include "core/artifacts/TextPager.h"
#include "core/base/Utf8.h"

#include <gtest/gtest.h>

#include <map>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> texts(const std::vector<TextPager::Line>& lines) {
    std::vector<std::string> out;
    for (const auto& l : lines)
        out.push_back(l.text);
    return out;
}

void indexAll(TextPager& pager, uint64_t step = 1 << 20) {
    for (int guard = 0; !pager.indexMore(step); ++guard)
        ASSERT_LT(guard, 1 << 20);
}

/// The first match of needle from `from`, in steps of `budget` bytes.
std::optional<uint64_t> findAll(const TextPager& pager, const std::string& needle, uint64_t from,
                                bool forward, bool matchCase = true, uint64_t budget = 1 << 20) {
    for (;;) {
        const auto step = pager.find(needle, from, forward, matchCase, budget);
        if (step.state == TextPager::FindState::Found)
            return step.offset;
        if (step.state == TextPager::FindState::NotFound)
            return std::nullopt;
        from = step.offset;
    }
}

long rssKb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

} // namespace

TEST(TextPager, EmptyFileHasNoLines) {
    TempDir dir;
    test::writeFile(dir.file("empty.log"), "");
    TextPager pager(dir.file("empty.log"));
    EXPECT_TRUE(pager.indexMore(1024));
    EXPECT_EQ(pager.lineCount(), 0u);
    EXPECT_TRUE(pager.lines(0, 10).empty());
    EXPECT_EQ(findAll(pager, "x", 0, true), std::nullopt);
}

TEST(TextPager, LastLineWithoutNewlineAndCrlfEnds) {
    TempDir dir;
    test::writeFile(dir.file("a.log"), "first\r\nsecond\n\r\n\nlast without end");
    TextPager pager(dir.file("a.log"));
    indexAll(pager);
    ASSERT_EQ(pager.lineCount(), 5u);
    EXPECT_EQ(texts(pager.lines(0, 10)),
              (std::vector<std::string>{"first", "second", "", "", "last without end"}));
    EXPECT_EQ(pager.lines(0, 1)[0].length, 5u) << "the '\\r' of CRLF is no part of the line";
    EXPECT_EQ(texts(pager.lines(3, 1)), std::vector<std::string>{""});
    EXPECT_TRUE(pager.lines(5, 3).empty());
}

TEST(TextPager, TrailingNewlineMakesNoExtraLine) {
    TempDir dir;
    test::writeFile(dir.file("a.log"), "one\ntwo\n");
    TextPager pager(dir.file("a.log"));
    indexAll(pager);
    EXPECT_EQ(pager.lineCount(), 2u);
    EXPECT_EQ(texts(pager.lines(0, 5)), (std::vector<std::string>{"one", "two"}));
}

TEST(TextPager, VeryLongLineIsCutAndTheNextLinesStillRead) {
    TempDir dir;
    const std::string longLine(5'000'000, 'x');
    test::writeFile(dir.file("long.log"), "before\n" + longLine + "\r\nafter\nend");
    TextPager pager(dir.file("long.log"));
    indexAll(pager, 64 * 1024);
    ASSERT_EQ(pager.lineCount(), 4u);
    const auto lines = pager.lines(0, 4, 100);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1].text, std::string(100, 'x'));
    EXPECT_EQ(lines[1].length, longLine.size()) << "its whole length is known, its '\\r' not counted";
    EXPECT_EQ(lines[2].text, "after");
    EXPECT_EQ(lines[3].text, "end");
    EXPECT_EQ(pager.lineOfOffset(lines[2].offset), 2u);
    EXPECT_EQ(pager.lineOfOffset(3'000'000), 1u);
}

TEST(TextPager, IndexGrowsInStepsAndLinesMatchTheFile) {
    TempDir dir;
    std::string text;
    for (int i = 0; i < 200'000; ++i)
        text += "line " + std::to_string(i) + (i % 7 == 0 ? " with some more words in it" : "") + "\n";
    test::writeFile(dir.file("many.log"), text);
    TextPager pager(dir.file("many.log"));
    EXPECT_FALSE(pager.indexMore(100'000));
    const uint64_t early = pager.lineCount();
    EXPECT_GT(early, 1000u);
    EXPECT_LT(early, 200'000u);
    EXPECT_EQ(texts(pager.lines(0, 2)),
              (std::vector<std::string>{"line 0 with some more words in it", "line 1"}))
        << "the first lines read before the index is complete";
    indexAll(pager, 300'000);
    ASSERT_EQ(pager.lineCount(), 200'000u);
    for (uint64_t i : {0ull, 1023ull, 1024ull, 1025ull, 99'999ull, 199'999ull}) {
        const auto got = pager.lines(i, 1);
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].text.substr(0, got[0].text.find(' ', 5)), "line " + std::to_string(i));
        EXPECT_EQ(pager.offsetOfLine(i), got[0].offset);
        EXPECT_EQ(pager.lineOfOffset(got[0].offset + 2), i);
    }
    EXPECT_EQ(pager.lines(199'998, 10).size(), 2u);
}

TEST(TextPager, FindsForwardBackwardAcrossReadsAndFoldsCase) {
    TempDir dir;
    std::string text(3 * (1 << 20), 'a');
    const uint64_t boundary = 1 << 20;
    text.replace(boundary - 3, 6, "NeEdLe"); // across the first read's end
    text.replace(2 * boundary + 10, 6, "needle");
    test::writeFile(dir.file("find.log"), text);
    TextPager pager(dir.file("find.log"));
    EXPECT_EQ(findAll(pager, "NeEdLe", 0, true), boundary - 3);
    EXPECT_EQ(findAll(pager, "needle", 0, true), 2 * boundary + 10);
    EXPECT_EQ(findAll(pager, "needle", 0, true, false), boundary - 3) << "any case";
    EXPECT_EQ(findAll(pager, "needle", boundary - 2, true, false), 2 * boundary + 10);
    EXPECT_EQ(findAll(pager, "needle", text.size(), false, false), 2 * boundary + 10);
    EXPECT_EQ(findAll(pager, "needle", 2 * boundary + 10, false, false), boundary - 3) << "before `from`";
    EXPECT_EQ(findAll(pager, "needle", boundary - 3, false, false), std::nullopt);
    EXPECT_EQ(findAll(pager, "needle", 0, true, false, 1000), boundary - 3) << "small steps find it too";
    const auto step = pager.find("needle", 0, true, true, 1000);
    EXPECT_EQ(step.state, TextPager::FindState::Continue);
    EXPECT_EQ(step.offset, 1000u);
    EXPECT_EQ(findAll(pager, std::string(text.size() + 1, 'a'), 0, true), std::nullopt);
    EXPECT_EQ(findAll(pager, "", 0, true), std::nullopt);
}

TEST(TextPager, RefusesMissingUnreadableAndNonFiles) {
    TempDir dir;
    const std::string missing = test::errorOf([&] { TextPager pager(dir.file("gone.log")); });
    EXPECT_NE(missing.find("gone.log"), std::string::npos) << missing;
    EXPECT_NE(missing.find("No such file"), std::string::npos) << missing;
    const std::string folder = test::errorOf([&] { TextPager pager(dir.path()); });
    EXPECT_NE(folder.find("not a regular file"), std::string::npos) << folder;
    test::writeFile(dir.file("secret.log"), "hidden\n");
    fs::permissions(dir.file("secret.log"), fs::perms::owner_read | fs::perms::owner_write);
    const std::string denied =
        test::errorAsUnprivilegedUser(dir, [&] { TextPager pager(dir.file("secret.log")); });
    EXPECT_NE(denied.find("Permission denied"), std::string::npos) << denied;
}

// A generated log of about 200 MB is indexed, read at its end and searched in a few MiB of memory.
TEST(TextPager, LargeFileIsReadInPagesWithSmallMemory) {
    TempDir dir;
    const std::string path = dir.file("output.log");
    {
        std::string block;
        for (int i = 0; i < 16384; ++i)
            block += "epoch 3 step 1234 loss 0.123456 accuracy 0.98 lr 0.001 time 12.5 s\n";
        std::ofstream out(path, std::ios::binary);
        for (int i = 0; i < 180; ++i)
            out << block;
        out << "the needle line\nlast line";
    }
    const long before = rssKb();
    const auto started = std::chrono::steady_clock::now();
    TextPager pager(path);
    EXPECT_GT(pager.size(), 190'000'000u);
    indexAll(pager, 32 << 20);
    const uint64_t lines = 16384ull * 180 + 2;
    ASSERT_EQ(pager.lineCount(), lines);
    EXPECT_EQ(texts(pager.lines(lines - 2, 5)), (std::vector<std::string>{"the needle line", "last line"}));
    const auto found = findAll(pager, "NEEDLE", 0, true, false, 32 << 20);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(pager.lineOfOffset(*found), lines - 2);
    const long grown = rssKb() - before;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "200 MB log: indexed and searched in " << seconds << " s, RSS grew by " << grown << " KiB\n";
    EXPECT_LT(grown, 16 * 1024) << "the file is never held whole";
}

TEST(TextDetection, NulAndInvalidUtf8AreBinaryAValidCutSequenceIsText) {
    EXPECT_TRUE(looksLikeText("", 0, true));
    EXPECT_TRUE(looksLikeText("plain\r\nascii\t\n", 14, true));
    const std::string utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    EXPECT_TRUE(looksLikeText(utf8.data(), utf8.size(), true));
    EXPECT_FALSE(looksLikeText("a\0b", 3, true));
    EXPECT_FALSE(looksLikeText("caf\xe9 latin-1", 12, true));
    EXPECT_FALSE(looksLikeText("\xff\xfe", 2, true));
    const std::string cut = "ok \xe2\x82"; // a euro sign cut by the block's end
    EXPECT_TRUE(looksLikeText(cut.data(), cut.size(), false));
    EXPECT_FALSE(looksLikeText(cut.data(), cut.size(), true)) << "at the file's end it is broken";
}

TEST(TextDetection, ClassifiesFilesByContentNotName) {
    TempDir dir;
    test::writeFile(dir.file("empty.txt"), "");
    test::writeFile(dir.file("pip.txt"), "numpy==1.26.4\ntorch==2.3.0\n");
    test::writeFile(dir.file("report.nsys-rep"), std::string("SQLite format 3\0\x10\x00", 19));
    test::writeFile(dir.file("looks.log"), std::string("text then \0 a NUL", 17));
    std::string late(kTextSniffBytes + 100, 'a');
    late[kTextSniffBytes + 50] = '\0'; // past the first block: not looked at
    test::writeFile(dir.file("late.log"), late);
    EXPECT_EQ(classifyArtifact(dir.file("empty.txt")), ArtifactKind::Text);
    EXPECT_EQ(classifyArtifact(dir.file("pip.txt")), ArtifactKind::Text);
    EXPECT_EQ(classifyArtifact(dir.file("report.nsys-rep")), ArtifactKind::Binary);
    EXPECT_EQ(classifyArtifact(dir.file("looks.log")), ArtifactKind::Binary);
    EXPECT_EQ(classifyArtifact(dir.file("late.log")), ArtifactKind::Text);
    std::string error;
    EXPECT_EQ(classifyArtifact(dir.file("gone.log"), &error), ArtifactKind::Unreadable);
    EXPECT_NE(error.find("gone.log"), std::string::npos) << error;
    EXPECT_EQ(classifyArtifact(dir.path(), &error), ArtifactKind::Unreadable) << "a folder";
}

// An artifact a colleague replaced by a named pipe froze the window when clicked: opening a FIFO
// for reading waits for a writer that never comes. Nothing under an artifact folder that is not a
// regular file is opened for reading now; each says what it is. Without the fix this test hangs
// until ctest's timeout.
TEST(TextDetection, AFifoOrADeviceIsNamedAndNeverWaitedOn) {
    TempDir dir;
    ASSERT_EQ(::mkfifo(dir.file("output.log").c_str(), 0600), 0);
    std::string error;
    EXPECT_EQ(classifyArtifact(dir.file("output.log"), &error), ArtifactKind::Unreadable);
    EXPECT_NE(error.find("output.log: a named pipe (FIFO), not read"), std::string::npos) << error;
    const std::string pagerError = test::errorOf([&] { TextPager pager(dir.file("output.log")); });
    EXPECT_NE(pagerError.find("a named pipe (FIFO), not read"), std::string::npos) << pagerError;
    EXPECT_EQ(classifyArtifact("/dev/zero", &error), ArtifactKind::Unreadable) << "it would read without end";
    EXPECT_NE(error.find("a device, not read"), std::string::npos) << error;
}

TEST(ArtifactListing, ListsNestedFilesWithSizesAndSaysWhatItCouldNotRead) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root + "/profiles/deep");
    test::writeFile(root + "/output.log", "12345");
    test::writeFile(root + "/profiles/deep/run.ncu-rep", std::string(3000, 'b'));
    test::writeFile(root + "/pip.txt", "");
    fs::create_directory_symlink(root, root + "/loop"); // a link back up is not followed
    const ArtifactListing listing = listArtifacts(root);
    ASSERT_EQ(listing.files.size(), 4u);
    EXPECT_EQ(listing.files[0].relativePath, "output.log");
    EXPECT_EQ(listing.files[0].size, 5u);
    EXPECT_EQ(listing.files[1].relativePath, "pip.txt");
    EXPECT_EQ(listing.files[2].relativePath, "profiles/deep/run.ncu-rep");
    EXPECT_EQ(listing.files[2].size, 3000u);
    EXPECT_EQ(listing.files[3].relativePath, "loop") << "listed as a link, not followed";
    EXPECT_EQ(listing.files[3].type, ArtifactEntryType::FolderLink);
    EXPECT_FALSE(listing.files[3].leavesFolder);
    EXPECT_TRUE(listing.problems.empty());
    const ArtifactListing capped = listArtifacts(root, 2);
    EXPECT_EQ(capped.files.size(), 3u) << "the run's own files are kept past the limit";
    EXPECT_TRUE(capped.truncated);
    EXPECT_EQ(capped.seen, 4u);

    fs::create_directories(root + "/private");
    test::writeFile(root + "/private/key", "x");
    fs::permissions(root, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(root + "/profiles",
                    fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(root + "/private", fs::perms::owner_all);
    const std::string seen = test::errorAsUnprivilegedUser(dir, [&] {
        const ArtifactListing l = listArtifacts(root);
        throw std::runtime_error(std::to_string(l.files.size()) + " files; " +
                                 (l.problems.empty() ? std::string("no problem") : l.problems.front()));
    });
    EXPECT_NE(seen.find("private: Permission denied"), std::string::npos) << seen;
    EXPECT_EQ(formatByteSize(300), "300 B");
    EXPECT_EQ(formatByteSize(1536), "1.5 KiB");
    EXPECT_EQ(formatByteSize(2ull << 30), "2.0 GiB");
}

// A colleague's artifact folder in a shared store: a link to /etc/passwd was listed as a path and
// opened the local password file; links to /dev/zero or to a FIFO, and FIFOs, dropped out of the
// list and its count; a right-to-left override made "invoice<U+202E>gpj.desktop" read as a .jpg.
TEST(ArtifactListing, EveryEntryIsListedAsWhatItIsAndLinksOutOfTheFolderAreMarked) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root);
    test::writeFile(root + "/output.log", "hello\n");
    fs::create_symlink("/etc/passwd", root + "/config.txt");
    fs::create_symlink("/dev/zero", root + "/zero");
    fs::create_symlink("output.log", root + "/latest.log");
    fs::create_symlink(root + "/nowhere", root + "/broken");
    ASSERT_EQ(::mkfifo((root + "/pipe").c_str(), 0600), 0);
    test::writeFile(root + "/invoice\xE2\x80\xAEgpj.desktop", "[Desktop Entry]\n");
    const ArtifactListing listing = listArtifacts(root);
    std::map<std::string, ArtifactFile> byName;
    for (const ArtifactFile& f : listing.files)
        byName[f.relativePath] = f;
    ASSERT_EQ(byName.size(), 7u) << "nothing drops out";
    EXPECT_EQ(listing.seen, 7u);
    EXPECT_EQ(byName["config.txt"].linkTarget, "/etc/passwd");
    EXPECT_TRUE(byName["config.txt"].leavesFolder);
    EXPECT_EQ(byName["zero"].type, ArtifactEntryType::Device);
    EXPECT_TRUE(byName["zero"].leavesFolder);
    EXPECT_EQ(byName["latest.log"].type, ArtifactEntryType::File);
    EXPECT_FALSE(byName["latest.log"].leavesFolder) << "a link inside the folder is an ordinary file";
    EXPECT_EQ(byName["latest.log"].size, 6u);
    EXPECT_EQ(byName["broken"].type, ArtifactEntryType::BrokenLink);
    EXPECT_EQ(byName["pipe"].type, ArtifactEntryType::Fifo);
    EXPECT_EQ(artifactTypeText(ArtifactEntryType::Fifo), "a named pipe (FIFO)");
    EXPECT_EQ(escapedForDisplay("invoice\xE2\x80\xAEgpj.desktop"), "invoice\\u202egpj.desktop");
    EXPECT_EQ(escapedForDisplay("a\tb\x1b[31m\xE9\xE2\x81\xA6x"), "a\\x09b\\x1b[31m\\xe9\\u2066x");
    EXPECT_EQ(escapedForDisplay("caf\xC3\xA9 \xCE\xB1"), "caf\xC3\xA9 \xCE\xB1") << "text stays as it is";
}

// 100,000 files beside output.log kept 20,000 in directory order and left output.log out; a
// folder deeper than PATH_MAX allows gave a bare "std::exception" and "Listing..." forever.
TEST(ArtifactListing, ACappedListingKeepsTheRunsOwnFilesAndCountsTheRestAndDeepFoldersAreNamed) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root + "/checkpoints");
    for (int i = 0; i < 3000; ++i)
        test::writeFile(root + "/checkpoints/step-" + std::to_string(i) + ".pt", "x");
    test::writeFile(root + "/output.log", "log\n");
    test::writeFile(root + "/pip.txt", "numpy==1\n");
    const ArtifactListing capped = listArtifacts(root, 500);
    EXPECT_TRUE(capped.truncated);
    EXPECT_EQ(capped.seen, 3002u);
    EXPECT_FALSE(capped.seenIsLowerBound);
    ASSERT_GE(capped.files.size(), 500u);
    EXPECT_LE(capped.files.size(), 502u);
    EXPECT_EQ(capped.files[0].relativePath, "output.log") << "the run's own files first";
    EXPECT_EQ(capped.files[1].relativePath, "pip.txt");
    const ArtifactListing bounded = listArtifacts(root, 100);
    EXPECT_TRUE(bounded.seenIsLowerBound) << "counting stops at ten times the limit";
    EXPECT_EQ(bounded.seen, 1000u);
    EXPECT_EQ(bounded.files[0].relativePath, "output.log") << "whatever the walk met first";

    std::string deep = dir.file("deep");
    const std::string top = deep;
    for (int level = 0; level < 70; ++level)
        deep += "/d";
    fs::create_directories(deep);
    test::writeFile(deep + "/far.txt", "x");
    test::writeFile(top + "/near.txt", "x");
    const ArtifactListing listing = listArtifacts(top);
    ASSERT_EQ(listing.files.size(), 1u);
    EXPECT_EQ(listing.files[0].relativePath, "near.txt");
    ASSERT_EQ(listing.problems.size(), 1u);
    EXPECT_NE(listing.problems[0].find("deeper than 64 folders, not listed"), std::string::npos)
        << listing.problems[0];
}

TEST(ArtifactLocation, SaysWhereUnreachableArtifactsAreAndWhy) {
    TempDir dir;
    const ArtifactContext here{"labhost", "labhost", false, ""};
    const ArtifactPlace none = locateArtifacts("", here);
    EXPECT_EQ(none.reach, ArtifactReach::NoUri);
    EXPECT_NE(none.reason.find("no artifact location"), std::string::npos);
    for (const std::string uri :
         {"s3://bucket/mlruns/1/abc/artifacts", "gs://b/x", "mlflow-artifacts:/1/abc/artifacts",
          "https://host/artifacts", "wasbs://c@a.blob.core.windows.net/x"}) {
        const ArtifactPlace remote = locateArtifacts(uri, here);
        EXPECT_EQ(remote.reach, ArtifactReach::Remote) << uri;
        EXPECT_NE(remote.reason.find(uri), std::string::npos) << remote.reason;
        EXPECT_TRUE(remote.path.empty());
    }
    EXPECT_NE(locateArtifacts("mlflow-artifacts:/1/x", here).reason.find("mlflow artifacts download"),
              std::string::npos);
    const ArtifactPlace gone = locateArtifacts(dir.file("gone/artifacts"), here);
    EXPECT_EQ(gone.reach, ArtifactReach::Missing);
    EXPECT_NE(gone.reason.find(dir.file("gone/artifacts")), std::string::npos) << gone.reason;
    const ArtifactPlace elsewhere =
        locateArtifacts(dir.file("gone/artifacts"), {"gpu-node-7", "laptop", true, ""});
    EXPECT_EQ(elsewhere.reach, ArtifactReach::OtherHost);
    EXPECT_NE(elsewhere.reason.find("gpu-node-7"), std::string::npos) << elsewhere.reason;
    EXPECT_NE(elsewhere.reason.find(dir.file("gone/artifacts")), std::string::npos) << elsewhere.reason;
    EXPECT_NE(elsewhere.reason.find("RADT_ARTIFACT_ROOT"), std::string::npos) << elsewhere.reason;
    test::writeFile(dir.file("file"), "x");
    EXPECT_EQ(locateArtifacts(dir.file("file"), here).reach, ArtifactReach::NotAFolder);
}

TEST(ArtifactLocation, ReadsLocalPathsFileUrisAndSharedRootsOfOtherHosts) {
    TempDir dir;
    fs::create_directories(dir.file("with space/artifacts"));
    const ArtifactContext here{"", "labhost", false, ""};
    EXPECT_EQ(locateArtifacts(dir.file("with space/artifacts"), here).reach, ArtifactReach::Local);
    const ArtifactPlace uri = locateArtifacts("file://" + dir.file("with%20space/artifacts"), here);
    EXPECT_EQ(uri.reach, ArtifactReach::Local) << uri.reason;
    EXPECT_EQ(uri.path, dir.file("with space/artifacts"));
    EXPECT_EQ(locateArtifacts("file://localhost" + dir.file("with space/artifacts"), here).reach,
              ArtifactReach::Local);
    EXPECT_EQ(locateArtifacts("file://gpu-node-7/data/artifacts", here).reach, ArtifactReach::OtherHost);
    // A folder another host recorded into a root this machine mounts too: read here.
    EXPECT_EQ(locateArtifacts(dir.file("with space/artifacts"), {"gpu-node-7", "laptop", true, ""}).reach,
              ArtifactReach::Local);
    const ArtifactPlace relative = locateArtifacts("with space/artifacts", {"", "laptop", false, dir.path()});
    EXPECT_EQ(relative.reach, ArtifactReach::Local) << relative.reason;
    EXPECT_EQ(uriScheme("C:/data"), "") << "a drive letter is no scheme";
    EXPECT_EQ(uriScheme("S3://b"), "s3");
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::others_read);
    fs::permissions(dir.file("with space"), fs::perms::owner_all | fs::perms::others_exec);
    fs::permissions(dir.file("with space/artifacts"), fs::perms::owner_all);
    const std::string seen = test::errorAsUnprivilegedUser(dir, [&] {
        throw std::runtime_error(locateArtifacts(dir.file("with space/artifacts"), here).reason);
    });
    EXPECT_NE(seen.find("cannot be listed: Permission denied"), std::string::npos) << seen;
}
