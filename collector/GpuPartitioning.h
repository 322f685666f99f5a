// SPDX-License-Identifier: MIT
#pragma once
// Collocation set-up for experiment workloads (resources/DESIGN.md §6): MIG GPU/compute instances created
// with nvidia-smi for the rows that ask for a MIG profile, and the MPS control daemon for MPS
// rows. Everything created is torn down again when the workload ends, also when it failed.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt {

/// What `nvidia-smi mig -cgi <profile> -C -i <gpu>` reported creating.
struct MigCreated {
    std::vector<int> gpuInstances;                     ///< GI ids, in output order
    std::vector<std::pair<int, int>> computeInstances; ///< (CI id, its GI id)
};
MigCreated parseMigCreate(const std::string& output);

/// The MIG device UUIDs (MIG-...) listed by `nvidia-smi -L`, in output order.
std::vector<std::string> parseMigUuids(const std::string& listOutput);

/// Where radt notes the MIG instances it created until it destroys them: $RADT_STATE_DIR, else
/// /tmp/radt-<uid>. One ledger file per radt process, so a radt killed with SIGKILL (which cannot
/// tear down) leaves a list the next radt on this host uses to remove what the dead one created.
std::string migLedgerDir();

/// Destroys the MIG instances listed by ledgers of radt processes that are gone (same boot: after
/// a reboot the instances are gone and their ids may belong to someone else) and removes those
/// ledgers. Returns how many instances it destroyed. Never throws: problems are logged.
size_t reclaimOrphanedMigInstances(const std::function<void(const std::string&)>& log);

class GpuPartitioner {
public:
    /// `log` receives each command run and its result, for the workload log and stderr.
    explicit GpuPartitioner(std::function<void(const std::string&)> log);
    ~GpuPartitioner(); ///< tears down whatever is still set up
    GpuPartitioner(const GpuPartitioner&) = delete;
    GpuPartitioner& operator=(const GpuPartitioner&) = delete;

    /// Creates one GPU instance with its compute instance of `profile` on `gpu` and returns the
    /// new MIG device's UUID (the one `nvidia-smi -L` lists after and not before). Throws
    /// std::runtime_error with nvidia-smi's own words (Insufficient Resources, Not Supported,
    /// Insufficient Permissions...) when it cannot.
    std::string createMigInstance(int gpu, const std::string& profile);
    /// Starts the MPS control daemon for these GPUs; throws std::runtime_error when it cannot.
    void startMps(const std::string& cudaVisibleDevices);
    /// Destroys the compute and GPU instances created here (newest first) and quits the MPS
    /// daemon. Never throws: problems are logged.
    void teardown();

private:
    struct Created {
        int gpu;
        int gpuInstance;
        std::optional<int> computeInstance;
    };
    /// Rewrites this process's ledger from m_mig (removed when empty).
    void saveLedger();
    std::function<void(const std::string&)> m_log;
    std::vector<Created> m_mig;
    std::optional<std::string> m_mpsDevices;
};

} // namespace radt
