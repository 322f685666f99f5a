#pragma once
// Case-insensitive text filter over the run tree: a row stays when it, one of its ancestors
// or one of its descendants matches.

#include <QSortFilterProxyModel>

namespace radt {

class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    /// The text looked for in the name, status, letter and params columns.
    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool rowMatches(int sourceRow, const QModelIndex& sourceParent) const;

    QString m_text;
};

} // namespace radt
