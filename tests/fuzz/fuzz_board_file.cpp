// SPDX-License-Identifier: MIT
// radT board files as the explorer opens them (loadBoardFile() reads the file, then parseBoard()).
// BoardError is the documented rejection. What opens is also saved again (writeBoard) and read
// back, as a board opened in the explorer and saved travels back to radT: that must open, and
// saving it once more must give the same text.

#include "FuzzSupport.h"
#include "core/board/BoardFile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = radt::fuzz::asText(data, size);
    std::vector<radt::BoardProblem> problems;
    radt::Board board;
    try {
        board = radt::parseBoard(text, "fuzz.json", problems);
    } catch (const radt::BoardError&) {
        return 0; // documented: names the file and what is wrong
    }
    RADT_FUZZ_CHECK(!board.charts.empty(), std::string(text));
    for (const radt::BoardProblem& p : problems)
        RADT_FUZZ_CHECK(!p.message.empty() && p.message.find('\n') == std::string::npos, p.message);

    const std::string saved = radt::writeBoard(board);
    std::vector<radt::BoardProblem> again;
    radt::Board reread;
    try {
        reread = radt::parseBoard(saved, "saved.json", again);
    } catch (const radt::BoardError& e) {
        radt::fuzz::fail("a saved board does not open", std::string(e.what()) + "\nsaved: " + saved);
    }
    RADT_FUZZ_CHECK(reread.charts.size() == board.charts.size(), saved);
    const std::string savedAgain = radt::writeBoard(reread);
    RADT_FUZZ_CHECK(savedAgain == saved, "first save:\n" + saved + "\nsecond save:\n" + savedAgain);
    return 0;
}
