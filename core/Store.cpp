#include "Store.h"

#include "PostgresStore.h"
#include "SqliteStore.h"
#include "StoreUri.h"
#include "Uuid.h"

namespace radt {

Run newRunFor(const NewRun& spec, const std::string& artifactRoot) {
    Run run;
    run.uuid = newRunUuid();
    run.name = spec.name;
    run.experimentId = spec.experimentId;
    run.status = spec.status;
    run.startTime = spec.startTime ? spec.startTime : nowMs();
    run.artifactUri = artifactRoot + "/" + std::to_string(spec.experimentId) + "/" + run.uuid + "/artifacts";
    for (auto& [k, v] : mlflowRunTags(spec))
        run.tags[k] = v;
    return run;
}

std::vector<std::pair<std::string, std::string>> mlflowRunTags(const NewRun& spec) {
    return {{"mlflow.runName", spec.name},
            {"mlflow.user", spec.userId},
            {"mlflow.source.name", spec.sourceName},
            {"mlflow.source.type", "LOCAL"}};
}

std::unique_ptr<Store> openStore(const std::string& text, OpenMode mode) {
    const StoreUri uri = parseStoreUri(text);
    if (uri.kind == StoreUri::Kind::Postgres)
        return std::make_unique<PostgresStore>(uri, mode);
    return std::make_unique<SqliteStore>(uri, mode);
}

} // namespace radt
