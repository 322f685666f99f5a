// SPDX-License-Identifier: MIT
#include "core/store/StoreUri.h"

#include "core/store/Store.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace radt {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

/// 1..65535 in digits only. from_chars, not stol: stol throws out_of_range on a long number.
bool isPort(const std::string& text) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size() && value >= 1 &&
           value <= 65535;
}

StoreError uriError(const std::string& uri, const std::string& what) {
    return StoreError("invalid store URI '" + maskPassword(uri) + "': " + what +
                      " (expected sqlite:///relative.db, sqlite:////absolute/path.db or "
                      "postgresql://user@host:port/dbname)");
}

StoreUri parsePostgres(const std::string& text, size_t afterScheme) {
    StoreUri uri;
    uri.kind = StoreUri::Kind::Postgres;
    uri.text = text;
    std::string rest = text.substr(afterScheme);
    if (auto q = rest.find('?'); q != std::string::npos) {
        uri.query = rest.substr(q + 1);
        rest.erase(q);
    }
    const auto slash = rest.find('/');
    if (slash == std::string::npos || slash + 1 == rest.size())
        throw uriError(text, "no database name after the host");
    uri.database = rest.substr(slash + 1);
    std::string authority = rest.substr(0, slash);
    if (auto at = authority.rfind('@'); at != std::string::npos) {
        const std::string userinfo = authority.substr(0, at);
        authority.erase(0, at + 1);
        const auto colon = userinfo.find(':');
        uri.user = userinfo.substr(0, colon);
        if (colon != std::string::npos)
            uri.password = userinfo.substr(colon + 1);
        if (uri.user.empty())
            throw uriError(text, "empty user name before '@'");
    }
    if (auto colon = authority.rfind(':'); colon != std::string::npos) {
        uri.port = authority.substr(colon + 1);
        authority.erase(colon);
        if (!isPort(uri.port))
            throw uriError(text, "port must be a number from 1 to 65535");
    }
    uri.host = authority;
    if (uri.host.empty() && uri.query.find("host=") == std::string::npos && !uri.port.empty())
        throw uriError(text, "a port without a host");
    return uri;
}

} // namespace

std::string StoreUri::display() const {
    return maskPassword(text);
}

std::string maskPassword(const std::string& uri) {
    const auto scheme = uri.find("://");
    if (scheme == std::string::npos)
        return uri;
    const auto authorityStart = scheme + 3;
    const auto authorityEnd = uri.find('/', authorityStart);
    const auto at = uri.rfind('@', authorityEnd == std::string::npos ? std::string::npos : authorityEnd);
    if (at == std::string::npos || at < authorityStart)
        return uri;
    const auto colon = uri.find(':', authorityStart);
    if (colon == std::string::npos || colon > at)
        return uri;
    return uri.substr(0, colon + 1) + "***" + uri.substr(at);
}

StoreUri parseStoreUri(const std::string& text) {
    if (text.empty())
        throw uriError(text, "the URI is empty");
    const auto schemeEnd = text.find("://");
    if (schemeEnd == std::string::npos) {
        // No scheme: a plain SQLite file path, unless it looks like a mistyped URI.
        if (startsWith(text, "sqlite:") || startsWith(text, "postgresql:") || startsWith(text, "postgres:"))
            throw uriError(text, "a URI needs '://' after the scheme");
        StoreUri uri;
        uri.text = text;
        uri.path = text;
        return uri;
    }
    const std::string scheme = text.substr(0, schemeEnd);
    if (scheme == "sqlite") {
        const std::string rest = text.substr(schemeEnd + 3);
        if (rest.empty() || rest[0] != '/')
            throw uriError(text, "a SQLite URI has no host: write sqlite:/// followed by the path");
        StoreUri uri;
        uri.text = text;
        uri.path = rest.substr(1); // sqlite:///rel.db -> rel.db, sqlite:////abs.db -> /abs.db
        if (uri.path.empty())
            throw uriError(text, "no database file path");
        if (auto q = uri.path.find('?'); q != std::string::npos)
            throw uriError(text, "query parameters are not supported for SQLite stores");
        return uri;
    }
    if (scheme == "postgresql" || scheme == "postgres" || startsWith(scheme, "postgresql+"))
        return parsePostgres(text, schemeEnd + 3);
    throw uriError(text, "unsupported scheme '" + scheme + "'");
}

std::string defaultStoreDir() {
    namespace fs = std::filesystem;
    const char* xdg = std::getenv("XDG_DATA_HOME");
    fs::path base;
    if (xdg && *xdg && fs::path(xdg).is_absolute()) {
        base = xdg;
    } else {
        const char* home = std::getenv("HOME");
        base = fs::path(home && *home ? home : "/tmp") / ".local" / "share";
    }
    return (base / "radt").string();
}

std::string defaultStoreUri() {
    return "sqlite:///" + defaultStoreDir() + "/radt.db";
}

void createDefaultStoreDir() {
    std::error_code ec;
    std::filesystem::create_directories(defaultStoreDir(), ec);
    if (ec)
        throw StoreError("cannot create the default store directory " + defaultStoreDir() + ": " +
                         ec.message());
}

ResolvedStoreUri resolveStoreUri(const std::string& commandLineValue) {
    if (!commandLineValue.empty())
        return {commandLineValue, "--store"};
    for (const char* var : {"RADT_TRACKING_URI", "MLFLOW_TRACKING_URI"}) {
        const char* value = std::getenv(var);
        if (value && *value)
            return {value, var};
    }
    return {defaultStoreUri(), "default"};
}

} // namespace radt
