import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readZip, writeZip, type ReadPart } from '../fixtures/zip-tools';
import { ownRows } from './sheets-differential';

/**
 * Real-world workbooks spoiled at random, as damaged downloads and broken generators spoil them:
 * bytes changed, characters of XML syntax dropped in, parts cut short or shuffled (re-zipped with
 * a true CRC, so the XML reader sees them), and bytes of the ZIP itself changed. Whatever the
 * file, the reader answers rows or a 4xx fault that says why, and soon: never another error
 * (a 500 to the user) and never a hang. Seeded, so a failure can be replayed.
 */
const CORPUS = join(__dirname, '..', 'fixtures', 'real-world');
const ROUNDS = 400;
const SLOW_MS = 2000;
const SYNTAX = '<>/"=&; :rstvc0123456789ABxX_';

const temp = mkdtempSync(join(tmpdir(), 'sheets-fuzz-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function smallFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return smallFiles(path);
    return /\.xlsx$/.test(entry.name) && readFileSync(path).length < 200_000 ? [path] : [];
  });
}

/** A small deterministic generator (a linear congruential one): the same seed, the same files. */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state % Math.max(1, below);
  };
}

function spoilPart(data: Buffer, random: (below: number) => number): Buffer {
  const text = Buffer.from(data);
  const kind = random(4);
  if (kind === 3) return text.subarray(0, random(text.length));
  for (let change = 0; change <= random(5); change += 1) {
    const at = random(text.length);
    if (kind === 0) text[at] = random(256);
    else if (kind === 1) text[at] = SYNTAX.charCodeAt(random(SYNTAX.length));
    else text.copyWithin(at, random(text.length));
  }
  return text;
}

function spoiled(file: string, round: number, random: (below: number) => number): Buffer | undefined {
  const bytes = readFileSync(file);
  if (round % 2 === 0) {
    const raw = Buffer.from(bytes);
    for (let change = 0; change <= random(3); change += 1) raw[random(raw.length)] = random(256);
    return raw;
  }
  let parts: ReadPart[];
  try {
    parts = readZip(bytes);
  } catch {
    return undefined;
  }
  const xml = parts.filter((part) => /\.(xml|rels)$/.test(part.name));
  if (xml.length === 0) return undefined;
  const target = xml[random(xml.length)];
  return writeZip(parts.map((part) => ({ name: part.name, data: part === target ? spoilPart(part.data, random) : part.data })));
}

describe('spoiled real-world workbooks', () => {
  it(`answer rows or a 4xx that says why, in under ${SLOW_MS} ms each (${ROUNDS} files, seeded)`, async () => {
    const files = smallFiles(CORPUS);
    const random = generator(20261128);
    const problems: string[] = [];
    let read = 0;
    let refused = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const file = files[random(files.length)];
      const bytes = spoiled(file, round, random);
      if (!bytes) continue;
      const path = join(temp, `spoiled-${round}.xlsx`);
      writeFileSync(path, bytes);
      const started = performance.now();
      try {
        const outcome = await ownRows(path, 'spoiled.xlsx');
        if ('fault' in outcome) {
          refused += 1;
          if (!/^4\d\d [a-z-]+: spoiled\.xlsx /.test(outcome.fault)) problems.push(`round ${round} (${file}): ${outcome.fault}`);
        } else read += 1;
      } catch (error) {
        problems.push(`round ${round} (${file}): ${error instanceof Error ? error.stack : String(error)}`);
      }
      const ms = performance.now() - started;
      if (ms > SLOW_MS) problems.push(`round ${round} (${file}): ${ms.toFixed(0)} ms`);
    }
    console.log(`spoiled workbooks: ${read} read, ${refused} refused with a 4xx`);
    expect(problems).toEqual([]);
    expect(read).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 300_000);
});
