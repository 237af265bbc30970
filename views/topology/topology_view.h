#pragma once
// The central topology view: wheel zoom around the cursor, drag to pan, fit to window.
// Until the user zooms or pans, it keeps the whole cluster fitted as the window resizes.
// A small overlay in the corner gives the cluster's size and the link-width legend; while a
// decision colours the nodes (or a time colours the links) a legend in the other corner says
// what the colours mean. Fitted, the cluster is drawn clear of both boxes.

#include <QGraphicsView>

namespace cb::views {

class TopologyScene;

class TopologyView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit TopologyView(TopologyScene *scene, QWidget *parent = nullptr);

    /// Current scale (1 = one scene unit per pixel).
    double zoom() const;
    void setOverlayText(const QString &text);
    /// What the nodes' colours show: nothing, a placement decision's scores, or a stochastic
    /// run's schedule at an event (its job's node outlined, GPUs busy then).
    enum class NodeLegend { None, Scores, Schedule };
    /// Shows the legend of the node colours and of the link colours (utilisation at the
    /// scrubber). `otherPick`: two runs are stepped together (the other run's pick, dashed).
    void setLegends(NodeLegend nodes, bool utilisation, bool otherPick = false);
    NodeLegend nodeLegend() const { return m_nodeLegend; }
    bool scoreLegendShown() const { return m_nodeLegend == NodeLegend::Scores; }
    bool utilisationLegendShown() const { return m_utilisationLegend; }
    bool otherPickLegendShown() const { return m_otherPickLegend; }
    /// The legend's box in viewport pixels (empty when no legend is shown), in the columns
    /// the last fit chose.
    QRect legendRect() const;
    /// The legend's box laid out in `columns` columns.
    QRect legendRect(int columns) const;
    /// The summary box (the overlay text) in viewport pixels, bottom left (empty without text).
    QRect summaryRect() const;
    /// Sets the scale, keeping the centre of the view; stops auto-fitting.
    void setZoom(double zoom);

public slots:
    void fitAll();
    void zoomIn();
    void zoomOut();
    void centerOnNode(int nodeIndex);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    /// The corner boxes stay put while the scene scrolls: repaint instead of shifting pixels.
    void scrollContentsBy(int dx, int dy) override;

private:
    void zoomBy(double factor);
    void drawLegend(QPainter *painter) const;

    TopologyScene *m_scene;
    bool m_autoFit = true;
    QString m_overlay;
    NodeLegend m_nodeLegend = NodeLegend::None;
    bool m_utilisationLegend = false;
    bool m_otherPickLegend = false;
    int m_legendColumns = 1; ///< as the last fit laid the legend out
    QPoint m_pressAt;         ///< where the left button went down (a click or a pan)
};

} // namespace cb::views
