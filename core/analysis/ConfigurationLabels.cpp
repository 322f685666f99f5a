// SPDX-License-Identifier: MIT
#include "core/analysis/ConfigurationLabels.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

namespace radt {

std::vector<std::string> paramWords(const std::string& params) {
    std::istringstream in(params);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

namespace {

/// The param a word of a `params` string sets: "seed" of "--seed", "-seed=3" and radT's
/// "seed=3"; "" for a value ("3", "-1", "-0.5").
std::string flagOf(const std::string& word) {
    const size_t dashes = word.find_first_not_of('-');
    if (dashes == std::string::npos || (dashes == 0 && word.find('=') == std::string::npos))
        return {};
    const std::string name = word.substr(dashes, word.find('=', dashes) - dashes);
    return name.empty() || ::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '.' ? std::string()
                                                                                            : name;
}

bool unset(const std::string& value) {
    return value.empty() || value == "-";
}

std::optional<double> asNumber(const std::string& text) {
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() ? std::optional<double>(v) : std::nullopt;
}

/// radT's own params: they tell configurations apart only where the user's params do not.
bool isRadtParam(const std::string& name) {
    return name == "model" || name == "collocation" || name == "max_epoch" || name == "max_time" ||
           name == "runs_per_gpu" || name == "devices";
}

/// A param's value in a configuration as the labels compare it: unset when missing or "-".
std::string valueIn(const ParamMap& key, const std::string& name) {
    const auto it = key.find(name);
    return it == key.end() || unset(it->second) ? std::string("\x1e") : it->second;
}

} // namespace

/// The fewest params that tell the configurations apart, most telling first (greedy, as the
/// chart's line names are chosen: the param that tells the most configurations apart next; the
/// user's before radT's).
std::vector<std::string> tellingParams(const std::vector<ParamMap>& keys) {
    struct Candidate {
        std::string name;
        bool radt;
        size_t values;
    };
    std::set<std::string> names;
    for (const ParamMap& key : keys)
        for (const auto& entry : key)
            names.insert(entry.first);
    std::vector<Candidate> candidates;
    for (const std::string& name : names) {
        std::set<std::string> values;
        for (const ParamMap& key : keys)
            values.insert(valueIn(key, name));
        if (values.size() > 1)
            candidates.push_back({name, isRadtParam(name), values.size()});
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.radt != b.radt ? !a.radt : a.values > b.values;
    });
    std::vector<std::string> chosen;
    std::vector<std::string> told(keys.size()); // each configuration's values so far, as one text
    auto distinct = [](const std::vector<std::string>& v) {
        return std::set<std::string>(v.begin(), v.end()).size();
    };
    auto with = [&](const std::string& name) {
        std::vector<std::string> longer = told;
        for (size_t c = 0; c < keys.size(); ++c)
            longer[c] += '\x1f' + valueIn(keys[c], name);
        return longer;
    };
    while (distinct(told) < keys.size()) {
        size_t best = candidates.size(), bestCount = distinct(told);
        for (size_t c = 0; c < candidates.size(); ++c) {
            if (best < candidates.size() && candidates[best].radt != candidates[c].radt)
                break; // a user param that helps wins over any of radT's
            if (const size_t count = distinct(with(candidates[c].name)); count > bestCount) {
                best = c;
                bestCount = count;
            }
        }
        if (best == candidates.size())
            break;
        told = with(candidates[best].name);
        chosen.push_back(candidates[best].name);
        candidates.erase(candidates.begin() + long(best));
    }
    return chosen;
}

ParamMap readableParams(const ParamMap& key) {
    ParamMap out;
    std::string args;
    if (const auto it = key.find("params"); it != key.end()) {
        const std::vector<std::string> in = paramWords(it->second);
        for (size_t i = 0; i < in.size(); ++i) {
            const std::string name = flagOf(in[i]);
            if (name.empty()) {
                args += (args.empty() ? "" : " ") + in[i];
            } else if (const size_t eq = in[i].find('='); eq != std::string::npos) {
                out[name] = in[i].substr(eq + 1); // "--lr=0.1", radT's "lr=0.1"
            } else if (i + 1 < in.size() && flagOf(in[i + 1]).empty()) {
                out[name] = in[++i]; // "--lr 0.1"
            } else {
                out[name] = "true"; // a switch: "--amp" (an empty value would read as unset)
            }
        }
    }
    if (!args.empty())
        out["args"] = args;
    for (const auto& [name, value] : key)
        if (name != "params")
            out[name] = value; // what the run logged by name wins over its command line
    return out;
}

bool paramValueBefore(const std::string& a, const std::string& b) {
    if (unset(a) || unset(b))
        return unset(a) && !unset(b);
    const auto na = asNumber(a), nb = asNumber(b);
    if (na && nb)
        return *na < *nb;
    if (na || nb)
        return bool(na); // numbers before text
    return a < b;
}

ConfigurationNames nameConfigurations(const std::vector<ParamMap>& keys) {
    ConfigurationNames names;
    const std::vector<std::string> telling = tellingParams(keys);
    // The order: by the telling params in their order, then by every param (a stable tie-break).
    names.order.resize(keys.size());
    std::iota(names.order.begin(), names.order.end(), size_t(0));
    auto before = [&](size_t a, size_t b) {
        for (const std::string& name : telling) {
            const std::string va = valueIn(keys[a], name), vb = valueIn(keys[b], name);
            if (va != vb)
                return paramValueBefore(va == "\x1e" ? "" : va, vb == "\x1e" ? "" : vb);
        }
        return std::lexicographical_compare(
            keys[a].begin(), keys[a].end(), keys[b].begin(), keys[b].end(), [](const auto& x, const auto& y) {
                return x.first != y.first ? x.first < y.first : paramValueBefore(x.second, y.second);
            });
    };
    std::stable_sort(names.order.begin(), names.order.end(), before);
    // The labels: each telling param's value, leaving out the unset ones (as line names do).
    names.labels.resize(keys.size());
    for (size_t c = 0; c < keys.size(); ++c) {
        std::string label;
        for (const std::string& name : telling) {
            const auto it = keys[c].find(name);
            if (it == keys[c].end() || unset(it->second))
                continue;
            label += (label.empty() ? "" : " ") + name + (it->second.empty() ? "" : "=" + it->second);
        }
        names.labels[c] = label;
    }
    // An unset value alone tells its configuration apart: say it rather than leave it blank.
    for (size_t c = 0; c < keys.size(); ++c)
        if (names.labels[c].empty())
            names.labels[c] = keys.size() == 1  ? "all runs"
                              : telling.empty() ? ""
                                                : telling.front() + "=none";
    std::map<std::string, int> uses;
    for (const std::string& label : names.labels)
        ++uses[label];
    for (size_t k = 0; k < names.order.size(); ++k) {
        std::string& label = names.labels[names.order[k]];
        if (label.empty())
            label = "#" + std::to_string(k);
        else if (uses[label] > 1)
            label += " (#" + std::to_string(k) + ")";
    }
    return names;
}

} // namespace radt
