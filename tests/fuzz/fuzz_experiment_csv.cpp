// SPDX-License-Identifier: MIT
// Experiment CSV files as `radt experiment.csv` and the explorer's launch dialog read them.
// readExperimentCsv() takes a path (it resolves each File cell beside the CSV), so each input is
// written to a file in a private temporary directory that also holds the script the seeds name.
// CsvError is the documented rejection. A file that reads is also written back and read again,
// as ExperimentRunner does after each workload: the rows must survive unchanged.

#include "FuzzSupport.h"
#include "collector/ExperimentCsv.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string g_dir;

void removeDir() {
    std::error_code ec;
    fs::remove_all(g_dir, ec);
}

void writeFile(const std::string& path, std::string_view contents) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out)
        radt::fuzz::fail("cannot write the fuzz input file", path);
}

std::string describe(const radt::ExperimentRow& r) {
    std::string out = std::to_string(r.line);
    for (const std::string* s : {&r.experiment, &r.workload, &r.status, &r.run, &r.devices, &r.collocation,
                                 &r.file, &r.scriptPath, &r.listeners, &r.rawParams})
        out += " [" + *s + "]";
    for (const std::string& p : r.params)
        out += " <" + p + ">";
    return out;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // RAM-backed when there is one: every input is written, and write-back fsyncs.
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : fs::temp_directory_path().string();
    std::string pattern = base + "/radt-fuzz-csv-XXXXXX";
    if (!mkdtemp(pattern.data()))
        radt::fuzz::fail("mkdtemp failed", pattern);
    g_dir = pattern;
    std::atexit(removeDir);
    writeFile(g_dir + "/train.py", "print('hi')\n");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = g_dir + "/experiment.csv";
    writeFile(path, radt::fuzz::asText(data, size));
    radt::ExperimentFile file;
    try {
        file = radt::readExperimentCsv(path);
    } catch (const radt::CsvError& e) {
        RADT_FUZZ_CHECK(e.path() == path && !e.message().empty(), e.what());
        return 0; // documented: names line, column and what is wrong
    }

    // Rows of one workload run together; the runner names their runs by these letters.
    std::map<std::pair<std::string, std::string>, std::vector<const radt::ExperimentRow*>> workloads;
    for (const radt::ExperimentRow& row : file.rows)
        workloads[{row.experiment, row.workload}].push_back(&row);
    for (const auto& [key, rows] : workloads)
        RADT_FUZZ_CHECK(radt::workloadLetters(rows).size() == rows.size(), key.first);

    radt::writeExperimentCsv(file);
    radt::ExperimentFile reread;
    try {
        reread = radt::readExperimentCsv(path);
    } catch (const radt::CsvError& e) {
        radt::fuzz::fail("a written-back experiment file does not read", e.what());
    }
    RADT_FUZZ_CHECK(reread.header == file.header, path);
    RADT_FUZZ_CHECK(reread.rows.size() == file.rows.size(), path);
    for (size_t i = 0; i < file.rows.size(); ++i) {
        radt::ExperimentRow a = file.rows[i], b = reread.rows[i];
        a.line = b.line = 0; // quoted newlines and skipped blank lines move rows
        RADT_FUZZ_CHECK(describe(a) == describe(b), describe(a) + "\nread back as\n" + describe(b));
    }
    return 0;
}
