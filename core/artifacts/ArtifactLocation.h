// SPDX-License-Identifier: MIT
#pragma once
// Where a run's artifacts are (its artifact_uri, as MLflow or radt wrote it) and whether this
// machine can read them: a local folder or a file:// URI that exists here, or a sentence saying
// where they are and why they cannot be shown (a remote scheme, another host's folder, a folder
// that is gone). resources/DESIGN.md §4 (artifacts).

#include <string>

namespace radt {

enum class ArtifactReach {
    Local,      ///< a folder on this machine: list it
    NoUri,      ///< the run records no artifact location
    Remote,     ///< s3://, gs://, mlflow-artifacts:, http(s)://, ...: not a folder of this machine
    OtherHost,  ///< a local path of the machine that recorded the run, not present here
    Missing,    ///< a local path that does not exist (deleted or moved)
    NotAFolder, ///< the path is a file or something else
    Unreadable, ///< the folder exists but cannot be listed (permissions)
};

/// What is known about the run and this machine, beside its URI.
struct ArtifactContext {
    std::string runHost;        ///< the run's radt.host.name tag ("" when the run has none)
    std::string thisHost;       ///< this machine's host name
    bool storeOnServer = false; ///< the store is a server (PostgreSQL) that other hosts record into
    std::string relativeBase;   ///< a relative path is taken from here ("" = the current folder)
};

struct ArtifactPlace {
    ArtifactReach reach = ArtifactReach::NoUri;
    std::string uri;    ///< as recorded
    std::string path;   ///< the local path it names ("" for a remote URI)
    std::string reason; ///< for anything but Local: where the artifacts are and why they are not shown
};

/// Decides where `artifactUri` points and whether this machine can list it (checks the folder).
ArtifactPlace locateArtifacts(const std::string& artifactUri, const ArtifactContext& context);

/// The scheme of a URI ("s3", "file", "mlflow-artifacts"), "" for a plain path.
std::string uriScheme(const std::string& uri);

/// The local path of a file:// URI (file:///abs, file://localhost/abs; %XX decoded), or "" when
/// it names another host or is not a file URI.
std::string localPathOfFileUri(const std::string& uri);

} // namespace radt
