// SPDX-License-Identifier: MIT
// MLflow's run search syntax, parsed and evaluated on runs in memory: a table of expressions and
// the runs each must return (the semantics MLflow 3's search_runs documents: text params, numeric
// metrics by their latest value, runs lacking a key left out), and broken expressions, each named
// by the column where it goes wrong.
#include "core/base/RunFilter.h"

#include "RunFilterCases.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace radt;

namespace {

std::set<std::string> matching(const std::string& expression) {
    const std::vector<RunCondition> conditions = parseRunFilter(expression);
    std::set<std::string> out;
    for (const test::FixtureRun& f : test::fixtureRuns())
        if (runMatches(conditions, f.run, f.metrics))
            out.insert(f.run.uuid);
    return out;
}

} // namespace

TEST(RunFilter, EachExpressionReturnsExactlyItsRuns) {
    const auto table = test::runFilterCases();
    ASSERT_GE(table.size(), 40u);
    for (const auto& [expression, expected] : table)
        EXPECT_EQ(matching(expression), expected) << expression;
}

TEST(RunFilter, ABrokenExpressionNamesWhereItWentWrong) {
    const std::vector<std::tuple<std::string, size_t, std::string>> broken = {
        {"batch_size = '64'", 1, "is not a key"},
        {"params.`batch-size = '64'", 8, "unclosed `"},
        {"params.batch-size = '64'", 8, "is quoted"},
        {"params.lr 0.1", 11, "expected a comparator"},
        {"params.lr = 0.1", 13, "is quoted"},               // a param's value is text
        {"params.seed < '2'", 13, "does not compare text"}, // as MLflow refuses it
        {"metrics.loss LIKE '0.%'", 14, "is a number"},
        {"metrics.loss > 'high'", 16, "expected one after"},
        {"metrics.loss > 0.1 OR metrics.loss < 0", 20, "OR is not supported"},
        {"metrics.loss > 0.1 metrics.loss < 0", 20, "expected AND"},
        {"metrics.loss > 0.1 AND", 23, "expected metrics."},
        {"attributes.colour = 'red'", 12, "no attribute 'colour'"},
        {"attributes.status IN 'FAILED'", 22, "expected ( and a list"},
        {"attributes.status IN ('FAILED' 'KILLED')", 32, "expected , or )"},
        {"attributes.status NOT LIKE 'F%'", 19, "expected IN after NOT"},
        {"params.note = 'open", 15, "unclosed '"},
        {"params. = '1'", 8, "expected a key"},
    };
    for (const auto& [expression, column, words] : broken) {
        try {
            parseRunFilter(expression);
            ADD_FAILURE() << "accepted: " << expression;
        } catch (const RunFilterError& e) {
            EXPECT_EQ(e.column(), column) << expression << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << expression << ": " << e.what();
            EXPECT_EQ(std::string(e.what()).rfind("column " + std::to_string(column) + ": ", 0), 0u)
                << e.what();
        }
    }
}

TEST(RunFilter, LikeIsLinearOnAdversarialPatterns) {
    // Backtracking over every % of "%a%a%a...b" against "aaaa...": must answer, and answer no.
    const std::string text(20000, 'a');
    std::string pattern;
    for (int i = 0; i < 200; ++i)
        pattern += "%a";
    pattern += "%b";
    EXPECT_FALSE(likeMatches(text, pattern, false));
    EXPECT_TRUE(likeMatches(text + "b", pattern, false));
    EXPECT_TRUE(likeMatches("Hello", "h%O", true));
    EXPECT_FALSE(likeMatches("Hello", "h%O", false));
    EXPECT_TRUE(likeMatches("", "%", false));
    EXPECT_FALSE(likeMatches("", "_", false));
}
