// SPDX-License-Identifier: MIT
#include "core/analysis/ConfigurationLabels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
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

/// A param value as a number: finite decimal only. "nan" is text (a NaN compares false both ways
/// and would make the order depend on the order the runs come in), and so are "inf" and hex
/// ("0x40", which strtod would read as 64).
std::optional<double> asNumber(const std::string& text) {
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
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

bool naturalTextBefore(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = ::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool db = ::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            size_t ei = i, ej = j;
            while (ei < a.size() && ::isdigit(static_cast<unsigned char>(a[ei])))
                ++ei;
            while (ej < b.size() && ::isdigit(static_cast<unsigned char>(b[ej])))
                ++ej;
            // The digit runs as numbers: without leading zeros, the longer is larger.
            const size_t za = std::min(a.find_first_not_of('0', i), ei),
                         zb = std::min(b.find_first_not_of('0', j), ej);
            if (ei - za != ej - zb)
                return ei - za < ej - zb;
            if (const int c = a.compare(za, ei - za, b, zb, ej - zb); c != 0)
                return c < 0;
            i = ei;
            j = ej;
        } else {
            if (a[i] != b[j])
                return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            ++i;
            ++j;
        }
    }
    if (i < a.size() || j < b.size())
        return j < b.size() && i == a.size();
    return a < b; // "07" and "7": equal as numbers, told apart by their bytes
}

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
        return unset(a) && unset(b) ? a < b : unset(a); // "" before "-": two spellings, one order
    const auto na = asNumber(a), nb = asNumber(b);
    if (na && nb)
        return *na != *nb ? *na < *nb : a < b; // "1e2" and "100": one value, two spellings
    if (na || nb)
        return bool(na); // numbers before text
    return naturalTextBefore(a, b);
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
    // An unset value alone tells its configuration apart: say which spelling rather than leave it
    // blank ("none" is a value a param can have: `bs=none` would be two configurations' label).
    for (size_t c = 0; c < keys.size(); ++c)
        if (names.labels[c].empty()) {
            std::string spelling;
            if (!telling.empty()) {
                const auto it = keys[c].find(telling.front());
                spelling = telling.front() + (it == keys[c].end()  ? " unset"
                                              : it->second.empty() ? "=\"\""
                                                                   : "=-");
            }
            names.labels[c] = keys.size() == 1 ? "all runs" : spelling;
        }
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
