// SPDX-License-Identifier: MIT
#include "core/artifacts/RunEnvironment.h"

#include "core/artifacts/ArtifactListing.h"
#include "core/artifacts/TextPager.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>
#include <set>
#include <sys/stat.h>

namespace radt {

namespace {

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::string trimmed(const std::string& s) {
    const size_t first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

/// A package name as pip and conda spell them: letters, digits, '.', '_', '-', a letter or digit first.
bool isPackageName(const std::string& name) {
    if (name.empty() || !std::isalnum(static_cast<unsigned char>(name[0])))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

/// Printable ASCII and UTF-8 beyond it, no control bytes: what a version or URL may hold.
bool isPrintable(const std::string& text) {
    return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

/// PEP 503: lower case, each run of '-', '_' and '.' one '-'.
std::string normalisedName(const std::string& name) {
    std::string out;
    for (char c : name) {
        if (c == '-' || c == '_' || c == '.') {
            if (out.empty() || out.back() != '-')
                out += '-';
        } else {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

/// A line as a problem names it: at most 60 bytes, control bytes as '?'.
std::string quotedLine(const std::string& line) {
    std::string out = line.substr(0, 60);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f)
            c = '?';
    return "'" + out + (line.size() > 60 ? "...'" : "'");
}

void addPackage(PackageList& list, size_t lineNo, const std::string& name, const std::string& version) {
    const std::string key = normalisedName(name);
    const auto [it, added] = list.packages.emplace(key, version);
    if (added || it->second == version)
        return;
    it->second += " | " + version;
    list.problems.push_back("line " + std::to_string(lineNo) + ": " + key + " is listed twice");
}

/// `-e VCS+URL#egg=name` or `-e PATH` (named by pip's comment before it): name and value.
bool parseEditable(const std::string& rest, const std::pair<std::string, std::string>& announced,
                   std::string& name, std::string& version) {
    const size_t egg = rest.find("#egg=");
    if (egg != std::string::npos) {
        name = rest.substr(egg + 5, rest.find_first_of("&# ", egg + 5) - (egg + 5));
        version = "-e " + rest.substr(0, egg);
        return true;
    }
    if (announced.first.empty())
        return false;
    name = announced.first;
    version = announced.second + " (-e " + rest + ")";
    return true;
}

/// pip's "# Editable install with no version control (name==1.0)": (name, version), or empty.
std::pair<std::string, std::string> editableAnnounced(const std::string& comment) {
    const size_t open = comment.rfind('('), eq = comment.rfind("==");
    if (comment.find("ditable") == std::string::npos || open == std::string::npos ||
        eq == std::string::npos || eq < open || comment.back() != ')')
        return {};
    return {comment.substr(open + 1, eq - open - 1), comment.substr(eq + 2, comment.size() - eq - 3)};
}

} // namespace

PackageList parsePipFreeze(const std::string& text) {
    PackageList list;
    const std::vector<std::string> lines = splitLines(text);
    std::pair<std::string, std::string> announced;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string line = trimmed(lines[i]);
        const size_t lineNo = i + 1;
        if (line.empty())
            continue;
        if (line[0] == '#') {
            announced = editableAnnounced(line);
            continue;
        }
        std::string name, version;
        bool ok = true;
        if (line.rfind("-e ", 0) == 0 || line.rfind("--editable ", 0) == 0)
            ok = parseEditable(trimmed(line.substr(line.find(' '))), announced, name, version);
        else if (line[0] == '-')
            continue; // an option pip freeze may carry (-i URL, --find-links ...): no package
        else if (const size_t at = line.find(" @ "); at != std::string::npos) {
            name = trimmed(line.substr(0, at));
            version = "@ " + trimmed(line.substr(at + 3));
        } else if (const size_t eq = line.find("=="); eq != std::string::npos) {
            name = trimmed(line.substr(0, eq));
            version = trimmed(line.substr(line.compare(eq, 3, "===") == 0 ? eq + 3 : eq + 2));
        } else
            ok = false;
        announced = {};
        if (!ok || !isPackageName(name) || !isPrintable(version)) {
            list.problems.push_back(
                "line " + std::to_string(lineNo) + ": " + quotedLine(line) +
                (ok && isPackageName(name) && version.empty() ? " has no version" : " is not name==version"));
            continue;
        }
        addPackage(list, lineNo, name, version);
    }
    return list;
}

PackageList parseCondaList(const std::string& text) {
    PackageList list;
    const std::vector<std::string> lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string line = trimmed(lines[i]);
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> fields;
        for (size_t at = 0; at < line.size();) {
            const size_t start = line.find_first_not_of(" \t", at);
            if (start == std::string::npos)
                break;
            const size_t end = std::min(line.find_first_of(" \t", start), line.size());
            fields.push_back(line.substr(start, end - start));
            at = end;
        }
        if (fields.size() < 2 || !isPackageName(fields[0]) || !isPrintable(fields[1])) {
            list.problems.push_back("line " + std::to_string(i + 1) + ": " + quotedLine(line) +
                                    " is not 'name version build [channel]'");
            continue;
        }
        std::string version = fields[1];
        if (fields.size() >= 4 && fields[3] == "pypi")
            version += " pypi"; // installed by pip into the environment
        else if (fields.size() >= 3)
            version += " " + fields[2];
        addPackage(list, i + 1, fields[0], version);
    }
    return list;
}

SmiFacts parseNvidiaSmiQuery(const std::string& text) {
    SmiFacts facts;
    for (const std::string& raw : splitLines(text)) {
        const size_t colon = raw.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string key = trimmed(raw.substr(0, colon));
        const std::string value = trimmed(raw.substr(colon + 1));
        if (!isPrintable(value))
            continue;
        if (key == "Driver Version" && facts.driver.empty())
            facts.driver = value;
        else if ((key == "CUDA Version" || key == "CUDA Driver Version") && facts.cuda.empty())
            facts.cuda = value;
        else if (key == "Product Name")
            facts.gpus.push_back(value);
    }
    return facts;
}

std::string describeGpus(const std::vector<std::string>& gpus) {
    std::vector<std::pair<std::string, int>> counted; // in order of first appearance
    for (const std::string& gpu : gpus) {
        auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == gpu; });
        if (it == counted.end())
            counted.emplace_back(gpu, 1);
        else
            ++it->second;
    }
    std::string out;
    for (const auto& [name, count] : counted)
        out += (out.empty() ? "" : ", ") + (count > 1 ? std::to_string(count) + " x " : std::string()) + name;
    return out;
}

const std::vector<std::string>& environmentFileNames() {
    static const std::vector<std::string> names{"pip.txt", "conda.txt", "smi.txt"};
    return names;
}

namespace {

/// The items the tags give, in the order rows show them, with their tag.
const std::vector<std::pair<std::string, std::string>>& tagItems() {
    static const std::vector<std::pair<std::string, std::string>> items{
        {"radt version", kRadtVersionTag},
        {"host", "radt.host.name"},
        {"CPU", "radt.host.cpu"},
        {"cores", "radt.host.cores"},
        {"memory (GiB)", "radt.host.memory_gib"},
        {"kernel", "radt.host.kernel"}};
    return items;
}

const char* const kFilesItem = "environment files";

/// Where an item comes from: "pip.txt", "conda.txt", "smi.txt", or "" (a tag).
std::string fileOfItem(const std::string& item) {
    if (item.rfind("pip: ", 0) == 0)
        return "pip.txt";
    if (item.rfind("conda: ", 0) == 0)
        return "conda.txt";
    if (item == "driver" || item == "CUDA" || item == "GPU")
        return "smi.txt";
    return {};
}

/// Rows' order: the files, the tags' items, the GPU's, then packages by name.
std::pair<int, std::string> itemRank(const std::string& item) {
    if (item == kFilesItem)
        return {0, item};
    for (size_t i = 0; i < tagItems().size(); ++i)
        if (tagItems()[i].first == item)
            return {1 + int(i), item};
    const std::vector<std::string> gpu{"driver", "CUDA", "GPU"};
    if (const auto it = std::find(gpu.begin(), gpu.end(), item); it != gpu.end())
        return {20 + int(it - gpu.begin()), item};
    return {item.rfind("pip: ", 0) == 0 ? 30 : 31, item};
}

void addPackages(RunEnvironment& env, const std::string& file, const char* prefix, const PackageList& list) {
    for (const auto& [name, version] : list.packages)
        env.items[prefix + name] = version;
    for (const std::string& problem : list.problems)
        env.problems.push_back(file + " " + problem);
}

/// "pip.txt, smi.txt; no conda.txt": what a run's files were, or why none could be read.
std::string filesValue(const RunEnvironment& env) {
    std::string read, unread;
    std::set<std::string> reasons;
    for (const std::string& file : environmentFileNames()) {
        const auto it = env.files.find(file);
        const std::string why = it == env.files.end() ? "not recorded" : it->second;
        reasons.insert(why);
        if (why.empty())
            read += (read.empty() ? "" : ", ") + file;
        else
            unread +=
                (unread.empty() ? "" : "; ") + (why == "not recorded" ? "no " + file : file + " " + why);
    }
    if (read.empty() && reasons.size() == 1 && *reasons.begin() != "not recorded")
        return *reasons.begin(); // one reason for all: the artifacts are out of reach
    return read.empty() ? unread : unread.empty() ? read : read + "; " + unread;
}

} // namespace

RunEnvironment runEnvironmentOf(const Run& run, const std::map<std::string, std::string>& fileTexts,
                                const std::map<std::string, std::string>& whyNotRead) {
    RunEnvironment env;
    for (const auto& [item, tag] : tagItems()) {
        const auto it = run.tags.find(tag);
        env.items[item] = it == run.tags.end() || it->second.empty() ? "(not recorded)" : it->second;
    }
    for (const std::string& file : environmentFileNames()) {
        const auto text = fileTexts.find(file);
        if (text == fileTexts.end()) {
            const auto why = whyNotRead.find(file);
            env.files[file] = why == whyNotRead.end() ? "not recorded" : why->second;
            continue;
        }
        env.files[file] = "";
        if (file == "pip.txt")
            addPackages(env, file, "pip: ", parsePipFreeze(text->second));
        else if (file == "conda.txt")
            addPackages(env, file, "conda: ", parseCondaList(text->second));
        else {
            const SmiFacts smi = parseNvidiaSmiQuery(text->second);
            env.items["driver"] = smi.driver.empty() ? "(not in smi.txt)" : smi.driver;
            env.items["CUDA"] = smi.cuda.empty() ? "(not in smi.txt)" : smi.cuda;
            env.items["GPU"] = smi.gpus.empty() ? "(none in smi.txt)" : describeGpus(smi.gpus);
        }
    }
    return env;
}

namespace {

/// An environment file's text when it reads as text: else *why says what it is.
std::optional<std::string> readEnvironmentFile(const std::string& path, std::string* why) {
    constexpr uint64_t kMaxBytes = 32ull << 20; // a pip freeze is kilobytes; past this it is no list
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        *why = errno == ENOENT ? "not recorded" : std::string("unreadable: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::string error;
    switch (classifyArtifact(path, &error)) {
    case ArtifactKind::Binary:
        *why = "is not text";
        return std::nullopt;
    case ArtifactKind::Unreadable:
        *why = "unreadable: " + error;
        return std::nullopt;
    case ArtifactKind::Text:
        break;
    }
    if (uint64_t(st.st_size) > kMaxBytes) {
        *why = "too large (" + formatByteSize(uint64_t(st.st_size)) + ")";
        return std::nullopt;
    }
    try {
        TextPager pager(path);
        pager.indexMore(pager.size());
        std::string text;
        for (const TextPager::Line& line : pager.lines(0, size_t(pager.lineCount()), size_t{64} * 1024))
            text += line.text + "\n";
        return text;
    } catch (const std::exception& e) {
        *why = std::string("unreadable: ") + e.what();
        return std::nullopt;
    }
}

} // namespace

RunEnvironment readRunEnvironment(const Run& run, const ArtifactContext& context) {
    ArtifactContext where = context;
    if (where.runHost.empty())
        if (const auto host = run.tags.find("radt.host.name"); host != run.tags.end())
            where.runHost = host->second;
    const ArtifactPlace place = locateArtifacts(run.artifactUri, where);
    std::map<std::string, std::string> texts, whyNot;
    for (const std::string& file : environmentFileNames()) {
        if (place.reach != ArtifactReach::Local) {
            whyNot[file] = place.reason;
            continue;
        }
        std::string why;
        if (auto text = readEnvironmentFile(place.path + "/" + file, &why))
            texts[file] = std::move(*text);
        else
            whyNot[file] = why;
    }
    return runEnvironmentOf(run, texts, whyNot);
}

std::vector<EnvironmentRow> diffEnvironments(const std::vector<RunEnvironment>& runs) {
    std::set<std::string> items;
    for (const RunEnvironment& env : runs)
        for (const auto& [item, value] : env.items)
            items.insert(item);
    std::vector<std::string> order(items.begin(), items.end());
    std::sort(order.begin(), order.end(),
              [](const std::string& a, const std::string& b) { return itemRank(a) < itemRank(b); });
    std::vector<EnvironmentRow> rows;
    EnvironmentRow files{kFilesItem, {}, false};
    for (const RunEnvironment& env : runs)
        files.values.push_back(filesValue(env));
    // Which files were read, not the words of why not: each run's unreachable artifact folder
    // names its own path, and runs that all went unread do not differ in what they ran on.
    const auto readFiles = [](const RunEnvironment& env) {
        std::string key;
        for (const std::string& file : environmentFileNames()) {
            const auto it = env.files.find(file);
            key += it != env.files.end() && it->second.empty() ? '1' : '0';
        }
        return key;
    };
    files.differs = std::any_of(runs.begin(), runs.end(), [&](const RunEnvironment& env) {
        return readFiles(env) != readFiles(runs.front());
    });
    rows.push_back(std::move(files));
    for (const std::string& item : order) {
        EnvironmentRow row{item, {}, false};
        std::optional<std::string> first;
        for (const RunEnvironment& env : runs) {
            std::optional<std::string> known;
            if (const auto it = env.items.find(item); it != env.items.end())
                known = it->second;
            else if (const std::string file = fileOfItem(item); file.empty() || env.files.at(file).empty())
                known = "(absent)";
            row.values.push_back(known ? *known : "(no " + fileOfItem(item) + ")");
            if (known && first && *known != *first)
                row.differs = true;
            if (known && !first)
                first = known;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<EnvironmentRow> differingRows(const std::vector<EnvironmentRow>& rows) {
    std::vector<EnvironmentRow> out;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(out),
                 [](const EnvironmentRow& r) { return r.differs; });
    return out;
}

} // namespace radt
