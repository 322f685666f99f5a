// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/LineColours.h"

#include <algorithm>
#include <array>

namespace radt {

size_t LineColours::slotOf(const QString& key) {
    if (auto it = m_slotOf.find(key); it != m_slotOf.end())
        return it->second;
    std::array<size_t, kSlots> holders{};
    for (const auto& [other, slot] : m_slotOf)
        ++holders[slot];
    const size_t slot = size_t(std::min_element(holders.begin(), holders.end()) - holders.begin());
    m_slotOf.emplace(key, slot);
    return slot;
}

void LineColours::keepOnly(const std::function<bool(const QString& key)>& keep) {
    for (auto it = m_slotOf.begin(); it != m_slotOf.end();)
        it = keep(it->first) ? std::next(it) : m_slotOf.erase(it);
}

} // namespace radt
