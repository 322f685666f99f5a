// SPDX-License-Identifier: MIT
#include "widgets/details/RunDetailsPanel.h"

#include "core/base/TextFormat.h"
#include "widgets/common/Formatting.h"
#include "widgets/details/ArtifactsPane.h"
#include "widgets/details/KeyValueTable.h"
#include "widgets/details/RunHistoryPane.h"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include <vector>

namespace radt {

namespace {

QString tagOr(const Run& run, const char* key, const QString& otherwise = QString()) {
    const auto it = run.tags.find(key);
    return it == run.tags.end() || it->second.empty() ? otherwise : toQString(it->second);
}

/// The command radt ran (the script and its arguments), else what MLflow recorded as the source.
QString commandLine(const Run& run) {
    const std::string model = run.param("model"), args = run.param("params");
    if (!model.empty())
        return toQString(args.empty() ? model : model + " " + args);
    return tagOr(run, "mlflow.source.name");
}

QString hostLine(const Run& run) {
    QString host = tagOr(run, "radt.host.name", RunDetailsPanel::tr("(not recorded)"));
    QStringList more;
    if (const QString cpu = tagOr(run, "radt.host.cpu"); !cpu.isEmpty())
        more << cpu;
    if (const QString cores = tagOr(run, "radt.host.cores"); !cores.isEmpty())
        more << RunDetailsPanel::tr("%1 cores").arg(cores);
    if (const QString memory = tagOr(run, "radt.host.memory_gib"); !memory.isEmpty())
        more << RunDetailsPanel::tr("%1 GiB").arg(memory);
    return more.isEmpty() ? host
                          : host + QStringLiteral(" (") + more.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace

RunDetailsPanel::RunDetailsPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_overview(new KeyValueTable({tr("Field"), tr("Value")}, this)),
      m_params(new KeyValueTable({tr("Kind"), tr("Key"), tr("Value")}, this)),
      m_metrics(new KeyValueTable({tr("Metric"), tr("Latest value"), tr("Step"), tr("Time")}, this)),
      m_metricsNote(new QLabel(this)), m_artifacts(new ArtifactsPane(this)),
      m_history(new RunHistoryPane(this)) {
    setObjectName(QStringLiteral("runDetails"));
    m_title->setObjectName(QStringLiteral("runDetailsTitle"));
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_overview->setObjectName(QStringLiteral("runOverview"));
    m_params->setObjectName(QStringLiteral("runParamsAndTags"));
    m_metrics->setObjectName(QStringLiteral("runLatestMetrics"));
    m_metricsNote->setWordWrap(true);
    auto* metricsPage = new QWidget(this);
    auto* metricsLayout = new QVBoxLayout(metricsPage);
    metricsLayout->setContentsMargins(0, 0, 0, 0);
    metricsLayout->addWidget(m_metricsNote);
    metricsLayout->addWidget(m_metrics, 1);
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_params, tr("&Params && Tags"));
    m_tabs->addTab(metricsPage, tr("&Metrics"));
    m_tabs->addTab(m_artifacts, tr("&Artifacts"));
    m_tabs->addTab(m_history, tr("&History"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_tabs, 1);
    clear(tr("Choose a run in the tree or the basket (Enter, or Details in its menu)."));
}

void RunDetailsPanel::clear(const QString& message) {
    m_uuid.clear();
    m_artifactUri.clear();
    m_title->setText(message);
    m_overview->setRows({});
    m_params->setRows({});
    m_metrics->setRows({});
    m_metricsNote->setText(message);
    m_artifacts->clear(message);
    m_history->setMessage(message);
}

void RunDetailsPanel::showRun(const Run& run, const RunDetailsContext& context, int64_t nowMs) {
    const bool sameRun = m_uuid == toQString(run.uuid);
    m_uuid = toQString(run.uuid);
    m_title->setText(QStringLiteral("%1  <span style='font-weight: normal; color: gray'>%2</span>")
                         .arg(toQString(run.name.empty() ? run.uuid : run.name).toHtmlEscaped(), m_uuid));
    fillOverview(run, context, nowMs);
    fillParamsAndTags(run);
    if (!sameRun) {
        m_metrics->setRows({});
        m_metricsNote->setText(tr("Reading the latest values…"));
    }
    if (!sameRun || m_artifactUri != run.artifactUri) {
        m_artifactUri = run.artifactUri;
        ArtifactContext artifacts;
        artifacts.runHost = tagOr(run, "radt.host.name").toStdString();
        artifacts.thisHost = context.thisHost.toStdString();
        artifacts.storeOnServer = context.storeOnServer;
        artifacts.relativeBase = context.relativeBase.toStdString();
        m_artifacts->showArtifacts(run.artifactUri, artifacts);
    }
}

void RunDetailsPanel::fillOverview(const Run& run, const RunDetailsContext& context, int64_t nowMs) {
    std::vector<QStringList> rows;
    auto add = [&rows](const QString& field, const QString& value) {
        if (!value.isEmpty())
            rows.push_back({field, value});
    };
    add(tr("Name"), toQString(run.name));
    add(tr("Run ID"), toQString(run.uuid));
    add(tr("Experiment"), QStringLiteral("%1 (%2)").arg(context.experimentName).arg(run.experimentId));
    add(tr("Status"), QString::fromLatin1(toString(run.status)));
    add(tr("Started"), toQString(formatLocalTime(run.startTime)));
    add(tr("Ended"), run.endTime ? toQString(formatLocalTime(*run.endTime)) : tr("(not ended)"));
    add(tr("Duration"),
        toQString(formatDuration(run.durationMs(nowMs))) + (run.endTime ? QString() : tr(" so far")));
    add(tr("Judged"), tagOr(run, kRunJudgementTag)); // as radt judged it when it finished: History has now
    add(tr("Host"), hostLine(run));
    add(tr("Command line"), commandLine(run));
    add(tr("Devices"), toQString(run.param("devices")));
    add(tr("Collocation"), toQString(run.param("collocation")));
    if (!run.workload().empty())
        add(tr("Workload"), tr("%1, letter %2").arg(toQString(run.workload()), toQString(run.letter())));
    add(tr("Listeners"), toQString(run.param("listeners")));
    add(tr("User"), tagOr(run, "mlflow.user"));
    add(tr("Parent run"), tagOr(run, "mlflow.parentRunId"));
    add(tr("Failure"), tagOr(run, "radt.failure"));
    add(tr("Note"), tagOr(run, kRunNoteTag));
    add(tr("Artifact location"),
        run.artifactUri.empty() ? tr("(none recorded)") : toQString(run.artifactUri));
    m_overview->setRows(rows);
}

void RunDetailsPanel::fillParamsAndTags(const Run& run) {
    std::vector<QStringList> rows;
    for (const auto& [key, value] : run.params)
        rows.push_back({tr("param"), toQString(key), toQString(value)});
    for (const auto& [key, value] : run.tags)
        rows.push_back({tr("tag"), toQString(key), toQString(value)});
    m_params->setRows(rows);
}

void RunDetailsPanel::setLatestMetrics(const std::map<std::string, LatestMetric>& latest) {
    std::vector<QStringList> rows;
    rows.reserve(latest.size());
    for (const auto& [key, metric] : latest)
        rows.push_back({toQString(key), toQString(formatReading(metric.value)), QString::number(metric.step),
                        toQString(formatLocalTime(metric.timestamp))});
    m_metrics->setRows(rows);
    m_metricsNote->setText(latest.empty()
                               ? tr("This run has logged no metric.")
                               : tr("%1 metrics: each one's latest value, step and time").arg(latest.size()));
}

void RunDetailsPanel::setLatestMetricsError(const QString& error) {
    m_metrics->setRows({});
    m_metricsNote->setText(tr("The latest values could not be read: %1").arg(error));
}

QString RunDetailsPanel::field(const QString& name) const {
    const QStringList names = m_overview->columnTexts(0);
    const int row = names.indexOf(name);
    return row < 0 ? QString() : m_overview->columnTexts(1).at(row);
}

} // namespace radt
