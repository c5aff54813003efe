import type { CompiledSearch } from './search-compiler';

/**
 * Which of a search's two statements to run. A single model's search can walk the model's
 * first summary index in answer order and test each row's node (the "wide" plan: it stops at
 * the 1,000th hit, which in a large scope comes early), or start from the scope's nodes and
 * sort what it finds there (the "narrow" plan: its cost is the scope's size). SQLite cannot
 * tell which is cheaper, since it does not know how many rows a scope holds: a search at a
 * 5-line site of a 1,000,000-line store walked the whole index (260 to 400 ms) where the
 * narrow plan takes 0.2 ms. So a probe counts, up to a cap, the model's rows in the scope and in all.
 *
 * This module is loaded by the search worker too: it imports types only.
 */

/** The most rows of a scope for which the narrow plan is chosen (at ~2 us a row, ~11 ms). */
export const NARROW_MAX_ROWS = 5000;
/** The narrow plan is chosen when the scope holds under a quarter of the model's rows. */
export const NARROW_MAX_SHARE = 4;
/** How long a probe's answer is reused: scopes rarely change size, and a stale choice only costs time. */
const CHOICE_TTL_MS = 60_000;

/** A search's answer statement, and for a single model its narrow alternative with its probe. */
export interface SearchStatements {
  answer: CompiledSearch;
  narrow?: { answer: CompiledSearch; probe: CompiledSearch };
}

/** The probe's answer: the model's rows in the scope (up to the cap + 1), and in all (capped too). */
export type ProbeCounts = [inScope: number, total: number];

export function narrowWins([inScope, total]: ProbeCounts): boolean {
  return inScope <= NARROW_MAX_ROWS && total > NARROW_MAX_SHARE * inScope;
}

/** Choices by probe, kept for a while: a worker's searches repeat their scopes. */
export class PlanChoices {
  private readonly choices = new Map<string, { narrow: boolean; at: number }>();

  pick(statements: SearchStatements, probe: (sql: CompiledSearch) => ProbeCounts, now = Date.now()): CompiledSearch {
    const narrow = statements.narrow;
    if (!narrow) return statements.answer;
    const key = `${narrow.probe.sql}\n${JSON.stringify(narrow.probe.params)}`;
    let choice = this.choices.get(key);
    if (!choice || now - choice.at > CHOICE_TTL_MS) {
      if (this.choices.size > 500) this.choices.clear();
      choice = { narrow: narrowWins(probe(narrow.probe)), at: now };
      this.choices.set(key, choice);
    }
    return choice.narrow ? narrow.answer : statements.answer;
  }
}
