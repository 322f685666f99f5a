// SPDX-License-Identifier: MIT
#pragma once
// Which palette colour each run or merged workload has, shared by every chart of the board: a
// run is one colour in all of them (its power, its loss, its memory), however each chart came to
// meet it. A key keeps its colour while it lives; a new one gets the least used colour.

#include <QString>

#include <functional>
#include <map>

namespace radt {

class LineColours {
public:
    /// Colours to choose from; a slot is an index into the chart palette.
    static constexpr size_t kSlots = 10;

    /// The slot of a line's key ("run:<uuid>" or "workload:<key>"): the one it got first, else
    /// the slot fewest other keys hold (the lowest of those).
    size_t slotOf(const QString& key);
    /// Forgets every key `keep` rejects: its slot is free for the next new line.
    void keepOnly(const std::function<bool(const QString& key)>& keep);
    size_t size() const { return m_slotOf.size(); }

private:
    std::map<QString, size_t> m_slotOf;
};

} // namespace radt
