// SPDX-License-Identifier: MIT
#pragma once
// The embedded default store: an MLflow tracking database in one SQLite file (resources/DESIGN.md §4).
// One instance serves one thread at a time; open one per thread (WAL lets readers run beside
// a writer in another process).

#include "core/store/Store.h"
#include "core/store/StoreUri.h"

#include <memory>
#include <set>

struct sqlite3;

namespace radt {

class SqliteStatement;
class SqliteCuration;
class SqliteMaintenance;
class SqliteEnvelopeCache;

class SqliteStore : public Store {
public:
    /// Opens (or, with CreateIfMissing, creates) the store at uri.path. Throws StoreError; on error
    /// nothing is created or changed.
    SqliteStore(const StoreUri& uri, OpenMode mode);
    ~SqliteStore() override;

    /// The alembic version the explorer writes into stores it creates.
    static const char* schemaVersion();

    std::string displayUri() const override { return m_uri.display(); }
    /// Absolute path of the database file.
    const std::string& path() const { return m_path; }
    /// True when the store was opened for reading only (a file or folder this process cannot write).
    bool isReadOnly() const override { return m_readOnly; }
    std::string openNotice() const override { return m_notice; }
    std::string fileProblem() const override;
    /// Where new runs' artifacts go: `<db dir>/radt-artifacts`.
    std::string artifactRoot() const;
    bool hasLatestMetricsTable() const { return m_hasLatestMetrics; }

    int64_t getOrCreateExperiment(const std::string& name) override;
    Run createRun(const NewRun& spec) override;
    void setRunStatus(const std::string& runUuid, RunStatus status, std::optional<int64_t> endTime) override;
    void logParams(const std::string& runUuid,
                   const std::vector<std::pair<std::string, std::string>>& params) override;
    void setTags(const std::string& runUuid,
                 const std::vector<std::pair<std::string, std::string>>& tags) override;
    void logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) override;
    std::vector<Experiment> experiments() override;
    std::optional<Experiment> experimentById(int64_t id) override;
    std::vector<Run> runs(std::optional<int64_t> experimentId = std::nullopt) override;
    std::vector<Run> searchRuns(const std::vector<RunCondition>& conditions,
                                std::optional<int64_t> experimentId = std::nullopt) override;
    std::optional<Run> run(const std::string& runUuid) override;
    std::vector<std::string> metricKeys(const std::vector<std::string>& runUuids) override;
    std::map<std::string, LatestMetric> latestMetrics(const std::string& runUuid) override;
    Series series(const std::string& runUuid, const std::string& key) override;
    Series seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                       int64_t toMs) override;
    std::map<std::string, int64_t> pointCounts(const std::string& runUuid) override;

    StoreCuration& curation() override;
    StoreMaintenance& maintenance() override;
    EnvelopeCache& envelopes() override;

private:
    class Transaction;
    friend class SqliteCuration; // the store's roles (SqliteStoreRoles.h) work on its connection
    friend class SqliteMaintenance;
    friend class SqliteEnvelopeCache;

    void openFile(OpenMode mode);
    /// Opens a store this process may not write, for reading only (m_readOnly).
    void openReadOnly(const std::string& shown);
    void checkIsMlflowStore();
    void createSchema();
    void detectColumns();
    void configureConnection();
    void requireRun(const std::string& runUuid);
    /// Experiments of one lifecycle stage ("active" or "deleted"), by id.
    std::vector<Experiment> queryExperiments(const char* lifecycle);
    /// Runs of one lifecycle stage (MLflow's 'active' or 'deleted') matching `where`, whose one `?`
    /// is `bindValue` (none: `where` has no parameter).
    std::vector<Run> queryRuns(const std::string& where, const std::optional<std::string>& bindValue,
                               bool bindInt, const char* lifecycle = "active");
    Series querySeries(const std::string& runUuid, const std::string& key,
                       std::optional<std::pair<int64_t, int64_t>> range);
    std::string columnOr(const std::string& table, const std::string& column,
                         const std::string& fallback) const;

    StoreUri m_uri;
    std::string m_path;
    sqlite3* m_db = nullptr;
    bool m_hasLatestMetrics = false;
    bool m_readOnly = false;
    uint64_t m_device = 0, m_inode = 0; ///< of the file as opened, to notice it deleted or replaced
    std::string m_notice;               ///< what opening changed: the read index added to an existing store
                                        ///< file or its folder is not ours to write
    std::map<std::string, std::set<std::string>> m_columns; ///< table -> column names
    std::unique_ptr<SqliteStatement> m_insertMetric;
    std::unique_ptr<SqliteStatement> m_upsertLatest;
    std::set<std::string> m_validatedKeys; ///< metric keys already checked against MLflow's rules
    std::unique_ptr<SqliteCuration> m_curation;
    std::unique_ptr<SqliteMaintenance> m_maintenance;
    std::unique_ptr<SqliteEnvelopeCache> m_envelopes;
};

} // namespace radt
