// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresPartitions.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>

namespace radt::pg {

namespace {

constexpr const char* kTmpPrefix = "radt_tmp_";

int64_t floorDiv(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// metrics_p20261123: the partition's first day, UTC.
std::string partitionName(const std::string& name, int64_t startMs) {
    const std::time_t seconds = static_cast<std::time_t>(startMs / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char day[16];
    std::strftime(day, sizeof day, "%Y%m%d", &tm);
    return name + "_p" + day;
}

/// "FOR VALUES FROM ('1700000000000') TO ('1700086400000')": the two numbers.
std::optional<Range> parseBound(const std::string& bound) {
    std::vector<int64_t> numbers;
    for (size_t i = 0; i < bound.size();) {
        const bool negative =
            bound[i] == '-' && i + 1 < bound.size() && std::isdigit(static_cast<unsigned char>(bound[i + 1]));
        if (std::isdigit(static_cast<unsigned char>(bound[i])) || negative) {
            size_t used = 0;
            numbers.push_back(std::stoll(bound.substr(i), &used));
            i += used;
        } else {
            ++i;
        }
    }
    if (numbers.size() != 2)
        return std::nullopt; // DEFAULT, or MINVALUE/MAXVALUE bounds radt never creates
    return Range{numbers[0], numbers[1]};
}

} // namespace

int64_t periodMs(PartitionPeriod period) {
    return period == PartitionPeriod::Day ? kDayMs : 7 * kDayMs;
}

int64_t periodStart(PartitionPeriod period, int64_t ms) {
    const int64_t day = floorDiv(ms, kDayMs);
    if (period == PartitionPeriod::Day)
        return day * kDayMs;
    // 1970-01-01 was a Thursday: day + 3 counts from the Monday before it.
    const int64_t monday = day - (((day + 3) % 7) + 7) % 7;
    return monday * kDayMs;
}

const char* periodName(PartitionPeriod period) {
    return period == PartitionPeriod::Day ? "day" : "week";
}

std::optional<PartitionPeriod> parsePeriod(const std::string& text) {
    if (text == "day" || text == "daily")
        return PartitionPeriod::Day;
    if (text == "week" || text == "weekly")
        return PartitionPeriod::Week;
    return std::nullopt;
}

bool isPartitioned(pqxx::transaction_base& tx, const std::string& table) {
    return !tx.exec_params("SELECT 1 FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid "
                           "WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace",
                           table)
                .empty();
}

std::vector<Partition> partitions(pqxx::transaction_base& tx, const std::string& parent) {
    std::vector<Partition> out;
    for (const auto& row : tx.exec_params(
             "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON "
             "c.oid = i.inhrelid WHERE i.inhparent = $1::regclass",
             tx.quote_name(parent)))
        if (auto range = parseBound(row[1].as<std::string>()))
            out.push_back({row[0].as<std::string>(), *range});
    std::sort(out.begin(), out.end(),
              [](const Partition& a, const Partition& b) { return a.range < b.range; });
    return out;
}

std::vector<Range> partitionRanges(pqxx::transaction_base& tx, const std::string& parent) {
    std::vector<Range> ranges;
    for (const Partition& p : partitions(tx, parent))
        ranges.push_back(p.range);
    return ranges;
}

std::optional<PartitionPeriod> storedPeriod(pqxx::transaction_base& tx) {
    if (tx.exec("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'radt_settings'")
            .empty())
        return std::nullopt;
    const pqxx::result row =
        tx.exec("SELECT value FROM radt_settings WHERE name = 'metrics_partition_period'");
    return row.empty() ? std::nullopt : parsePeriod(row[0][0].as<std::string>());
}

void storePeriod(pqxx::transaction_base& tx, PartitionPeriod period) {
    // A table of radt's own beside MLflow's (which ignores it), as radt_envelopes.
    tx.exec("CREATE TABLE IF NOT EXISTS radt_settings (name VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL)");
    tx.exec_params("INSERT INTO radt_settings (name, value) VALUES ('metrics_partition_period', $1) "
                   "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                   std::string(periodName(period)));
}

void makePartitionedTwin(pqxx::transaction_base& tx, const std::string& source, const std::string& twin) {
    const std::string src = tx.quote_name(source), dst = tx.quote_name(twin);
    tx.exec("CREATE TABLE " + dst + " (LIKE " + src + " INCLUDING DEFAULTS) PARTITION BY RANGE (timestamp)");
    // Constraints (MLflow's primary key metric_pk, the foreign key to runs, checks) and the other
    // indexes, as the source has them: MLflow's generations differ (MLflow 3 adds an index).
    for (const auto& row :
         tx.exec_params("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = "
                        "$1::regclass AND contype IN ('p', 'u', 'f', 'c') ORDER BY contype DESC, conname",
                        src))
        tx.exec("ALTER TABLE " + dst + " ADD CONSTRAINT " +
                tx.quote_name(kTmpPrefix + row[0].as<std::string>()) + " " + row[1].as<std::string>());
    for (const auto& row : tx.exec_params(
             "SELECT c.relname, pg_get_indexdef(c.oid), x.indisunique FROM pg_index x JOIN pg_class c ON "
             "c.oid = x.indexrelid WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM "
             "pg_constraint k WHERE k.conindid = x.indexrelid) ORDER BY c.relname",
             src)) {
        const std::string def =
            row[1].as<std::string>(); // CREATE INDEX n ON public.metrics USING btree (...)
        const auto using_ = def.find(" USING ");
        if (using_ == std::string::npos)
            throw std::runtime_error("cannot read the definition of index " + row[0].as<std::string>());
        tx.exec(std::string(row[2].as<bool>() ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
                tx.quote_name(kTmpPrefix + row[0].as<std::string>()) + " ON " + dst + def.substr(using_));
    }
    tx.exec("CREATE TABLE " + tx.quote_name(source + "_default") + " PARTITION OF " + dst + " DEFAULT");
    // The source's owner and grants (a store converted by a DBA stays its MLflow role's).
    const std::string owner = tx.quote_name(
        tx.exec_params1("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = $1::regclass", src)[0]
            .as<std::string>());
    tx.exec("ALTER TABLE " + dst + " OWNER TO " + owner);
    tx.exec("ALTER TABLE " + tx.quote_name(source + "_default") + " OWNER TO " + owner);
    for (const auto& row : tx.exec_params(
             "SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END, "
             "a.privilege_type FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = $1::regclass AND "
             "a.grantee <> c.relowner",
             src))
        tx.exec("GRANT " + row[1].as<std::string>() + " ON " + dst + " TO " + row[0].as<std::string>());
}

void swapInTwin(pqxx::transaction_base& tx, const std::string& table, const std::string& twin) {
    const std::string name = tx.quote_name(table);
    tx.exec("DROP TABLE " + name);
    tx.exec("ALTER TABLE " + tx.quote_name(twin) + " RENAME TO " + name);
    const std::string like = std::string(kTmpPrefix) + "%";
    const size_t prefix = std::char_traits<char>::length(kTmpPrefix);
    // A primary key's or unique constraint's index is renamed with it.
    for (const auto& row : tx.exec_params("SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass "
                                          "AND conname LIKE $2",
                                          name, like)) {
        const std::string tmp = row[0].as<std::string>();
        tx.exec("ALTER TABLE " + name + " RENAME CONSTRAINT " + tx.quote_name(tmp) + " TO " +
                tx.quote_name(tmp.substr(prefix)));
    }
    for (const auto& row :
         tx.exec_params("SELECT c.relname FROM pg_index x JOIN pg_class c ON c.oid = "
                        "x.indexrelid WHERE x.indrelid = $1::regclass AND c.relname LIKE $2",
                        name, like)) {
        const std::string tmp = row[0].as<std::string>();
        tx.exec("ALTER INDEX " + tx.quote_name(tmp) + " RENAME TO " + tx.quote_name(tmp.substr(prefix)));
    }
}

bool covered(const std::vector<Range>& ranges, const std::vector<int64_t>& timestamps) {
    const int64_t last = nowMs() + 366 * kDayMs;
    for (int64_t ts : timestamps) {
        if (ts < kFirstPartitionedMs || ts > last)
            continue; // the default partition's
        const auto after = std::upper_bound(ranges.begin(), ranges.end(), Range{ts, INT64_MAX});
        if (after == ranges.begin() || std::prev(after)->second <= ts)
            return false;
    }
    return true;
}

int createPartitions(pqxx::transaction_base& tx, const std::string& parent, const std::string& name,
                     PartitionPeriod period, const std::vector<int64_t>& timestamps) {
    // One creator at a time per table; the others find its partitions when they get the lock. A
    // creator never waits long behind a reader of the default partition: it fails, and the rows
    // go to the default partition until the next try.
    tx.exec("SET LOCAL lock_timeout = '2s'");
    tx.exec_params("SELECT pg_advisory_xact_lock(hashtext('radt partitions ' || $1))", parent);
    std::vector<Range> ranges = partitionRanges(tx, parent);
    const int64_t last = nowMs() + 366 * kDayMs;
    const std::string parentName = tx.quote_name(parent), defaultName = tx.quote_name(name + "_default");
    const auto overlaps = [&](int64_t from, int64_t to) {
        return std::any_of(ranges.begin(), ranges.end(),
                           [&](const Range& r) { return r.first < to && from < r.second; });
    };
    bool lockedDefault = false;
    std::string owner;
    int created = 0;
    for (int64_t ts : timestamps) {
        if (ts < kFirstPartitionedMs || ts > last)
            continue;
        int64_t from = periodStart(period, ts), to = from + periodMs(period);
        if (overlaps(from, to)) {
            // Partly covered (the period changed from days to weeks, or back): its own day then.
            from = periodStart(PartitionPeriod::Day, ts);
            to = from + kDayMs;
            if (overlaps(from, to))
                continue;
        }
        if (!lockedDefault) {
            // No row may enter the default partition between taking its rows and ATTACH's check.
            tx.exec("LOCK TABLE " + defaultName + " IN SHARE ROW EXCLUSIVE MODE");
            lockedDefault = true;
        }
        // Created beside the table, filled with what the default partition holds for its range,
        // then attached: ATTACH locks the parent less than CREATE ... PARTITION OF (writers go on).
        const std::string part = tx.quote_name(partitionName(name, from));
        const std::string bounds = std::to_string(from) + " AND timestamp < " + std::to_string(to);
        tx.exec("CREATE TABLE " + part + " (LIKE " + parentName + " INCLUDING DEFAULTS)");
        tx.exec("WITH moved AS (DELETE FROM " + defaultName + " WHERE timestamp >= " + bounds +
                " RETURNING *) INSERT INTO " + part + " SELECT * FROM moved");
        tx.exec("ALTER TABLE " + part + " ADD CONSTRAINT radt_bounds CHECK (timestamp >= " + bounds + ")");
        tx.exec("ALTER TABLE " + parentName + " ATTACH PARTITION " + part + " FOR VALUES FROM (" +
                std::to_string(from) + ") TO (" + std::to_string(to) + ")");
        tx.exec("ALTER TABLE " + part + " DROP CONSTRAINT radt_bounds"); // served ATTACH's check
        if (owner.empty()) // the parent's owner owns its partitions too (a DBA's conversion, an archive)
            owner = tx.quote_name(
                tx.exec_params1("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = $1::regclass",
                                parentName)[0]
                    .as<std::string>());
        tx.exec("ALTER TABLE " + part + " OWNER TO " + owner);
        ranges.emplace_back(from, to);
        ++created;
    }
    return created;
}

std::vector<int64_t> aheadTimestamps(PartitionPeriod period, int64_t nowMs) {
    // The period before now (a clock slightly behind), now, and two weeks ahead: a recording
    // started now stays in bounded partitions; a longer one makes its next ones as it goes.
    std::vector<int64_t> out;
    for (int64_t ts = nowMs - periodMs(period); ts <= nowMs + 14 * kDayMs; ts += periodMs(period))
        out.push_back(ts);
    return out;
}

} // namespace radt::pg
