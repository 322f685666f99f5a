// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresTriggers.h"

namespace radt::pg {

MetricsOwner metricsOwner(pqxx::transaction_base& tx) {
    return {tx.quote_name(tx.exec1("SELECT current_schema()")[0].as<std::string>()),
            tx.quote_name(
                tx.exec1("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'metrics'::regclass")[0]
                    .as<std::string>())};
}

void makeTriggerFunction(pqxx::transaction_base& tx, const MetricsOwner& where, const char* name,
                         const std::string& body) {
    const std::string function = where.schema + "." + name + "()";
    tx.exec("CREATE OR REPLACE FUNCTION " + function +
            " RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, " +
            where.schema + ", pg_temp AS $$ BEGIN " + body + " RETURN NULL; END $$");
    tx.exec("ALTER FUNCTION " + function + " OWNER TO " + where.owner);
}

void makeStatementTriggers(pqxx::transaction_base& tx, const MetricsOwner& where, const std::string& prefix,
                           const char* rowsFunction, const char* truncateFunction) {
    const std::pair<const char*, const char*> triggers[] = {
        {"insert", "INSERT ON metrics REFERENCING NEW TABLE"},
        {"update_old", "UPDATE ON metrics REFERENCING OLD TABLE"},
        {"update_new", "UPDATE ON metrics REFERENCING NEW TABLE"},
        {"delete", "DELETE ON metrics REFERENCING OLD TABLE"}};
    for (const auto& [name, on] : triggers) {
        tx.exec("DROP TRIGGER IF EXISTS " + prefix + name + " ON metrics");
        tx.exec("CREATE TRIGGER " + prefix + name + " AFTER " + on +
                " AS changed FOR EACH STATEMENT EXECUTE PROCEDURE " + where.schema + "." + rowsFunction +
                "()");
    }
    tx.exec("DROP TRIGGER IF EXISTS " + prefix + "truncate ON metrics");
    tx.exec("CREATE TRIGGER " + prefix +
            "truncate AFTER TRUNCATE ON metrics FOR EACH STATEMENT EXECUTE PROCEDURE " + where.schema + "." +
            truncateFunction + "()");
}

} // namespace radt::pg
