// SPDX-License-Identifier: MIT
#include "core/artifacts/ArtifactLocation.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <filesystem>

namespace radt {

namespace fs = std::filesystem;

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percentDecoded(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            const int hi = hexValue(text[i + 1]), lo = hexValue(text[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

/// What a remote scheme is and how one gets at it, for the sentence the pane shows.
std::string remoteAdvice(const std::string& scheme) {
    if (scheme == "mlflow-artifacts" || scheme == "runs" || scheme == "models")
        return "they are served by an MLflow tracking server (mlflow server --artifacts-destination); "
               "radt-explorer reads only folders of this machine: download them with "
               "`mlflow artifacts download -r <run id>` or MLflow's UI";
    if (scheme == "s3" || scheme == "gs" || scheme == "wasbs" || scheme == "abfss" || scheme == "hdfs" ||
        scheme == "dbfs")
        return "they are in object storage; radt-explorer reads only folders of this machine: copy them "
               "here with that storage's tool (for example `aws s3 cp --recursive` or `gsutil cp -r`)";
    return "radt-explorer reads only folders of this machine (local paths and file:// URIs)";
}

// `place` by reference, never moved in: a reason built from place.path in the same call would
// otherwise read a moved-from path where arguments are evaluated left to right (clang).
ArtifactPlace unreachable(const ArtifactPlace& place, ArtifactReach reach, std::string reason) {
    ArtifactPlace out = place;
    out.reach = reach;
    out.reason = std::move(reason);
    return out;
}

/// A local path that is not there: another host's, or gone.
ArtifactPlace absentFolder(const ArtifactPlace& place, const ArtifactContext& context) {
    const bool otherHost = !context.runHost.empty() && context.runHost != context.thisHost;
    if (otherHost)
        return unreachable(
            place, ArtifactReach::OtherHost,
            "The run was recorded on " + context.runHost + ", which keeps its artifacts in " + place.path +
                " on that machine; this machine (" + context.thisHost +
                ") has no such folder. To read them here, record with a shared artifact root that every "
                "machine mounts at the same path (RADT_ARTIFACT_ROOT for a PostgreSQL store), or copy "
                "the folder to this path.");
    std::string reason = "The artifact folder " + place.path + " does not exist on this machine";
    if (context.storeOnServer && context.runHost.empty())
        reason += "; the run names no host (radt.host.name), so it may be on the machine that recorded it";
    else
        reason += " (deleted or moved since the run was recorded)";
    return unreachable(place, ArtifactReach::Missing, reason + ".");
}

} // namespace

std::string uriScheme(const std::string& uri) {
    // RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"; one letter is a drive ("C:"), not a scheme.
    size_t i = 0;
    while (i < uri.size() && (std::isalnum(static_cast<unsigned char>(uri[i])) || uri[i] == '+' ||
                              uri[i] == '-' || uri[i] == '.'))
        ++i;
    if (i < 2 || i >= uri.size() || uri[i] != ':' || !std::isalpha(static_cast<unsigned char>(uri[0])))
        return "";
    std::string scheme = uri.substr(0, i);
    for (char& c : scheme)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return scheme;
}

std::string localPathOfFileUri(const std::string& uri) {
    if (uriScheme(uri) != "file")
        return "";
    std::string rest = uri.substr(5); // after "file:"
    if (rest.rfind("//", 0) == 0) {
        rest = rest.substr(2);
        const size_t slash = rest.find('/');
        const std::string host = slash == std::string::npos ? rest : rest.substr(0, slash);
        if (!host.empty() && host != "localhost")
            return "";
        rest = slash == std::string::npos ? "/" : rest.substr(slash);
    }
    return percentDecoded(rest);
}

ArtifactPlace locateArtifacts(const std::string& artifactUri, const ArtifactContext& context) {
    ArtifactPlace place;
    place.uri = artifactUri;
    if (artifactUri.empty())
        return unreachable(place, ArtifactReach::NoUri,
                           "This run records no artifact location (its artifact_uri is empty).");
    const std::string scheme = uriScheme(artifactUri);
    if (scheme == "file") {
        place.path = localPathOfFileUri(artifactUri);
        if (place.path.empty())
            return unreachable(place, ArtifactReach::OtherHost,
                               "The artifacts are at " + artifactUri +
                                   ", a file URI of another machine; radt-explorer reads only folders of "
                                   "this one.");
    } else if (!scheme.empty()) {
        return unreachable(place, ArtifactReach::Remote,
                           "The artifacts are at " + artifactUri + ": " + remoteAdvice(scheme) + ".");
    } else {
        place.path = artifactUri;
    }
    if (fs::path(place.path).is_relative())
        place.path = (fs::path(context.relativeBase.empty() ? "." : context.relativeBase) / place.path)
                         .lexically_normal()
                         .string();
    std::error_code error;
    const fs::file_status status = fs::status(place.path, error);
    if (status.type() == fs::file_type::not_found || (error && error != std::errc::permission_denied))
        return absentFolder(place, context);
    if (error)
        return unreachable(place, ArtifactReach::Unreadable,
                           "The artifact folder " + place.path + " cannot be reached: " + error.message() +
                               ".");
    if (status.type() != fs::file_type::directory)
        return unreachable(place, ArtifactReach::NotAFolder,
                           "The artifact location " + place.path + " is not a folder.");
    if (DIR* dir = ::opendir(place.path.c_str())) {
        ::closedir(dir);
    } else {
        const std::string why = std::strerror(errno);
        return unreachable(place, ArtifactReach::Unreadable,
                           "The artifact folder " + place.path + " cannot be listed: " + why + ".");
    }
    place.reach = ArtifactReach::Local;
    return place;
}

} // namespace radt
