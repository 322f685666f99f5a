// SPDX-License-Identifier: MIT
#include "collector/GpuPartitioning.h"

#include "collector/listeners/ChildProcess.h"
#include "core/base/AtomicFile.h"
#include "core/base/TextFormat.h"
#include "core/store/RunReconciler.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

namespace {

constexpr int kToolTimeoutMs = 60000;

std::string commandLine(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv)
        out += (out.empty() ? "" : " ") + a;
    return out;
}

/// The tool's own explanation: its last non-empty output line ("Failed to create GPU instances:
/// Insufficient Resources"), or how it ended.
std::string reasonOf(const CapturedOutput& r) {
    std::string last;
    std::istringstream in(r.stdoutText + r.errors);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t") != std::string::npos)
            last = line;
    if (!last.empty())
        return printableExcerpt(last, 200);
    return r.exit ? "exit code " + std::to_string(r.exit->code) : "it did not run";
}

/// An instance id as printed; nullopt for a number no id can be (std::stoi threw out_of_range on
/// a long run of digits, found by fuzz_mig).
std::optional<int> instanceId(const std::string& digits) {
    int value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    return value;
}

} // namespace

MigCreated parseMigCreate(const std::string& output) {
    static const std::regex gi(R"(created GPU instance ID\s+(\d+) on GPU\s+(\d+))");
    static const std::regex ci(
        R"(created compute instance ID\s+(\d+) on GPU\s+(\d+) GPU instance ID\s+(\d+))");
    MigCreated created;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, ci)) {
            const auto ciId = instanceId(m[1].str()), giId = instanceId(m[3].str());
            if (ciId && giId)
                created.computeInstances.emplace_back(*ciId, *giId);
        } else if (std::regex_search(line, m, gi)) {
            if (const auto giId = instanceId(m[1].str()))
                created.gpuInstances.push_back(*giId);
        }
    }
    return created;
}

std::vector<std::string> parseMigUuids(const std::string& listOutput) {
    static const std::regex uuid(R"(\(UUID:\s*(MIG-[^)\s]+)\))");
    std::vector<std::string> out;
    std::istringstream in(listOutput);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, uuid))
            out.push_back(m[1]);
    }
    return out;
}

namespace {

std::string bootId() {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(in, id);
    return id;
}

std::string ledgerPath() {
    return migLedgerDir() + "/mig-" + std::to_string(::getpid()) + ".json";
}

} // namespace

std::string migLedgerDir() {
    if (const char* dir = std::getenv("RADT_STATE_DIR"); dir && *dir)
        return dir;
    return "/tmp/radt-" + std::to_string(::getuid());
}

size_t reclaimOrphanedMigInstances(const std::function<void(const std::string&)>& log) {
    std::error_code ec;
    size_t destroyed = 0;
    for (const auto& entry : fs::directory_iterator(migLedgerDir(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("mig-", 0) != 0 || entry.path().extension() != ".json")
            continue;
        nlohmann::json ledger;
        try {
            std::ifstream in(entry.path());
            ledger = nlohmann::json::parse(in);
            const long pid = ledger.at("pid").get<long>();
            if (collectorAlive(pid, ledger.at("start").get<std::string>()))
                continue; // its radt is still running and will tear down itself
            if (ledger.at("boot_id").get<std::string>() != bootId()) {
                fs::remove(entry.path(), ec); // instances do not survive a reboot
                continue;
            }
            log("MIG instances left by radt (pid " + std::to_string(pid) +
                ", no longer running) are removed");
            for (const auto& i : ledger.at("instances")) {
                const std::string gpu = std::to_string(i.at("gpu").get<int>());
                const std::string gi = std::to_string(i.at("gi").get<int>());
                std::vector<std::vector<std::string>> commands;
                if (i.contains("ci"))
                    commands.push_back({"nvidia-smi", "mig", "-dci", "-ci",
                                        std::to_string(i.at("ci").get<int>()), "-gi", gi, "-i", gpu});
                commands.push_back({"nvidia-smi", "mig", "-dgi", "-gi", gi, "-i", gpu});
                bool ok = true;
                for (const auto& argv : commands) {
                    log(commandLine(argv));
                    const auto r = captureOutput(argv, kToolTimeoutMs, {}, std::nullopt);
                    if (!r.output) {
                        log(commandLine(argv) + " failed: " + reasonOf(r));
                        ok = false;
                    }
                }
                destroyed += ok;
            }
        } catch (const std::exception& e) {
            log("MIG ledger " + entry.path().string() + " is unreadable (" + e.what() + "); removed");
        }
        fs::remove(entry.path(), ec);
    }
    return destroyed;
}

GpuPartitioner::GpuPartitioner(std::function<void(const std::string&)> log) : m_log(std::move(log)) {}

void GpuPartitioner::saveLedger() {
    std::error_code ec;
    if (m_mig.empty()) {
        fs::remove(ledgerPath(), ec);
        return;
    }
    nlohmann::json ledger;
    ledger["pid"] = static_cast<long>(::getpid());
    ledger["start"] = collectorTags().back().second; // this process's start ticks
    ledger["boot_id"] = bootId();
    ledger["instances"] = nlohmann::json::array();
    for (const Created& c : m_mig) {
        nlohmann::json i = {{"gpu", c.gpu}, {"gi", c.gpuInstance}};
        if (c.computeInstance)
            i["ci"] = *c.computeInstance;
        ledger["instances"].push_back(i);
    }
    try {
        fs::create_directories(migLedgerDir(), ec);
        writeFileAtomically(ledgerPath(), ledger.dump() + "\n");
    } catch (const std::exception& e) {
        m_log("cannot note the MIG instances created (" + std::string(e.what()) +
              "); if this radt is killed, remove them with nvidia-smi mig -dci / -dgi");
    }
}

GpuPartitioner::~GpuPartitioner() {
    // teardown() logs the commands that fail; what it throws (out of memory, no thread for a
    // child's output) would end the process here (std::terminate). What it could not remove stays
    // in the ledger, which the next radt reclaims (reclaimOrphanedMigInstances).
    try {
        teardown();
    } catch (...) {
    }
}

std::string GpuPartitioner::createMigInstance(int gpu, const std::string& profile) {
    const std::string index = std::to_string(gpu);
    const auto before = captureOutput({"nvidia-smi", "-L"}, kToolTimeoutMs, {}, std::nullopt);
    if (!before.output)
        throw std::runtime_error("nvidia-smi -L failed: " + reasonOf(before));
    const std::vector<std::string> argv = {"nvidia-smi", "mig", "-cgi", profile, "-C", "-i", index};
    m_log(commandLine(argv));
    const auto result = captureOutput(argv, kToolTimeoutMs, {}, std::nullopt);
    // Whatever was created is torn down later, also when the command as a whole failed.
    const MigCreated created = parseMigCreate(result.stdoutText);
    for (int giId : created.gpuInstances) {
        std::optional<int> ciId;
        for (const auto& [ci, owner] : created.computeInstances)
            if (owner == giId)
                ciId = ci;
        m_mig.push_back({gpu, giId, ciId});
    }
    saveLedger(); // before anything else can fail: a kill -9 from here on leaves a list
    if (!result.output || created.gpuInstances.empty() || created.computeInstances.empty())
        throw std::runtime_error("cannot create a MIG " + profile + " instance on GPU " + index + ": " +
                                 reasonOf(result));
    m_log(result.stdoutText.substr(0, result.stdoutText.find_last_not_of('\n') + 1));
    const auto after = captureOutput({"nvidia-smi", "-L"}, kToolTimeoutMs, {}, std::nullopt);
    if (!after.output)
        throw std::runtime_error("nvidia-smi -L failed: " + reasonOf(after));
    const std::vector<std::string> old = parseMigUuids(*before.output);
    const std::set<std::string> known(old.begin(), old.end());
    for (const std::string& uuid : parseMigUuids(*after.output))
        if (!known.count(uuid))
            return uuid;
    throw std::runtime_error("created a MIG " + profile + " instance on GPU " + index +
                             " but nvidia-smi -L lists no new MIG device");
}

void GpuPartitioner::startMps(const std::string& cudaVisibleDevices) {
    const std::vector<std::string> argv = {"nvidia-cuda-mps-control", "-d"};
    m_log("CUDA_VISIBLE_DEVICES=" + cudaVisibleDevices + " " + commandLine(argv));
    const auto result =
        captureOutput(argv, kToolTimeoutMs, {{"CUDA_VISIBLE_DEVICES", cudaVisibleDevices}}, std::nullopt);
    if (!result.output)
        throw std::runtime_error("cannot start the MPS control daemon for GPU " + cudaVisibleDevices + ": " +
                                 reasonOf(result));
    m_mpsDevices = cudaVisibleDevices;
}

void GpuPartitioner::teardown() {
    if (m_mpsDevices) {
        m_log("echo quit | nvidia-cuda-mps-control");
        const auto r = captureOutput({"nvidia-cuda-mps-control"}, kToolTimeoutMs,
                                     {{"CUDA_VISIBLE_DEVICES", *m_mpsDevices}}, std::string("quit\n"));
        if (!r.output)
            m_log("stopping the MPS control daemon failed: " + reasonOf(r));
        m_mpsDevices.reset();
    }
    for (auto it = m_mig.rbegin(); it != m_mig.rend(); ++it) {
        const std::string gpu = std::to_string(it->gpu), gi = std::to_string(it->gpuInstance);
        std::vector<std::vector<std::string>> commands;
        if (it->computeInstance)
            commands.push_back({"nvidia-smi", "mig", "-dci", "-ci", std::to_string(*it->computeInstance),
                                "-gi", gi, "-i", gpu});
        commands.push_back({"nvidia-smi", "mig", "-dgi", "-gi", gi, "-i", gpu});
        for (const auto& argv : commands) {
            m_log(commandLine(argv));
            const auto r = captureOutput(argv, kToolTimeoutMs, {}, std::nullopt);
            if (!r.output)
                m_log(commandLine(argv) + " failed: " + reasonOf(r));
        }
    }
    m_mig.clear();
    saveLedger();
}

} // namespace radt
