#pragma once
// The central topology view: wheel zoom around the cursor, drag to pan, fit to window.
// Until the user zooms or pans, it keeps the whole cluster fitted as the window resizes.
// A small overlay in the corner gives the cluster's size and the link-width legend.

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
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    void zoomBy(double factor);

    TopologyScene *m_scene;
    bool m_autoFit = true;
    QString m_overlay;
};

} // namespace cb::views
