// SPDX-License-Identifier: MIT
#pragma once
// The real pdflatex as the judge of the paper tables: a table compiles in a plain article, and
// its tabular's width as pdflatex measures it (it must fit an article's \linewidth).

#include "TempDir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <utility>

namespace radt::test {

/// Compiles `table` in an article with booktabs and T1 fonts; a test failure with pdflatex's log
/// (and the package to install) when it does not. True when it compiled.
inline bool compilesInAnArticle(const TempDir& dir, const std::string& table) {
    writeFile(dir.file("paper.tex"), "\\documentclass{article}\n\\usepackage{booktabs}\n"
                                     "\\usepackage[T1]{fontenc}\n\\begin{document}\n" +
                                         table + "\\end{document}\n");
    const int status =
        std::system(("cd '" + dir.path() +
                     "' && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >pdflatex.log 2>&1")
                        .c_str());
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok)
        ADD_FAILURE() << "pdflatex (texlive-latex-base and texlive-latex-recommended; "
                         "resources/install-deps.sh installs them) failed:\n"
                      << readFile(dir.file("pdflatex.log"));
    return ok;
}

/// {the table's tabular width, the article's \linewidth} in pt, as pdflatex measures them (the
/// tabular from the table's "\small" line to its \end{tabular}); {0, 0} and a failure when not.
inline std::pair<double, double> tabularWidth(const TempDir& dir, const std::string& table) {
    const size_t from = table.find("\n\\small\n"), to = table.rfind("\\end{tabular}"); // the outer one
    if (from == std::string::npos || to == std::string::npos) {
        ADD_FAILURE() << "no \\small ... \\end{tabular} in:\n" << table;
        return {0, 0};
    }
    writeFile(dir.file("width.tex"), "\\documentclass{article}\n\\usepackage{booktabs}\n\\newsavebox\\tbl\n"
                                     "\\begin{document}\n\\sbox\\tbl{" +
                                         table.substr(from, to + 13 - from) +
                                         "}\n\\typeout{TABLEWIDTH=\\the\\wd\\tbl\\space LINEWIDTH="
                                         "\\the\\linewidth}\n\\end{document}\n");
    const int status = std::system(
        ("cd '" + dir.path() + "' && pdflatex -interaction=nonstopmode width.tex >width.log 2>&1").c_str());
    const std::string log = readFile(dir.file("width.log"));
    const size_t w = log.find("TABLEWIDTH="), l = log.find("LINEWIDTH=");
    if (status != 0 || w == std::string::npos || l == std::string::npos) {
        ADD_FAILURE() << log;
        return {0, 0};
    }
    return {std::stod(log.substr(w + 11)), std::stod(log.substr(l + 10))};
}

} // namespace radt::test
