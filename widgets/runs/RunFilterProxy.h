// SPDX-License-Identifier: MIT
#pragma once
// Case-insensitive text filter over the run tree: a row stays when it, one of its ancestors
// or one of its descendants matches. `tag:KEY`, `tag:KEY=VALUE` and `note:TEXT` look in runs'
// tags and notes (MLflow's mlflow.note.content) instead; a search in MLflow's syntax
// (`params.batch_size = '64'`) keeps the runs the store's search found (RunTreePane asks it).

#include <QSet>
#include <QSortFilterProxyModel>

#include <optional>

namespace radt {

class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    /// The text looked for in the name, status, letter and params columns; `tag:KEY[=VALUE]` for
    /// runs with a tag whose key (and value) contains those, `note:TEXT` for runs whose note does.
    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }
    /// A search's answer: only these runs (and their experiments and workloads) stay.
    void setSearchMatches(const QString& expression, const QSet<QString>& runUuids);
    /// Whether `text` is a search in MLflow's syntax: it starts with `params.`, `metrics.`,
    /// `tags.` or `attributes.` (or their singular and short forms).
    static bool isSearchExpression(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool rowMatches(int sourceRow, const QModelIndex& sourceParent) const;
    /// For `tag:` and `note:` filters: whether the run of this source row has such a tag or note.
    bool runTagsMatch(int sourceRow, const QModelIndex& sourceParent) const;

    QString m_text;
    std::optional<QSet<QString>> m_searchUuids; ///< set while the text is a search
};

} // namespace radt
