// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace radt {

/// A fresh run id as MLflow makes them: 32 lowercase hex chars (a random UUID4 without dashes).
std::string newRunUuid();
/// True for exactly 32 hex characters.
bool isRunUuid(const std::string& text);

} // namespace radt
