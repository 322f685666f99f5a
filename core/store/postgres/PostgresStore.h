// SPDX-License-Identifier: MIT
#pragma once
// A shared tracking server: an MLflow tracking database on PostgreSQL (resources/DESIGN.md §4), read and
// written through libpqxx with the same schema MLflow creates there. Many collectors write into
// one server at once; metric batches go in with COPY and latest_metrics is upserted atomically,
// so concurrent writers lose nothing. One instance serves one thread at a time.

#include "core/store/Store.h"
#include "core/store/StoreUri.h"

#include <memory>
#include <optional>
#include <set>

namespace radt {

namespace pg {
enum class PartitionPeriod; // PostgresPartitions.h
}

class PostgresStoreCuration;
class PostgresStoreMaintenance;
class PostgresEnvelopeCache;

class PostgresStore : public Store {
public:
    /// Connects (password from the URI, PGPASSWORD or ~/.pgpass, as libpq does) and checks the
    /// schema; with CreateIfMissing an empty database gets MLflow's schema. Throws StoreError with
    /// the password masked.
    PostgresStore(const StoreUri& uri, OpenMode mode);
    ~PostgresStore() override;

    std::string displayUri() const override { return m_uri.display(); }
    /// Where new runs' artifacts go on this machine: $RADT_ARTIFACT_ROOT, else
    /// <default store dir>/artifacts (artifacts stay with the collector, as MLflow's local root).
    std::string artifactRoot() const;

    int64_t getOrCreateExperiment(const std::string& name) override;
    Run createRun(const NewRun& spec) override;
    void setRunStatus(const std::string& runUuid, RunStatus status, std::optional<int64_t> endTime) override;
    void logParams(const std::string& runUuid,
                   const std::vector<std::pair<std::string, std::string>>& params) override;
    void setTags(const std::string& runUuid,
                 const std::vector<std::pair<std::string, std::string>>& tags) override;
    void logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) override;
    std::string openNotice() const override { return m_notice; }
    bool isReadOnly() const override { return m_readOnly; }
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
    Series seriesEnvelope(const std::string& runUuid, const std::string& key,
                          std::optional<std::pair<int64_t, int64_t>> range, int buckets) override;
    bool prefersEnvelopes() const override { return true; }
    // PostgresEnvelopes.cpp
    std::map<std::string, int64_t> pointCounts(const std::string& runUuid) override;
    std::map<std::string, SeriesStats> seriesStatsOfRun(const std::string& runUuid,
                                                        const std::string& onlyKey = {}) override;

    StoreCuration& curation() override;
    StoreMaintenance& maintenance() override;
    EnvelopeCache& envelopes() override;

    static std::string connectionString(const StoreUri& uri);

private:
    friend class PostgresStoreCuration; // the store's roles (PostgresStoreRoles.h) use its connection
    friend class PostgresStoreMaintenance;
    friend class PostgresEnvelopeCache;

    template <typename Fn> auto withConnection(const char* what, Fn fn);
    void connect();
    void checkOrCreateSchema(OpenMode mode);
    std::string m_notice;
    /// Experiments of one lifecycle stage ("active" or "deleted"), by id.
    std::vector<Experiment> queryExperiments(const char* lifecycle);
    /// Runs of one lifecycle stage (MLflow's 'active' or 'deleted') matching `where`, whose one `$1`
    /// is `value` (none: `where` has no parameter).
    std::vector<Run> queryRuns(const std::string& where, const std::optional<std::string>& value,
                               const char* lifecycle = "active");
    Series querySeries(const std::string& runUuid, const std::string& key,
                       std::optional<std::pair<int64_t, int64_t>> range);

    StoreUri m_uri;
    bool m_readOnly = false; ///< OpenMode::ReadOnly, or a role that may only read: sessions are read-only
    bool m_hasLatestMetrics = true; ///< false on a 2019-era store: latest values come from metrics
    bool m_standby = false;         ///< a hot standby (streaming replica, pg_is_in_recovery): it only reads
    struct Connection;              ///< pqxx::connection (a typedef in libpqxx 6: cannot be forward-declared)
    std::unique_ptr<Connection> m_conn;
    std::set<std::string> m_validatedKeys;
    // metrics partitioned by time (PostgresPartitions.h): the period new partitions get, and the
    // bounded partitions this session knows of, so a batch past them makes the next ones first.
    std::optional<pg::PartitionPeriod> m_partitionPeriod;
    std::vector<std::pair<int64_t, int64_t>> m_partitionRanges;
    bool m_mayPartition = false;        ///< this role owns metrics: it makes partitions
    int64_t m_partitionRetryAt = 0;     ///< after a failed try, when to try again (ms since epoch)
    int64_t m_partitionsCheckedDay = 0; ///< the last day of samples for which followPartitioning looked
    void followPartitioning(const std::vector<MetricPoint>& points);
    void extendPartitions(const std::vector<MetricPoint>& points);
    std::unique_ptr<PostgresStoreCuration> m_curation;
    std::unique_ptr<PostgresStoreMaintenance> m_maintenance;
    std::unique_ptr<PostgresEnvelopeCache> m_envelopes;
};

} // namespace radt
