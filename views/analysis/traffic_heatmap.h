#pragma once
// Traffic heatmaps of a run (QCPColorMap with a QCPColorScale):
//  - Decision: node x node bytes per iteration of the tasks placed up to the stepper's
//    cursor (the DecisionReplay's matrix; a move rewrites only the cells it changed);
//  - Bucket / Cumulative (simulated runs): node x node bytes moved in the time bucket at
//    the scrubber, or from the start up to the end of that bucket (RunSeries::pairBytes);
//  - Links: directed links (rows, only those that carry bytes) over time buckets, as
//    utilisation of their capacity (simulated), or bytes per iteration at the cursor.
// Rows are sources (top to bottom), columns destinations. Linear or logarithmic colour
// scale (zero cells are left blank in log scale); tooltips with node or link names and the
// exact bytes; export to PNG, PDF and SVG. Beyond 256 cells per side, blocks of cells are
// drawn as their maximum, so single hot cells stay visible and a recolour stays cheap; the
// values and tooltips remain per cell. Above 1,024 nodes the node sources are shown per
// pair of racks (core/runs/decision_replay.h, NodeGroups): 16,384 nodes would be 268
// million cells, their racks a few hundred squared. The user may also choose the cells:
// per node (up to 1,024 nodes), per rack, or per pod where the network has pods
// (groupNodesByPod: a fat-tree's pods). A 1,024-node fat-tree's few hot node pairs are a
// pixel each; its 16 pods show at a glance whether a policy keeps traffic local. The choice
// holds for the next runs shown; where it is not available the nearest one is shown.

#include "analysis/run_session.h"
#include "runs/decision_replay.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPItemStraightLine;
class QBoxLayout;
class QHBoxLayout;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;


namespace cb::views {


class TrafficHeatmap : public QWidget
{
    Q_OBJECT

public:
    enum class Source { Decision, Bucket, Cumulative, Links };

    explicit TrafficHeatmap(QWidget *parent = nullptr);
    ~TrafficHeatmap() override;

    /// Shows a run; `replay` (owned by the stepper, may be null) feeds the Decision source.
    void setSession(std::shared_ptr<const RunSession> session, const DecisionReplay *replay);
    Source source() const { return m_source; }
    void setSource(Source source);
    bool logScale() const { return m_log; }
    void setLogScale(bool on);
    /// What a cell of the node-pair sources stands for.
    enum class Cells { Node, Rack, Pod };
    /// The user's choice; shownCells() is what is drawn: racks for nodes above
    /// kAggregateAbove nodes, racks for pods on a network without pods, and racks until a
    /// choice is made above kNodeCellsByDefault nodes (a node pair is then under a pixel).
    Cells cells() const { return m_cells; }
    void setCells(Cells cells);
    Cells shownCells() const { return m_shown; }
    /// Simulated time of the scrubber (seconds).
    double time() const { return m_time; }
    /// Bucket at the scrubber (-1 without a simulation).
    int bucket() const;

    /// Clusters above this many nodes are shown per rack.
    static constexpr int kAggregateAbove = 1024;
    /// Above this many nodes the cells are racks until the user chooses.
    static constexpr int kNodeCellsByDefault = 128;
    /// The node sources are shown per pair of racks or pods (node groups).
    bool grouped() const { return m_grouped; }
    int columns() const { return m_nx; }
    int rows() const { return m_ny; }
    /// The value shown in a cell (bytes, or a utilisation fraction for simulated links).
    double value(int column, int row) const;
    const std::vector<double> &values() const { return m_values; }
    /// Tooltip text for a cell, e.g. "r01-n01 → r02-n03\n1.23 GB (1,230,000,000 bytes)".
    QString cellText(int column, int row) const;
    QCustomPlot *plot() const { return m_plot; }
    QCPColorMap *colorMap() const { return m_map; }

public slots:
    /// The replay moved: refresh (incrementally in the Decision source).
    void decisionMoved();
    void setTime(double seconds);
    void exportWithDialog();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void fillDecision();
    /// Adds node pair bytes to its cell (its racks' cell when grouped).
    void addPair(int from, int to, double bytes);
    void fillPairs(bool cumulative);
    void fillLinks();
    /// Redraws one block of pooled cells (its maximum) / all blocks from m_values.
    void refreshBlock(int blockX, int blockY);
    void refreshMap();
    void finish();
    void updateAxes();
    void updateScaleAxis();
    void showToolTip(QMouseEvent *event);
    void updateSourceChoices();

    std::shared_ptr<const RunSession> m_session;
    const DecisionReplay *m_replay = nullptr;
    Source m_source = Source::Decision;
    bool m_log = false;
    Cells m_cells = Cells::Node, m_shown = Cells::Node;
    bool m_cellsChosen = false; ///< setCells was called (the box, or a caller)
    double m_time = 0;
    int m_nx = 0, m_ny = 0;
    /// Cells per drawn block: at most 256 blocks per side, and no more than the plot's pixels.
    int m_poolX = 1, m_poolY = 1;
    bool m_repoolQueued = false; ///< a resize asked for other blocks (rebuilt once laid out)
    std::vector<double> m_values;
    std::vector<int> m_linkRows; ///< directed link per row in the Links source
    bool m_grouped = false;
    cb::NodeGroups m_groups;     ///< of the session's cluster, when grouped
    cb::NodeGroups m_pods;       ///< the session's pods (none without pods)
    /// Per pod: its racks (the replay's groups), ascending, to sum a pod pair's cell.
    std::vector<std::vector<int>> m_racksOfPod;
    std::vector<int> m_podOfRack; ///< per rack (the replay's groups): its pod
    /// The pod pairs of the rack pairs `replay`'s last move changed, each once, in order.
    std::vector<std::pair<int, int>> changedPods(const DecisionReplay &replay) const;
    /// A pod pair's bytes at `replay`'s cursor, summed over its rack pairs in order.
    double podPairBytes(const DecisionReplay &replay, int a, int b) const;
    /// The Decision source's colour scale spans the cells of every decision of the run (the
    /// lowest non-zero cell and the peak, found once per run and kind of cell by replaying its
    /// log), so a cell that does not change keeps its colour from one decision to the next.
    /// {0, 0} for other sources, and for runs of more than kSpanDecisions decisions.
    std::pair<double, double> decisionSpan();
    static constexpr int kSpanDecisions = 500;
    std::pair<double, double> m_decisionSpan{0, 0}; ///< what the map's scale spans now
    std::pair<double, double> m_spanFound{0, 0};    ///< decisionSpan's last replay
    std::weak_ptr<const RunSession> m_spanFor;      ///< of this session
    Cells m_spanCells = Cells::Node;                ///< and this kind of cell
    QCustomPlot *m_plot;
    QBoxLayout *m_bar = nullptr; ///< the controls: one line, or two when narrow
    QHBoxLayout *m_sourceRow = nullptr, *m_optionRow = nullptr;
    /// Sets the minimum width to the controls on two lines.
    void fitControls();
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    QCPItemStraightLine *m_timeLine;
    QComboBox *m_sourceBox;
    QCheckBox *m_logBox;
    QComboBox *m_cellsBox;
    QLabel *m_summary;
};

/// "1.23 GB" with decimal units, and the exact figure for tooltips.
QString formatBytesExact(double bytes);

} // namespace cb::views
