// SPDX-License-Identifier: MIT
#pragma once
// MLflow's limits on names and values, enforced before anything is written so MLflow's own tools
// accept every row we store (resources/DESIGN.md §4).

#include <string>

namespace radt::mlflow {

constexpr size_t kMaxKeyLength = 250;
constexpr size_t kMaxParamValueLength = 6000;
constexpr size_t kMaxTagValueLength = 8000;
constexpr size_t kMaxExperimentNameLength = 256;
constexpr size_t kMaxRunNameLength = 250;

/// Throws StoreError when `key` is empty, longer than 250 chars or not `^[/\w.\- :]*$`.
/// `what` names the kind of key in the message ("metric", "param", "tag").
void validateKey(const std::string& key, const char* what);
void validateParamValue(const std::string& key, const std::string& value);
void validateTagValue(const std::string& key, const std::string& value);
void validateExperimentName(const std::string& name);
void validateRunName(const std::string& name);

/// True when `key` matches MLflow's key pattern (non-ASCII UTF-8 counts as a word character, as
/// Python's \w does for letters).
bool isValidKey(const std::string& key);

} // namespace radt::mlflow
