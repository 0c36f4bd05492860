import type { BrushSpan } from './listen-for-brush-zoom.ts';

/** The shaded span being dragged across the chart, between its top and bottom margins. */
export function BrushSelection({ brush }: { brush: BrushSpan }) {
  return (
    <div
      aria-hidden
      style={{
        position: 'absolute',
        top: 22,
        bottom: 40,
        left: Math.min(brush.from, brush.to),
        width: Math.abs(brush.to - brush.from),
        background: 'rgb(11 103 135 / 0.12)',
        border: '1px solid rgb(11 103 135 / 0.4)',
        pointerEvents: 'none',
      }}
    />
  );
}
