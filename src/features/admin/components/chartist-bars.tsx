import { useEffect, useRef } from 'react';
import { BarChart } from 'chartist';
import type { ChartSpec } from '../lib/report-chart-spec';

/**
 * A bar chart drawn by Chartist (SVG), in its own chunk that only Analytics loads (decision
 * 0022). Chartist's stylesheet is not loaded: every mark is styled as it is drawn. The chart is
 * a picture of the table beside it, so it is hidden from screen readers.
 */
export default function ChartistBars({ spec }: { spec: ChartSpec }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const bars = spec.labels.length * (spec.stacked ? 1 : spec.series.length);
    const width = Math.max(6, Math.min(32, Math.floor(480 / Math.max(bars, 1))));
    const chart = new BarChart(
      el,
      { labels: spec.labels, series: spec.series.map((s) => ({ name: s.name, data: s.values })) },
      {
        height: '240px',
        stackBars: spec.stacked ?? false,
        axisY: { labelInterpolationFnc: (v: unknown) => spec.formatValue(Number(v)), offset: 72 },
      },
    );
    chart.on('draw', (ctx) => {
      if (ctx.type === 'bar')
        ctx.element.attr({ style: `stroke: ${spec.series[ctx.seriesIndex]?.colour ?? '#334155'}; stroke-width: ${width}px` });
      else if (ctx.type === 'grid') ctx.element.attr({ style: 'stroke: #e2e8f0; stroke-width: 1px' });
      else if (ctx.type === 'label') ctx.element.attr({ style: 'font-size: 12px; color: #475569; fill: #475569' });
    });
    return () => {
      chart.detach();
    };
  }, [spec]);
  return <div ref={host} aria-hidden="true" className="w-full" />;
}
