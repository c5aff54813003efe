import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { screenshot, VIEWPORT } from './browser';

/**
 * axe-core run on a screen of the app as the user sees it, in light and dark mode, with a
 * picture of the screen in each theme at 1440x900 and on a 1280x720 laptop.
 */
const AXE_PATH = createRequire(__filename).resolve('axe-core/axe.min.js');
let source: string | undefined;
const axeSource = (): string => (source ??= readFileSync(AXE_PATH, 'utf8'));
export const LAPTOP = { width: 1280, height: 720 };
const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** One rule broken on one element: what a failing test lists. */
export interface Finding {
  screen: string;
  theme: Theme;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/**
 * What the issue asks of every screen (issue 32, point 8): no serious or critical violation, a
 * level-one heading, and each landmark once with its own name. The last ones are "moderate" for
 * axe, so they are named here.
 */
const STRUCTURE_RULES = new Set([
  'page-has-heading-one',
  'landmark-unique',
  'landmark-one-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
  'landmark-complementary-is-top-level',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-main-is-top-level',
  'aria-allowed-role',
]);

export function blocking(finding: Finding): boolean {
  return finding.impact === 'serious' || finding.impact === 'critical' || STRUCTURE_RULES.has(finding.rule);
}

/** One line per finding, as a failing test prints it. */
export function describeFinding(finding: Finding): string {
  return `${finding.screen} (${finding.theme}): ${finding.rule} [${finding.impact}] at ${finding.target}: ${finding.summary}`;
}

async function runAxe(page: Page): Promise<AxeResults> {
  // Evaluated rather than added as a script tag: the app's Content-Security-Policy refuses inline
  // scripts (as it should), and the DevTools protocol's evaluation is not subject to it.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource());
  // A string, run in the page: the test's own TypeScript has no DOM types (tsconfig.node.json).
  return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as AxeResults;
}

function findingsOf(results: AxeResults, screen: string, theme: Theme): Finding[] {
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      screen,
      theme,
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      target: node.target.map(String).join(' > '),
      summary: (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').trim(),
    })),
  );
}

/** Two frames: a new colour scheme is painted before axe reads the colours. */
async function settle(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

/**
 * Checks the screen on show in both themes and takes its pictures:
 * `<transport>-a11y-<screen>-<theme>.png` (1440x900) and `...-<theme>-1280.png` (1280x720).
 * Returns every violation found (all impacts); the page is left light, at 1440x900.
 */
export async function checkScreen(page: Page, transport: string, screen: string): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await settle(page);
    const results = await runAxe(page);
    const findings = findingsOf(results, screen, theme);
    found.push(...findings);
    const count = (impact: string) => findings.filter((finding) => finding.impact === impact).length;
    console.log(
      `axe ${transport} ${screen} ${theme}: critical ${count('critical')}, serious ${count('serious')}, moderate ${count('moderate')}, minor ${count('minor')}` +
        (findings.length ? ` (${[...new Set(findings.map((finding) => finding.rule))].join(', ')})` : ''),
    );
    for (const finding of findings.filter(blocking)) console.log(`  ${describeFinding(finding)}`);
    await screenshot(page, transport, `a11y-${screen}-${theme}`);
    await page.setViewportSize(LAPTOP);
    await settle(page);
    await screenshot(page, transport, `a11y-${screen}-${theme}-1280`);
    await page.setViewportSize(VIEWPORT);
    await settle(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
