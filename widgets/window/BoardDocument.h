// SPDX-License-Identifier: MIT
#pragma once
// The board as a document (resources/DESIGN.md §9): opened from and saved to radT's board files
// (File > Open Board, Save Board, Save As, a board dropped on the window), asked about before an
// edited board is replaced, exported (a chart as PNG/JPG/SVG/PDF/CSV/JSON, the board as one PDF),
// and kept as the session the next start restores.

#include "core/board/BoardFile.h"
#include "widgets/window/WindowParts.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <string>

class QSettings;

class QMainWindow;

namespace radt {

class ChartPanel;

class BoardDocument : public QObject {
    Q_OBJECT
public:
    BoardDocument(QMainWindow& window, WindowActions& actions, const WindowParts& parts);

    /// Replaces the board's charts by a board file's: each chart with its runs and points from the
    /// file, its series rules, smoothing and range; the file's runs the store holds become the
    /// basket. Problems in the file that did not stop it opening are listed in *problems. False
    /// with *error when nothing opened.
    bool openBoard(const QString& path, QStringList* problems = nullptr, QString* error = nullptr);
    /// openBoard after asking about an edited board, with dialogs: an error, or what was skipped.
    bool openBoardInteractive(const QString& path);
    /// Writes every chart in radT's board format plus the explorer's own keys. Throws BoardError.
    void saveBoard(const QString& path) const;
    /// The board as radT's format holds it (what saveBoard writes).
    Board currentBoard() const;
    /// File > Save Board: to the file the charts came from (or were last saved to), else Save As.
    void save();
    /// File > Save Board As: asks where.
    void saveAs();
    /// The charts changed: they no longer are the file they came from.
    void forgetFile() { m_file.clear(); }

    /// The chart an export acts on: the current chart if in view, the only chart in view, or
    /// the one the user picks; null when the user cancels.
    ChartPanel* chartToExport();
    /// File > Export > a format: the chart to export, its scale, where, with progress.
    void exportChart(const QString& format);
    /// File > Export > Board as PDF.
    void exportBoardPdf();

    /// The session: the store, the basket and each chart's metric and settings (charts opened
    /// from a board file remember that file). Written on close when "Restore last session" is on.
    void saveSession(QSettings& settings) const;
    /// Restores a saved session if it was saved for the store now open; returns whether it did.
    bool restoreSession(QSettings& settings);
    /// Settings > Restore last session (on by default).
    static bool sessionRestoreEnabled(QSettings& settings);

signals:
    /// A board file's charts replaced the board's (the summary follows them).
    void opened();

private:
    bool saveTo(const QString& path);
    /// What the board shows, for telling an edited board from the one last opened or saved:
    /// each chart's metric, runs, options and zoom (not its points).
    std::string fingerprint() const;
    /// Before the board is replaced: asks to save, discard or cancel when it has charts that no
    /// board file holds as they are. False when the user cancels (or a save failed).
    bool confirmReplacing();

    QMainWindow& m_window;
    WindowActions& m_actions;
    const WindowParts& m_ui;
    QString m_file;      ///< the board file the charts came from, if they did
    std::string m_saved; ///< fingerprint() when the board was last opened or saved
};

} // namespace radt
