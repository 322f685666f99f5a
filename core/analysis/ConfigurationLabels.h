// SPDX-License-Identifier: MIT
#pragma once
// Configurations named by their params and put in one order: a configuration's
// label is the fewest params that tell the configurations apart ("batch-size=64"), chosen by the
// rule the chart's line names follow (the user's params before radT's, then those with more
// values, each kept only where it tells more configurations apart); the order is by those params,
// numbers compared as numbers (64 < 128 < 256). The view, `radt report`'s table, --json, --csv and
// --latex all read the label and the order from here, so "#K" means one configuration everywhere.

#include <map>
#include <string>
#include <vector>

namespace radt {

using ParamMap = std::map<std::string, std::string>;

/// The words of a script's argument string, split at white space.
std::vector<std::string> paramWords(const std::string& params);

/// `key` as people name its params: the script's argument string (`params`, "--batch-size 64
/// --amp") split into its flags ({"batch-size": "64", "amp": "true"}), its bare words kept as "args".
/// A param the run logged by name wins over a flag of the same name.
ParamMap readableParams(const ParamMap& key);

/// Text in natural order ("run 2" before "run 10", workload "1-2" before "1-10"), then byte order:
/// a total order.
bool naturalTextBefore(const std::string& a, const std::string& b);
struct NaturalTextOrder {
    bool operator()(const std::string& a, const std::string& b) const { return naturalTextBefore(a, b); }
};

/// Whether param value `a` comes before `b`, a total order whatever order values come in: unset
/// ("" before "-") first, then finite decimal numbers by value, then text in natural order ("run 2"
/// before "run 10"; "nan", "inf" and "0x40" are text). The report's configurations and the
/// parallel coordinates' axes order by it.
bool paramValueBefore(const std::string& a, const std::string& b);

/// The fewest params that tell the configurations (or lines, or runs) whose params are `keys`
/// apart, most telling first: the user's params before radT's (runs_per_gpu, collocation, model,
/// devices...), then those with more values; each kept only where it tells more apart than the
/// ones before. A missing, empty or "-" value is unset, one value among the others.
std::vector<std::string> tellingParams(const std::vector<ParamMap>& keys);

struct ConfigurationNames {
    /// order[k] is the index (in the keys given) of the k-th configuration in the common order.
    std::vector<size_t> order;
    /// labels[i]: the label of keys[i] ("batch-size=64 lr=0.1"; "all runs" for one configuration).
    std::vector<std::string> labels;
};

/// Labels and the common order of the configurations whose (readable) params are `keys`. Labels
/// are unique: configurations that only an unset value tells apart get their handle ("(#2)").
ConfigurationNames nameConfigurations(const std::vector<ParamMap>& keys);

} // namespace radt
