/** What a report chart draws: one bar per label per series, each series its own colour. */
export type ChartSeries = { name: string; values: number[]; colour: string };
export type ChartSpec = { labels: string[]; series: ChartSeries[]; stacked?: boolean; formatValue: (value: number) => string };

/** Colours that hold 3:1 against white and apart from each other (the legend repeats them in words). */
export const CHART_COLOURS = ['#4338ca', '#0f766e', '#b45309', '#be123c', '#6d28d9', '#0369a1'] as const;
