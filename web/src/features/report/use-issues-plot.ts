import { useEffect, useRef, useState } from 'react';
import type { Point } from './issues-chart-data.ts';
import { drawIssuesPlot } from './issues-plot.ts';
import { listenForBrushZoom, type BrushSpan } from './listen-for-brush-zoom.ts';

/**
 * Draws the issues plot into the returned ref at the given width, redrawn when the points, width or zoom change,
 * with drag-to-zoom: the span being dragged and the zoomed range are returned for the overlay and the reset button.
 */
export function useIssuesPlot(points: readonly Point[], width: number) {
  const plotRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<[Date, Date] | null>(null);
  const [brush, setBrush] = useState<BrushSpan | null>(null);

  useEffect(() => {
    const host = plotRef.current;
    if (!host || width < 50 || points.length === 0) return;
    const plot = drawIssuesPlot(points, width, zoom);
    host.replaceChildren(plot);
    const stopListening = listenForBrushZoom(plot, setBrush, setZoom);
    return () => {
      stopListening();
      plot.remove();
    };
  }, [points, width, zoom]);

  return { plotRef, zoom, resetZoom: () => setZoom(null), brush };
}
