import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { table } from './cli-table';
import { ApiError } from './service/errors';
import { proposeWorkbook, type WorkbookProposal } from './service/mapping/propose-workbook';

/**
 * `workstation map <file.xlsx>`: the mapping proposed for a customer's sheet (its columns to the
 * fields of a model, with the confidence and the reason of each), read from the file alone:
 * nothing is staged or stored. Exit codes: 0 every required field has a column, 2 some required
 * field stays unmapped, or the file could not be read (the message says why).
 */
export const MAP_USAGE = `usage: workstation map <file.xlsx> [--model <type>] [--json]

  --model   map to this model (e.g. relation/Bundle) instead of the one the columns fill best
  --json    the proposal as one JSON document on stdout
  exit      0 every required field is mapped, 2 a required field is not, or the file was refused`;

interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processOutput: Output = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function proposalText(proposal: WorkbookProposal): string {
  return proposal.sheets
    .map((sheet) => {
      const rows = sheet.columns.map((column) => [
        String(column.column),
        column.header || '(no header)',
        column.target ?? '-',
        column.target ? `${Math.round(column.confidence * 100)}%` : '',
        column.reason,
      ]);
      const mapped = sheet.columns
        .filter((column) => column.values?.some((value) => value.to !== value.value))
        .map(
          (column) =>
            `values of '${column.header}' (${column.target ?? ''}):\n${table(
              ['value', 'rows', 'becomes', 'why'],
              (column.values ?? []).map((value) => [
                value.value,
                String(value.count),
                value.to === null ? '?' : String(value.to),
                value.reason,
              ]),
            )}`,
        )
        .join('');
      const missing =
        sheet.unmappedRequired.length > 0
          ? `required, not mapped: ${sheet.unmappedRequired.join(', ')}\n`
          : 'every required field is mapped\n';
      return `sheet '${sheet.sheet}' (headers in row ${sheet.headerRow}): ${sheet.model}, from ${sheet.modelReason}\n${table(['col', 'header', 'field', 'sure', 'why'], rows)}${mapped}${missing}`;
    })
    .join('\n');
}

const OPTIONS = { model: { type: 'string' }, json: { type: 'boolean', default: false } } as const;
const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });

export async function mapCommand(args: string[], out: Output = processOutput): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    out.stderr(`workstation map: ${error instanceof Error ? error.message : String(error)}\n${MAP_USAGE}\n`);
    return 2;
  }
  const [file] = parsed.positionals;
  if (!file || parsed.positionals.length > 1) {
    out.stderr(`${MAP_USAGE}\n`);
    return 2;
  }
  try {
    const proposal = await proposeWorkbook(resolve(file), basename(file), parsed.values.model);
    const unmapped = proposal.sheets.some((sheet) => sheet.unmappedRequired.length > 0);
    out.stdout(parsed.values.json ? `${JSON.stringify(proposal, null, 2)}\n` : proposalText(proposal));
    return unmapped ? 2 : 0;
  } catch (error) {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    out.stderr(`workstation map: ${message}\n`);
    return 2;
  }
}
