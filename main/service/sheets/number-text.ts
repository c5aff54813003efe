/**
 * The text of a numeric cell, as the engineer typed it: no exponent, no `.0`, and the leading
 * zeros a `0000000000000` number format displays. Excel keeps 15 digits of a number; a longer
 * whole number has lost its last digits before it reached the file: reported, never hidden.
 */
export interface NumberText {
  text: string;
  /** More than 15 significant digits: the number in the file is not the one typed. */
  lostDigits: boolean;
}

const EXCEL_DIGITS = 15;

function plainDecimal(value: number): string {
  // Excel shows 15 significant digits, so 0.1 + 0.2 reads 0.3 there and here.
  const shown = Number(value.toPrecision(EXCEL_DIGITS));
  const text = String(shown);
  if (!/e/i.test(text)) return text;
  return shown.toFixed(20).replace(/\.?0+$/, '');
}

export function numberText(value: number, numFmt?: string): NumberText {
  if (!Number.isInteger(value)) return { text: plainDecimal(value), lostDigits: false };
  // BigInt prints the exact integer a double holds: 33140001000, never 3.3140001e10.
  const digits = BigInt(Math.abs(value)).toString();
  const sign = value < 0 ? '-' : '';
  const padded = numFmt && /^0+$/.test(numFmt) ? digits.padStart(numFmt.length, '0') : digits;
  // Typed into Excel, a 16th digit and beyond become zeros: any longer number is suspect.
  return { text: `${sign}${padded}`, lostDigits: digits.length > EXCEL_DIGITS };
}
