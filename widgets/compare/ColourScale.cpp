// SPDX-License-Identifier: MIT
#include "widgets/compare/ColourScale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace radt {

namespace {

// Matplotlib's viridis at 9 even stops: ordered in lightness, readable by the colour blind.
constexpr std::array<std::array<int, 3>, 9> kViridis = {{{68, 1, 84},
                                                         {71, 44, 122},
                                                         {59, 81, 139},
                                                         {44, 113, 142},
                                                         {33, 144, 141},
                                                         {39, 173, 129},
                                                         {92, 200, 99},
                                                         {170, 220, 50},
                                                         {253, 231, 37}}};

// Tableau 10.
constexpr std::array<QRgb, 10> kQualitative = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                               0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

} // namespace

ColourScale::ColourScale(const CompareColumn& column, bool log)
    : m_valid(column.present() > 0), m_scale(column, log, 0, 1),
      // In the unit its ticks are written in: "GPU energy (kJ)" over "4 kJ", not "(J)" over them.
      m_title(m_scale.tickUnit().isEmpty() || m_scale.isCategorical()
                  ? column.header()
                  : QStringLiteral("%1 (%2)").arg(column.title, m_scale.tickUnit())) {}

QColor ColourScale::sequential(double fraction) {
    const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0) * (kViridis.size() - 1);
    const size_t i = std::min(size_t(f), kViridis.size() - 2);
    const double t = f - double(i);
    const auto mix = [&](int c) {
        return int(std::lround(kViridis[i][c] * (1 - t) + kViridis[i + 1][c] * t));
    };
    return QColor(mix(0), mix(1), mix(2));
}

QColor ColourScale::qualitative(int i) {
    return QColor(QRgb(kQualitative[size_t(std::abs(i)) % kQualitative.size()]));
}

QColor ColourScale::colourOf(double value) const {
    if (!m_valid || !std::isfinite(value))
        return missing();
    if (m_scale.isCategorical())
        return qualitative(int(value));
    const double f = m_scale.toPixel(value);
    return std::isfinite(f) ? sequential(f) : missing();
}

std::vector<std::pair<double, QString>> ColourScale::legend() const {
    std::vector<std::pair<double, QString>> out;
    if (!m_valid)
        return out;
    const std::vector<ScaleTick> ticks = m_scale.ticks(4);
    for (size_t i = 0; i < ticks.size(); ++i) {
        const double f = m_scale.isCategorical()
                             ? (ticks.size() > 1 ? double(i) / double(ticks.size() - 1) : 0.5)
                             : m_scale.toPixel(ticks[i].value);
        QString label = ticks[i].label;
        if (!m_scale.tickUnit().isEmpty() && !m_scale.isCategorical())
            label += QLatin1Char(' ') + m_scale.tickUnit();
        out.emplace_back(f, label);
    }
    return out;
}

} // namespace radt
