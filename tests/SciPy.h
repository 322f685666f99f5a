// SPDX-License-Identifier: MIT
#pragma once
// SciPy as the independent reference of the statistics tests: a Python program run in a real
// process by Debian's interpreter (python3-scipy, installed by resources/install-deps.sh), its
// one line of JSON on stdout parsed.

#include "TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <unistd.h>

namespace radt::test {

/// Runs `program` after "import json, sys; from scipy import stats, special"; null (and a test
/// failure naming the package) when it fails.
inline nlohmann::json scipy(const std::string& program) {
    TempDir dir;
    const std::string script = dir.file("s.py");
    writeFile(script, "import json, sys\nfrom scipy import stats, special\n" + program);
    // Debian's python3-scipy belongs to Debian's interpreter, not to one a PATH puts first (pyenv).
    const std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    FILE* pipe = ::popen((python + " '" + script + "' 2>&1").c_str(), "r");
    std::string out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
        out.append(buf, n);
    const int status = ::pclose(pipe);
    if (status != 0)
        ADD_FAILURE() << "SciPy is needed for this test (Debian: python3-scipy; resources/install-deps.sh "
                         "installs it): "
                      << out;
    return status == 0 ? nlohmann::json::parse(out) : nlohmann::json();
}

} // namespace radt::test
