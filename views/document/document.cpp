#include "document/document.h"

#include "io/scenario_json.h"
#include "model/node_labels.h"

#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>

namespace cb::views {

Document::Document(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

Document::~Document() = default;

QString Document::displayName() const
{
    return m_filePath.isEmpty() ? tr("Untitled") : QFileInfo(m_filePath).fileName();
}

bool Document::isModified() const
{
    return !m_undoStack->isClean();
}

void Document::setScenario(Scenario scenario, const QString &filePath)
{
    emit scenarioAboutToBeReplaced();
    m_scenario = std::move(scenario);
    m_undoStack->clear();
    m_undoStack->setClean();
    const bool pathChanged = m_filePath != filePath;
    m_filePath = filePath;
    emit scenarioReplaced();
    emit documentReplaced();
    if (pathChanged)
        emit filePathChanged(m_filePath);
    emit modifiedChanged(false);
}

void Document::replaceContent(Scenario scenario)
{
    emit scenarioAboutToBeReplaced();
    m_scenario = std::move(scenario);
    emit scenarioReplaced();
}

Status Document::load(const QString &path)
{
    Result<Scenario> loaded = loadScenarioFile(path.toStdString());
    if (!loaded)
        return Status(loaded.problems());
    setScenario(std::move(loaded).value(), QFileInfo(path).absoluteFilePath());
    return Ok{};
}

Status Document::save(const QString &path)
{
    const QString target = path.isEmpty() ? m_filePath : path;
    if (target.isEmpty())
        return Status::failure({}, "no file name to save to");
    const bool untitled = m_scenario.name == "Untitled";
    if (untitled)
        m_scenario.name = QFileInfo(target).completeBaseName().toStdString();
    Status saved = saveScenarioFile(target.toStdString(), m_scenario);
    if (!saved) {
        if (untitled)
            m_scenario.name = "Untitled"; // (nothing changed)
        return saved;
    }
    if (untitled)
        emit scenarioRenamed();
    const QString absolute = QFileInfo(target).absoluteFilePath();
    if (absolute != m_filePath) {
        m_filePath = absolute;
        emit filePathChanged(m_filePath);
    }
    m_undoStack->setClean();
    return saved;
}

template<typename T>
void Document::insertRow(Part part, std::vector<T> &rows, int index, T value)
{
    emit rowAboutToBeInserted(part, index);
    rows.insert(rows.begin() + index, std::move(value));
    emit rowInserted(part, index);
}

template<typename T>
T Document::removeRow(Part part, std::vector<T> &rows, int index)
{
    emit rowAboutToBeRemoved(part, index);
    T value = std::move(rows[std::size_t(index)]);
    rows.erase(rows.begin() + index);
    emit rowRemoved(part, index);
    return value;
}

void Document::insertNode(int index, Node node)
{
    insertRow(Part::Nodes, m_scenario.cluster.nodes, index, std::move(node));
}

Node Document::removeNode(int index)
{
    return removeRow(Part::Nodes, m_scenario.cluster.nodes, index);
}

void Document::replaceNode(int index, Node node)
{
    Node &slot = m_scenario.cluster.nodes[std::size_t(index)];
    const std::string oldId = slot.id;
    const std::string newId = node.id;
    slot = std::move(node);
    // The links first, so that the node's signal finds its links under its new name (a tree
    // grouping nodes by their switch put a renamed node under no switch).
    renameLinkEndpoints(oldId, newId);
    emit rowChanged(Part::Nodes, index);
}

void Document::setGpuTypes(std::vector<GpuType> types)
{
    m_scenario.cluster.gpuTypes = std::move(types);
}

void Document::insertSwitch(int index, Switch sw)
{
    insertRow(Part::Switches, m_scenario.cluster.switches, index, std::move(sw));
}

Switch Document::removeSwitch(int index)
{
    return removeRow(Part::Switches, m_scenario.cluster.switches, index);
}

void Document::replaceSwitch(int index, Switch sw)
{
    Switch &slot = m_scenario.cluster.switches[std::size_t(index)];
    const std::string oldId = slot.id;
    const std::string newId = sw.id;
    slot = std::move(sw);
    renameLinkEndpoints(oldId, newId); // (first: see replaceNode)
    emit rowChanged(Part::Switches, index);
}

void Document::renameLinkEndpoints(const std::string &oldId, const std::string &newId)
{
    if (oldId == newId)
        return;
    // Every link first, then the signals: a view reading the cluster at a signal sees no link
    // still naming the old id.
    auto &links = m_scenario.cluster.links;
    std::vector<int> touched;
    for (std::size_t i = 0; i < links.size(); ++i) {
        const bool a = links[i].a == oldId, b = links[i].b == oldId;
        if (a)
            links[i].a = newId;
        if (b)
            links[i].b = newId;
        if (a || b)
            touched.push_back(int(i));
    }
    for (int i : touched)
        emit rowChanged(Part::Links, i);
}

void Document::insertLink(int index, Link link)
{
    insertRow(Part::Links, m_scenario.cluster.links, index, std::move(link));
}

Link Document::removeLink(int index)
{
    return removeRow(Part::Links, m_scenario.cluster.links, index);
}

void Document::replaceLink(int index, Link link)
{
    m_scenario.cluster.links[std::size_t(index)] = std::move(link);
    emit rowChanged(Part::Links, index);
}

void Document::insertJob(int index, Job job)
{
    insertRow(Part::Jobs, m_scenario.jobs, index, std::move(job));
}

Job Document::removeJob(int index)
{
    return removeRow(Part::Jobs, m_scenario.jobs, index);
}

void Document::replaceJob(int index, Job job)
{
    m_scenario.jobs[std::size_t(index)] = std::move(job);
    emit rowChanged(Part::Jobs, index);
}

std::vector<int> Document::linksOf(const std::string &id) const
{
    std::vector<int> out;
    const auto &links = m_scenario.cluster.links;
    for (std::size_t i = 0; i < links.size(); ++i)
        if (links[i].a == id || links[i].b == id)
            out.push_back(int(i));
    return out;
}

std::string Document::uniqueNodeId(const std::string &base) const
{
    const Cluster &c = m_scenario.cluster;
    // The next number of the base ("node-31" -> "node-32"), never "node-31-2-2".
    return nextFreeId(base, [&c](const std::string &id) {
        return c.node(id) != nullptr ||
               std::any_of(c.switches.begin(), c.switches.end(),
                           [&id](const Switch &s) { return s.id == id; });
    });
}

std::string Document::uniqueJobId(const std::string &base) const
{
    return nextFreeId(base, [this](const std::string &id) { return m_scenario.job(id) != nullptr; });
}

} // namespace cb::views
