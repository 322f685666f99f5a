// SPDX-License-Identifier: MIT
#include "widgets/common/TableLayout.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace radt {

namespace {

/// The overlay over a table's first column. It shares the base's model and selection model, so
/// a click on it selects the row in the base, and a sort from either header sorts both.
class FrozenColumnView : public QTableView {
public:
    explicit FrozenColumnView(QTableView* base) : QTableView(base), m_base(base) {
        setObjectName(base->objectName() + QStringLiteral("Frozen"));
        // The base's sort indicator first: enabling sorting sorts by the indicator's column, and
        // a fresh header's is column 0, which would reorder the shared model.
        horizontalHeader()->setSortIndicator(base->horizontalHeader()->sortIndicatorSection(),
                                             base->horizontalHeader()->sortIndicatorOrder());
        QItemSelectionModel* own = nullptr;
        setModel(base->model());
        own = selectionModel();
        setSelectionModel(base->selectionModel());
        delete own; // setSelectionModel never deletes the one setModel made
        setFocusPolicy(Qt::NoFocus);
        setFrameShape(QFrame::NoFrame);
        verticalHeader()->setVisible(base->verticalHeader()->isVisible());
        verticalHeader()->setDefaultSectionSize(base->verticalHeader()->defaultSectionSize());
        horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        base->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        setSelectionBehavior(base->selectionBehavior());
        setSelectionMode(base->selectionMode());
        setTextElideMode(base->textElideMode());
        setWordWrap(base->wordWrap());
        setSortingEnabled(base->isSortingEnabled());
        base->viewport()->stackUnder(this);
        base->installEventFilter(this);

        QAbstractItemModel* model = base->model();
        connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnView::follow);
        connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnView::follow);
        connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnView::follow);
        connect(model, &QAbstractItemModel::rowsInserted, this,
                [this](const QModelIndex&, int first, int last) {
                    for (int r = first; r <= last; ++r) // only the new rows: a fill of 10,000 stays linear
                        if (rowHeight(r) != m_base->rowHeight(r))
                            setRowHeight(r, m_base->rowHeight(r));
                });
        connect(base->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int) {
            if (column == 0)
                follow();
        });
        connect(base->horizontalHeader(), &QHeaderView::geometriesChanged, this, &FrozenColumnView::place);
        connect(base->verticalHeader(), &QHeaderView::sectionResized, this,
                [this](int row, int, int height) { setRowHeight(row, height); });
        connect(verticalScrollBar(), &QScrollBar::valueChanged, base->verticalScrollBar(),
                &QScrollBar::setValue);
        connect(base->verticalScrollBar(), &QScrollBar::valueChanged, verticalScrollBar(),
                &QScrollBar::setValue);
        connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, base->horizontalHeader(),
                &QHeaderView::setSortIndicator);
        connect(base->horizontalHeader(), &QHeaderView::sortIndicatorChanged, horizontalHeader(),
                &QHeaderView::setSortIndicator);
        follow();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_base && (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
                                  event->type() == QEvent::LayoutRequest))
            place();
        return QTableView::eventFilter(watched, event);
    }

private:
    /// Only column 0, as wide and as high in its rows as the base's; then placed over it.
    void follow() {
        for (int c = 1; c < model()->columnCount(); ++c)
            setColumnHidden(c, true);
        setColumnHidden(0, m_base->isColumnHidden(0));
        setColumnWidth(0, m_base->columnWidth(0));
        horizontalHeader()->setFixedHeight(m_base->horizontalHeader()->height());
        for (int r = 0; r < model()->rowCount(); ++r)
            if (rowHeight(r) != m_base->rowHeight(r))
                setRowHeight(r, m_base->rowHeight(r));
        place();
    }

    void place() {
        // resizeColumnsToContents resizes without sectionResized: the width is taken here too.
        if (columnWidth(0) != m_base->columnWidth(0))
            setColumnWidth(0, m_base->columnWidth(0));
        const int frame = m_base->frameWidth();
        const int left =
            frame + (m_base->verticalHeader()->isVisible() ? m_base->verticalHeader()->width() : 0);
        horizontalHeader()->setFixedHeight(m_base->horizontalHeader()->height());
        setGeometry(left, frame, m_base->columnWidth(0),
                    m_base->viewport()->height() + m_base->horizontalHeader()->height());
        verticalScrollBar()->setValue(m_base->verticalScrollBar()->value());
        setVisible(m_base->model()->columnCount() > 1); // nothing scrolls under a lone column
    }

    QTableView* m_base;
};

QString settingsKey(const QString& table, const QString& header) {
    // A header's "/" would start a QSettings group.
    return QStringLiteral("columns/%1/%2").arg(table, QString::fromLatin1(QUrl::toPercentEncoding(header)));
}

/// Whether column `c` has nothing to read: every cell blank or "–".
bool blankColumn(const QAbstractItemModel* model, int c) {
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString text = model->index(r, c).data().toString();
        if (!text.isEmpty() && text != QStringLiteral("–"))
            return false;
    }
    return true;
}

void applyColumnChoices(QTableView* view, const QString& table, const QStringList& hiddenByDefault) {
    const QAbstractItemModel* model = view->model();
    QSettings settings;
    for (int c = 1; c < model->columnCount(); ++c) {
        const QString header = model->headerData(c, Qt::Horizontal).toString();
        const QVariant chosen = settings.value(settingsKey(table, header));
        const bool shown = chosen.isValid() ? chosen.toBool()
                                            : !hiddenByDefault.contains(header) &&
                                                  (model->rowCount() == 0 || !blankColumn(model, c));
        view->setColumnHidden(c, !shown);
    }
}

} // namespace

QTableView* freezeFirstColumn(QTableView* view) {
    return new FrozenColumnView(view);
}

void installColumnChooser(QTableView* view, const std::function<QString()>& tableOf,
                          const std::function<QStringList()>& hiddenByDefault) {
    QHeaderView* header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(
        header, &QHeaderView::customContextMenuRequested, view, [view, header, tableOf](const QPoint& at) {
            const QString table = tableOf();
            QMenu menu(view);
            menu.setObjectName(QStringLiteral("columnChooser"));
            QAbstractItemModel* model = view->model();
            for (int c = 1; c < model->columnCount(); ++c) {
                const QString name = model->headerData(c, Qt::Horizontal).toString();
                QAction* action = menu.addAction(name);
                action->setCheckable(true);
                action->setChecked(!view->isColumnHidden(c));
                QObject::connect(action, &QAction::toggled, view, [view, table, name, c](bool on) {
                    QSettings().setValue(settingsKey(table, name), on);
                    view->setColumnHidden(c, !on);
                    if (on && view->columnWidth(c) < 20)
                        view->resizeColumnToContents(c);
                });
            }
            menu.exec(header->mapToGlobal(at));
        });
    // Once per refill, after its rows: whether a column is blank needs them.
    auto* again = new QTimer(view);
    again->setSingleShot(true);
    again->setInterval(0);
    QObject::connect(again, &QTimer::timeout, view, [view, tableOf, hiddenByDefault] {
        applyColumnChoices(view, tableOf(), hiddenByDefault());
    });
    QAbstractItemModel* model = view->model();
    QObject::connect(model, &QAbstractItemModel::modelReset, again, qOverload<>(&QTimer::start));
    QObject::connect(model, &QAbstractItemModel::rowsInserted, again, qOverload<>(&QTimer::start));
    QObject::connect(model, &QAbstractItemModel::columnsInserted, again, qOverload<>(&QTimer::start));
    QObject::connect(model, &QAbstractItemModel::headerDataChanged, again, qOverload<>(&QTimer::start));
    applyColumnChoices(view, tableOf(), hiddenByDefault());
}

void installColumnChooser(QTableView* view, const QString& table, const QStringList& hiddenByDefault) {
    installColumnChooser(
        view, [table] { return table; }, [hiddenByDefault] { return hiddenByDefault; });
}

int widthToShowAllColumns(const QTableView* view) {
    int width = 2 * view->frameWidth();
    if (view->verticalHeader()->isVisible())
        width += view->verticalHeader()->width();
    for (int c = 0; c < view->model()->columnCount(); ++c)
        if (!view->isColumnHidden(c))
            width += view->columnWidth(c);
    if (view->verticalScrollBar()->isVisible())
        width += view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view);
    return width;
}

int sharedPrefixLength(const QStringList& names) {
    int prefix = names.size() > 1 ? int(names.front().size()) : 0;
    for (const QString& name : names) {
        int same = 0;
        while (same < prefix && same < name.size() && name[same] == names.front()[same])
            ++same;
        prefix = same;
    }
    return prefix;
}

QStringList elideInCommonPrefix(const QStringList& names, const QFontMetrics& metrics, int width) {
    const int prefix = sharedPrefixLength(names);
    const QString dots = QStringLiteral("…");
    QStringList out;
    for (const QString& name : names) {
        if (metrics.horizontalAdvance(name) <= width) {
            out << name;
            continue;
        }
        const QString shared = name.left(prefix), own = name.mid(prefix);
        QString shortened;
        for (int keep = int(shared.size()) - 1; keep >= 0 && shortened.isEmpty(); --keep) {
            const QString candidate = shared.left((keep + 1) / 2) + dots + shared.right(keep / 2) + own;
            if (metrics.horizontalAdvance(candidate) <= width)
                shortened = candidate;
        }
        if (shortened.isEmpty()) // even without the shared part it is too long: its own middle goes
            shortened = (prefix > 0 ? dots : QString()) +
                        metrics.elidedText(own, Qt::ElideMiddle,
                                           width - (prefix > 0 ? metrics.horizontalAdvance(dots) : 0));
        out << shortened;
    }
    return out;
}

} // namespace radt
