/**
 * Which of two plans reads a model's rows within a hierarchy scope. A list or a search can walk
 * the model's summary index in answer order and test each row's node (the "wide" plan: it
 * stops once it has its page or its 1,000 hits, which in a large scope come early), or start
 * from the scope's nodes and sort what it finds there (the "narrow" plan: its cost is the
 * scope's size). SQLite cannot tell which is cheaper, since it does not know how many rows a
 * scope holds: at a 5-line site of a 1,000,000-line store, a search walked the whole index
 * (260 to 400 ms) and a list page with its total took 800 ms, where the narrow plan takes a
 * millisecond. So a probe counts, each only up to what the choice needs, the model's rows in
 * the scope and in all.
 *
 * The search worker loads this module too: it imports nothing at run time.
 */

/** SQL with its bound parameters. */
export interface BoundSql {
  sql: string;
  params: unknown[];
}

/** The most rows of a scope for which the narrow plan is chosen (at ~2 us a row, ~11 ms). */
export const NARROW_MAX_ROWS = 5000;
/** The narrow plan is chosen when the scope holds under a quarter of the model's rows. */
export const NARROW_MAX_SHARE = 4;
/** How long a probe's answer is reused: scopes rarely change size, and a stale choice only costs time. */
const CHOICE_TTL_MS = 60_000;

/** The probe's answer: the model's rows in the scope (up to the cap + 1), and in all (capped too). */
export type ProbeCounts = [inScope: number, total: number];

export function narrowWins([inScope, total]: ProbeCounts): boolean {
  return inScope <= NARROW_MAX_ROWS && total > NARROW_MAX_SHARE * inScope;
}

/**
 * The probe of a model in a scope, given as the SQL of its nodes' pkids (`SELECT ... AS pkid`
 * or `SELECT pkid FROM nodes ...`); the model type comes from the registry, never a request.
 */
export function scopeProbe(modelType: string, scopeNodes: BoundSql): BoundSql {
  const ofModel = `i.model_type = '${modelType}'`;
  // CROSS JOIN keeps the nodes as the outer loop: the count reads the (model, node) index.
  const inScope = `SELECT 1 FROM (${scopeNodes.sql}) AS sn CROSS JOIN instances i WHERE ${ofModel} AND i.hierarchy_pkid = sn.pkid LIMIT ${NARROW_MAX_ROWS + 1}`;
  const total = `SELECT 1 FROM instances i WHERE ${ofModel} LIMIT ${NARROW_MAX_SHARE * NARROW_MAX_ROWS + 1}`;
  return { sql: `SELECT (SELECT count(*) FROM (${inScope})), (SELECT count(*) FROM (${total}))`, params: scopeNodes.params };
}

/** Choices by probe, kept for a while: a worker's searches and a user's pages repeat their scopes. */
export class PlanChoices {
  private readonly choices = new Map<string, { narrow: boolean; at: number }>();

  /** Whether the narrow plan wins for this probe, probing (with `run`) only when not known. */
  narrow(probe: BoundSql, run: (probe: BoundSql) => ProbeCounts, now = Date.now()): boolean {
    const key = `${probe.sql}\n${JSON.stringify(probe.params)}`;
    let choice = this.choices.get(key);
    if (!choice || now - choice.at > CHOICE_TTL_MS) {
      if (this.choices.size > 500) this.choices.clear();
      choice = { narrow: narrowWins(run(probe)), at: now };
      this.choices.set(key, choice);
    }
    return choice.narrow;
  }
}
