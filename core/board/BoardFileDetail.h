// SPDX-License-Identifier: MIT
#pragma once
// Internal to BoardFile.cpp (the reader) and BoardWriter.cpp (the writer): what both need.

#include <nlohmann/json.hpp>

#include <string>

namespace radt::board_detail {

/// Compact JSON text, valid UTF-8 whatever the input (bad bytes in strings become U+FFFD).
inline std::string dump(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// JSON text of a string, quoted and escaped.
inline std::string jsonString(const std::string& text) {
    return dump(nlohmann::json(text));
}

} // namespace radt::board_detail
