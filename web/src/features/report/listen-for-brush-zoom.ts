import type * as Plot from '@observablehq/plot';

/** The dragged span, in pixels from the plot's left edge. */
export interface BrushSpan {
  from: number;
  to: number;
}

/**
 * Drag across the plot to zoom: reports the span while dragging, then the dates under a span of 8px or more that
 * covers over an hour. Listens for the release on the window, so a drag that ends outside the chart still ends.
 * Returns the function that stops listening.
 */
export function listenForBrushZoom(
  plot: (SVGSVGElement | HTMLElement) & Plot.Plot,
  onBrush: (span: BrushSpan | null) => void,
  onZoom: (range: [Date, Date]) => void,
): () => void {
  const scale = plot.scale('x');
  const svg = plot instanceof SVGSVGElement ? plot : plot.querySelector('svg');
  if (!svg || !scale?.invert) return () => {};
  let start: number | null = null;
  const offset = (event: PointerEvent) => event.clientX - svg.getBoundingClientRect().left;
  const down = (event: PointerEvent) => {
    start = offset(event);
    onBrush({ from: start, to: start });
  };
  const move = (event: PointerEvent) => {
    if (start !== null) onBrush({ from: start, to: offset(event) });
  };
  const up = (event: PointerEvent) => {
    if (start === null) return;
    const end = offset(event);
    const [a, b] = [Math.min(start, end), Math.max(start, end)];
    start = null;
    onBrush(null);
    if (b - a < 8) return;
    const from = scale.invert!(a) as Date;
    const to = scale.invert!(b) as Date;
    if (to.getTime() - from.getTime() > 3_600_000) onZoom([from, to]);
  };
  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  return () => {
    svg.removeEventListener('pointerdown', down);
    svg.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
  };
}
