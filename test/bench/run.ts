import { BenchConfigError, readConfig } from './bench-config';
import { reportText } from './bench-report';
import { runBench } from './bench-steps';
import { CleanupStack } from './cleanup-stack';
import { writeResults } from './results-file';
import { runRemoteBench } from './remote-steps';
import { runSheetsBench } from './sheets-steps';
import { runSyncBench } from './sync-steps';
import { runWorkbookUiBench } from './ui-workbook-steps';
import { runWorkbookBench } from './workbook-steps';

/**
 * `npm run bench`: seeds a store of LineRelation instances, measures the service over HTTP
 * against raw node:http and raw SQL baselines from the same run, and fails (exit 1) when a
 * target is missed or any request failed. Progress goes to stderr, the report to stdout.
 */
async function main(): Promise<number> {
  const config = readConfig();
  const cleanup = new CleanupStack();
  const interrupted = (): void => void cleanup.runAll().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const startedAt = new Date();
  try {
    if (config.only === 'sheets') {
      const sheets = await runSheetsBench(config, cleanup);
      const passed = sheets.checks.every((check) => check.pass);
      process.stdout.write(`\n${sheets.text}\n\n${passed ? 'PASS' : 'FAIL'}\n`);
      return passed ? 0 : 1;
    }
    if (config.only === 'workbook') {
      const workbook = await runWorkbookBench(config, cleanup);
      const passed = workbook.checks.every((check) => check.pass);
      process.stdout.write(`\n${workbook.text}\n\n${passed ? 'PASS' : 'FAIL'}\n`);
      return passed ? 0 : 1;
    }
    if (config.only === 'remote') {
      const remote = await runRemoteBench(config, cleanup);
      const passed = remote.checks.every((check) => check.pass);
      process.stdout.write(`\n${remote.text}\n\n${passed ? 'PASS' : 'FAIL'}\n`);
      return passed ? 0 : 1;
    }
    if (config.only === 'sync') {
      const sync = await runSyncBench(config, cleanup);
      const passed = sync.checks.every((check) => check.pass);
      process.stdout.write(`\n${sync.text}\n\n${passed ? 'PASS' : 'FAIL'}\n`);
      return passed ? 0 : 1;
    }
    const outcome = await runBench(config, cleanup);
    // The sheets part runs on a store of its own, after the rest, so it measures a quiet machine.
    const sheets = config.only === undefined ? await runSheetsBench(config, cleanup) : undefined;
    if (sheets) outcome.checks.push(...sheets.checks);
    // The remote part too: its own small stores and three servers, nothing of the 1M seed.
    const remote = config.only === undefined ? await runRemoteBench(config, cleanup) : undefined;
    if (remote) outcome.checks.push(...remote.checks);
    const workbook = config.only === undefined ? await runWorkbookBench(config, cleanup) : undefined;
    if (workbook) outcome.checks.push(...workbook.checks);
    const sync = config.only === undefined ? await runSyncBench(config, cleanup) : undefined;
    if (sync) outcome.checks.push(...sync.checks);
    // The workbook grid in Chromium (issue 13): BENCH_ONLY=ui and the full bench, on a store of its own, last.
    const workbookUi = config.only === undefined || config.only === 'ui' ? await runWorkbookUiBench(config, cleanup) : undefined;
    if (workbookUi) outcome.checks.push(...workbookUi.checks);
    const passed = outcome.checks.every((check) => check.pass);
    process.stdout.write(`\n${reportText(outcome)}\n\nList page SQL: ${outcome.listPlan.pageSql}\n`);
    process.stdout.write(`  page plan: ${outcome.listPlan.page.join(' | ')}\n  count plan: ${outcome.listPlan.count.join(' | ')}\n`);
    for (const search of outcome.searchPlans) process.stdout.write(`Search '${search.query}' plan: ${search.plan.join(' | ')}\n`);
    if (sheets) process.stdout.write(`\n${sheets.text}\n`);
    if (remote) process.stdout.write(`\n${remote.text}\n`);
    if (workbook) process.stdout.write(`\n${workbook.text}\n`);
    if (sync) process.stdout.write(`\n${sync.text}\n`);
    if (workbookUi) process.stdout.write(`\n${workbookUi.text}\n`);
    const file = writeResults(startedAt, config, outcome, passed);
    process.stdout.write(`\n${passed ? 'PASS' : 'FAIL'}: results written to ${file}\n`);
    return passed ? 0 : 1;
  } finally {
    await cleanup.runAll();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const detail =
      error instanceof BenchConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`bench failed: ${detail}\n`);
    process.exitCode = 1;
  },
);
