import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.x A/AA plus axe's best practices (landmarks, one h1, headings in order). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface Violation {
  rule: string;
  impact: string;
  help: string;
  /** One line per failing element: its selector, its markup and (for contrast) the measured colours. */
  targets: string[];
}

type AxeNode = AxeResults['violations'][number]['nodes'][number];

function describeNode(node: AxeNode): string {
  const selector = node.target.map(String).join(' ');
  const html = node.html.replace(/\s+/g, ' ').slice(0, 140);
  const data = node.any[0]?.data as
    { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
  const contrast = data?.contrastRatio
    ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio} < ${data.expectedContrastRatio}]`
    : '';
  return `${selector}${contrast}  ${html}`;
}

/** Runs axe-core in the page as it stands and returns its violations, one entry per rule. */
export async function runAxe(page: Page): Promise<Violation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol, not as an inline <script>: the pages run under the
  // deployed CSP (script-src 'self'), which would block an injected script tag.
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<AxeResults> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  }, TAGS);
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.map(describeNode),
  }));
}

export function formatViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.rule} (${v.impact}): ${v.help}\n      ${v.targets.slice(0, 6).join('\n      ')}${v.targets.length > 6 ? `\n      … ${v.targets.length - 6} more` : ''}`,
    )
    .join('\n    ');
}
