// SPDX-License-Identifier: MIT
#pragma once
// Parsers for the output of the GPU tools the listeners stream (nvidia-smi, nvidia-smi dmon, dcgmi,
// tegrastats).
// Pure functions over text, no I/O, so the recorded fixtures of other drivers and DCGM versions
// test them as well as a live GPU would (resources/DESIGN.md §5, §11). Every key they produce is a full
// MLflow metric key matching ^[/\w.\- :]*$.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace radt {

struct NamedValue {
    std::string key; ///< full MLflow metric key, e.g. "SMI - Power Draw"
    double value;
};

// --- nvidia-smi ---

/// The query the smi listener runs:
/// nvidia-smi --query-gpu=<kSmiQueryFields> --format=csv,noheader,nounits -lms N -i <gpus>
/// = "index,timestamp,power.draw,utilization.gpu,utilization.memory,memory.used,pstate"
extern const char* const kSmiQueryFields;

struct SmiRow {
    int gpuIndex = 0;
    std::vector<NamedValue> values;
};

/// One output line of that query. Keys: "SMI - Timestamp" (seconds since epoch, the tool's local
/// time with ms), "SMI - Power Draw" (W), "SMI - GPU Util" (0..1), "SMI - Mem Util" (0..1),
/// "SMI - Mem Used" (MiB), "SMI - Performance State" (P2 -> 2). Missing values ([N/A],
/// [Not Supported], N/A, [Unknown Error], empty, anything non-numeric) are left out, never 0.
/// Unit suffixes (" W", " %", " MiB") are tolerated, so csv-with-units output parses too.
/// nullopt for a line that is not a data row (header, blank, garbage, wrong column count,
/// non-integer index).
std::optional<SmiRow> parseSmiLine(std::string_view line);

// --- nvidia-smi dmon ---

/// The metric groups the dmon listener asks for: nvidia-smi dmon -s <kSmiDmonGroups> -d S -i <gpus>
/// = "puctv": power and temperatures, utilisation, clocks, PCIe throughput, throttle violations.
/// PCIe traffic and throttling are what it records beyond the smi listener, without DCGM.
extern const char* const kSmiDmonGroups;

/// "DMON - <name>" for a dmon column and its unit ("rxpci", "MB/s" -> "DMON - PCIe RX MB/s").
/// Utilisations stay in percent, as the tool prints them. An unknown column gives
/// "DMON - <column> <unit>" with characters MLflow rejects replaced by '_'.
std::string smiDmonKeyForColumn(const std::string& column, const std::string& unit);

/// Streaming parser for `nvidia-smi dmon` stdout, fed line by line. Driven by the header pair
/// ("# gpu pwr gtemp ..." and "# Idx W C ...") the tool prints first and again every few rows, so
/// any -s selection, -o D/T and a driver's new columns parse. "-" (not supported, as on MIG) and
/// other non-numbers are left out, never 0.
class SmiDmonParser {
public:
    struct Row {
        int gpuIndex = 0;
        std::vector<NamedValue> values;
    };

    /// A data row, or nullopt for anything else (header, unit line, blank, garbage).
    std::optional<Row> feed(std::string_view line);
    /// Lines that were neither a header, a unit line, blank nor a data row (garbage, rows with the
    /// wrong number of columns, rows before any header).
    size_t skippedLines() const { return m_skipped; }

private:
    std::vector<std::string> m_columns; ///< names of the last header
    std::vector<std::string> m_keys;    ///< metric key per column; empty for the gpu/date/time ones
    int m_gpuColumn = -1;
    bool m_unitsSeen = false;
    std::vector<std::string_view> m_tokens; ///< scratch, reused between lines
    size_t m_skipped = 0;
};

// --- dcgmi dmon ---

/// Field sets the dcgmi listener tries in order, largest first, falling back when the GPU answers
/// "Error setting watches": {155,156,200,201,203,204,1001..1012}, {155,156,200,201,203,204},
/// {155,203}.
const std::vector<std::vector<int>>& dcgmiFieldSets();

/// "DCGMI - <name>" for a dmon short column name (POWER -> "DCGMI - Power Usage"); unknown short
/// names give "DCGMI - <SHORT>" with characters MLflow rejects replaced by '_'.
std::string dcgmiKeyForColumn(const std::string& shortName);

/// Streaming parser for `dcgmi dmon` stdout, fed line by line. Understands the header layouts of
/// DCGM <= 2.3 ("# Entity" + "Id"), 2.4.5-3.3 ("#Entity" + "ID" with units) and 4.x, and the
/// header pair the tool re-prints every 14 rows.
class DcgmiDmonParser {
public:
    struct Row {
        std::string entity;             ///< "GPU 0", "GPU-I 1", "GPU 0 LINK 3"
        std::vector<NamedValue> values; ///< N/A values left out
    };

    /// A data row, or nullopt for anything else (header, unit/ID line, blank, error, garbage).
    std::optional<Row> feed(std::string_view line);

    /// A line containing "Error setting watches" was seen: the field set is refused.
    bool sawWatchError() const { return m_watchError; }
    /// Data rows returned so far.
    size_t rows() const { return m_rows; }
    /// Lines that were neither header, ID/unit line, blank, watch error nor a data row (garbage,
    /// truncated rows, rows before any header).
    size_t skippedLines() const { return m_skipped; }

private:
    std::vector<std::string> m_keys;        ///< metric key per column of the last header
    std::vector<std::string_view> m_tokens; ///< scratch, reused between lines
    bool m_watchError = false;
    size_t m_rows = 0;
    size_t m_skipped = 0;
};

/// The group id from `dcgmi group -c NAME [-a ...]` output
/// ("Successfully created group "x" with a group ID of 8"); nullopt otherwise.
std::optional<int> parseDcgmiGroupId(std::string_view output);

// --- tegrastats (Jetson) ---

struct TegraSample {
    std::vector<NamedValue> values;
    size_t skippedTokens = 0; ///< tokens no rule understood
};

/// One tegrastats line (TX1 L4T 28, TX2, Nano, Xavier and newer JetPacks' mW/date forms).
/// Keys: "TEGRA - RAM Used MB", "TEGRA - RAM Total MB", "TEGRA - SWAP Used MB",
/// "TEGRA - CPU <i> Util" (percent), "TEGRA - CPU <i> MHz", "TEGRA - EMC Util", "TEGRA - EMC MHz",
/// "TEGRA - GPU Util" (GR3D), "TEGRA - GPU MHz", "TEGRA - Temp <sensor> C",
/// "TEGRA - Power <rail> mW" (current value).
/// Cores printed as `off` are left out. nullopt when the line has no RAM field.
std::optional<TegraSample> parseTegrastatsLine(std::string_view line);

} // namespace radt
