// SPDX-License-Identifier: MIT
#pragma once
// The window's open store and the reads that follow it, without any widget: opening a store (at
// once, or on the loader's thread while the window goes on), rereading its run tree, and reading
// the basket runs' metric keys. It keeps the sequencing those reads need (only the newest open
// lands; a read of an earlier store lands nowhere; one tree reread at a time with at most one
// more after it; only the newest key read lands) and says what landed with typed signals. The
// window only shows what it is told. Tests drive it directly.

#include "core/store/Store.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace radt {

class ChartLoader;

class StoreSession : public QObject {
    Q_OBJECT
public:
    explicit StoreSession(QObject* parent = nullptr);
    ~StoreSession() override;

    /// The thread every read of the open store runs on (charts, summaries, the tree, keys).
    ChartLoader* loader() const { return m_loader; }
    /// --read-only: stores are opened without any write (no read index, no orphan fixes).
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    bool readOnly() const { return m_readOnly; }
    /// Tree rereads bring the store's deleted runs too (Run::deleted), to be restored.
    void setShowDeleted(bool show) { m_showDeleted = show; }
    bool showDeleted() const { return m_showDeleted; }
    bool isOpen() const { return m_store != nullptr; }
    /// Why the open store takes no writes, as a sentence ("" when it does, or none is open):
    /// --read-only, a PostgreSQL role that may only read, a standby, a file this user cannot write.
    QString whyReadOnly() const;
    /// The URI the store was opened with ("" when none is open).
    const QString& uri() const { return m_uri; }
    /// The open store's URI with any password masked; "" when none is open.
    QString displayUri() const;
    /// Experiment id -> name, as of the last open or tree read.
    const std::map<int64_t, QString>& experimentNames() const { return m_experimentNames; }

    /// Opens and reads the store on this thread: storeOpened, then true; or false with the reason
    /// in *error and the store open before still open.
    bool open(const QString& uri, QString* error = nullptr, OpenMode mode = OpenMode::OpenExisting);
    /// Opens and reads it on the loader's thread (a server may take seconds to answer): storeOpened
    /// or openFailed when it lands, then `landed(opened)`. A newer open replaces one under way.
    void openInBackground(const QString& uri, OpenMode mode = OpenMode::OpenExisting,
                          std::function<void(bool opened)> landed = {});
    /// Rereads the tree on the loader's thread: treeReady or treeFailed, then `then`. One asked
    /// while another is under way becomes one more after it (what waits, waits for that one).
    void rereadTree(bool userAsked, std::function<void()> then = {});
    /// Reads the metric keys of these runs on the loader's thread: keysReady (at once for none)
    /// or keysFailed. Only the newest read lands.
    void readMetricKeys(const std::vector<Run>& runs);
    /// A key read is under way: the keys shown may be about to change.
    bool keysPending() const { return m_keysPending; }

signals:
    /// A background open started (the window says so and shows it is busy).
    void opening(const QString& uri);
    /// A store is open and read: what the window shows from now on.
    void storeOpened(const QString& uri, const std::vector<Experiment>& experiments,
                     const std::vector<Run>& runs);
    /// Opening changed a store another tool may own (the read index); said once.
    void openNotice(const QString& notice);
    /// A background open failed: the store open before (if any) stays open.
    void openFailed(const QString& uri, const QString& error);
    void treeReady(const std::vector<Experiment>& experiments, const std::vector<Run>& runs, bool userAsked);
    void treeFailed(const QString& error, bool userAsked);
    void keysReady(const std::vector<std::string>& keys);
    /// The keys could not be read: the list shown stays as it was.
    void keysFailed(const QString& error);

private:
    struct OpenedStore;
    /// Opens and reads a store (any thread); throws StoreError. Orphans reconciled unless read-only.
    static OpenedStore openAndRead(const std::string& uri, OpenMode mode);
    OpenMode effectiveMode(OpenMode mode) const;
    void adopt(const QString& uri, OpenedStore opened);
    void setExperimentNames(const std::vector<Experiment>& experiments);

    ChartLoader* m_loader = nullptr;
    std::unique_ptr<Store> m_store;
    QString m_uri;
    bool m_readOnly = false;
    bool m_showDeleted = false;
    std::map<int64_t, QString> m_experimentNames;
    uint64_t m_openGeneration = 0; ///< the newest open: only it lands
    int m_storeEpoch = 0;          ///< counts stores opened: a read of an earlier one lands nowhere
    bool m_treeReading = false;    ///< a tree reread is under way
    bool m_treeAgain = false;      ///< and another was asked meanwhile
    bool m_treeAgainAsked = false; ///< by the user (its failure gets a dialog)
    std::vector<std::function<void()>> m_afterTree; ///< to run once the newest reread landed
    uint64_t m_keysGeneration = 0;                  ///< the newest key read: only it lands
    bool m_keysPending = false;
};

} // namespace radt
