// SPDX-License-Identifier: MIT
#include "core/store/MlflowLimits.h"

#include "core/store/Store.h"

namespace radt::mlflow {

namespace {

std::string quoted(const std::string& text) {
    constexpr size_t kShown = 60;
    return "'" + (text.size() > kShown ? text.substr(0, kShown) + "..." : text) + "'";
}

} // namespace

bool isValidKey(const std::string& key) {
    for (unsigned char c : key) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '_' || c >= 0x80;
        if (!word && c != '/' && c != '.' && c != '-' && c != ' ' && c != ':')
            return false;
    }
    return true;
}

void validateKey(const std::string& key, const char* what) {
    if (key.empty())
        throw StoreError(std::string("invalid ") + what + " key: the key is empty");
    if (key.size() > kMaxKeyLength)
        throw StoreError(std::string("invalid ") + what + " key " + quoted(key) + ": " +
                         std::to_string(key.size()) + " characters, MLflow allows at most " +
                         std::to_string(kMaxKeyLength));
    if (!isValidKey(key))
        throw StoreError(std::string("invalid ") + what + " key " + quoted(key) +
                         ": MLflow keys may only contain letters, digits, '_', '-', '.', ' ', ':' and '/'");
}

void validateParamValue(const std::string& key, const std::string& value) {
    if (value.size() > kMaxParamValueLength)
        throw StoreError("param '" + key + "' value is " + std::to_string(value.size()) +
                         " characters, MLflow allows at most " + std::to_string(kMaxParamValueLength));
}

void validateTagValue(const std::string& key, const std::string& value) {
    if (value.size() > kMaxTagValueLength)
        throw StoreError("tag '" + key + "' value is " + std::to_string(value.size()) +
                         " characters, MLflow allows at most " + std::to_string(kMaxTagValueLength));
}

void validateExperimentName(const std::string& name) {
    if (name.empty())
        throw StoreError("invalid experiment name: the name is empty");
    if (name.size() > kMaxExperimentNameLength)
        throw StoreError("invalid experiment name " + quoted(name) + ": " + std::to_string(name.size()) +
                         " characters, MLflow allows at most " + std::to_string(kMaxExperimentNameLength));
}

void validateRunName(const std::string& name) {
    if (name.size() > kMaxRunNameLength)
        throw StoreError("invalid run name " + quoted(name) + ": " + std::to_string(name.size()) +
                         " characters, MLflow allows at most " + std::to_string(kMaxRunNameLength));
}

} // namespace radt::mlflow
