// SPDX-License-Identifier: MIT
// The rapl listener: package and DRAM power from a powercap tree, read through a root
// override from a fixture tree shaped like a two-socket machine's /sys.

#include "TempDir.h"
#include "collector/listeners/ProcSampler.h"
#include "collector/listeners/RaplReader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

using namespace radt;
namespace fs = std::filesystem;

namespace {

struct PowercapTree {
    test::TempDir dir;
    std::string root = dir.file("sys");
    void zone(const std::string& zone, const std::string& name, uint64_t energy,
              uint64_t max = 262143328850) {
        const std::string d = root + "/class/powercap/" + zone;
        fs::create_directories(d);
        test::writeFile(d + "/name", name + "\n");
        test::writeFile(d + "/max_energy_range_uj", std::to_string(max) + "\n");
        setEnergy(zone, energy);
    }
    void setEnergy(const std::string& zone, uint64_t energy) {
        test::writeFile(root + "/class/powercap/" + zone + "/energy_uj", std::to_string(energy) + "\n");
    }
    PowercapTree() {
        zone("intel-rapl:0", "package-0", 1'000'000);
        zone("intel-rapl:0:0", "core", 500'000); // inside the package: not counted again
        zone("intel-rapl:0:1", "dram", 200'000);
        zone("intel-rapl:1", "package-1", 9'000'000, 10'000'000);
        zone("intel-rapl:1:0", "dram", 300'000);
        zone("intel-rapl:1:1", "psys", 0); // around the package: not counted either
    }
};

double valueOf(const std::vector<MetricPoint>& points, const std::string& key) {
    for (const MetricPoint& p : points)
        if (p.key == key)
            return p.value;
    ADD_FAILURE() << "no " << key;
    return -1;
}

} // namespace

TEST(Rapl, PackageAndDramDomainsAreFoundAndNamedPerSocket) {
    PowercapTree tree;
    const auto domains = findRaplDomains(tree.root);
    std::vector<std::string> names;
    for (const RaplDomain& d : domains)
        names.push_back(d.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"package-0", "package-0 dram", "package-1", "package-1 dram"}));
    EXPECT_EQ(domains[2].maxRangeUj, 10'000'000u);
    EXPECT_EQ(raplProblem(tree.root), "");
    test::TempDir empty;
    EXPECT_NE(raplProblem(empty.path()).find("has no RAPL package or DRAM domain"), std::string::npos);
}

TEST(Rapl, CountersBecomePowerAndAWrapIsOneStepForward) {
    PowercapTree tree;
    RaplReader reader(tree.root);
    std::vector<MetricPoint> points;
    reader.sample(1000, points);
    EXPECT_TRUE(points.empty()) << "power needs two readings";
    tree.setEnergy("intel-rapl:0", 6'000'000); // +5 J in 1 s
    tree.setEnergy("intel-rapl:0:1", 700'000); // +0.5 J
    tree.setEnergy("intel-rapl:1", 1'000'000); // wrapped at 10 J: +2 J
    tree.setEnergy("intel-rapl:1:0", 300'000); // idle
    reader.sample(2000, points);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_DOUBLE_EQ(valueOf(points, "RAPL - package-0 Power W"), 5.0);
    EXPECT_DOUBLE_EQ(valueOf(points, "RAPL - package-0 dram Power W"), 0.5);
    EXPECT_DOUBLE_EQ(valueOf(points, "RAPL - package-1 Power W"), 2.0);
    EXPECT_DOUBLE_EQ(valueOf(points, "RAPL - package-1 dram Power W"), 0.0);
    EXPECT_EQ(raplDelta(9'000'000, 1'000'000, 10'000'000), 2'000'000u);
}

TEST(Rapl, TheProcListenersThreadSamplesItBesideTop) {
    PowercapTree tree;
    ProcSamplerOptions options;
    options.top = options.proc = false;
    options.rapl = true;
    options.sysRoot = tree.root;
    ProcSampler sampler(::getpid(), options);
    std::vector<MetricPoint> points;
    sampler.sample(1000, points);
    tree.setEnergy("intel-rapl:0", 3'000'000);
    sampler.sample(1500, points);
    EXPECT_DOUBLE_EQ(valueOf(points, "RAPL - package-0 Power W"), 4.0) << "2 J in 0.5 s";
}

TEST(Rapl, AnUnreadableCounterIsNamed) {
    PowercapTree tree;
    const std::string file = tree.root + "/class/powercap/intel-rapl:0/energy_uj";
    // As the kernel has it since 5.10: readable by root only. Checked as a user (root reads all).
    fs::permissions(file, fs::perms::owner_read);
    if (::geteuid() != 0) {
        EXPECT_NE(raplProblem(tree.root).find("intel-rapl:0/energy_uj is not readable"), std::string::npos);
        return;
    }
    for (fs::path p = tree.root; p.has_relative_path() && p != "/tmp"; p = p.parent_path())
        fs::permissions(p, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    const pid_t child = ::fork();
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(3);
        ::_exit(raplProblem(tree.root).find("intel-rapl:0/energy_uj is not readable") != std::string::npos
                    ? 0
                    : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "as nobody: " << WEXITSTATUS(status);
}
