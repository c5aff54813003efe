/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
export function textTable(header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export const perSecond = (value: number): string => Math.round(value).toLocaleString('en-US');
export const millis = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '-');
