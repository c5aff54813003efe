import type { FieldDef, ModelDef } from '../models/types';
import { compact, similarity } from './similarity';
import { CONCEPTS, LANGUAGES, type Concept } from './synonyms';
import { proposeSplits, type SplitProposal } from './propose-splits';
import { proposeValues, type ValueProposal } from './value-mapping';
import { kindOfValues, type ValueKind } from './value-kinds';

/**
 * A customer's sheet matched to a model (issue "Customer sheets in any shape"): for each source
 * column a proposed target (a field of the model, or a meta column of the bulk-load sheet such
 * as `#Hierarchy Node`), with its confidence and the reason a person can check; the model is the
 * one whose fields the columns fill best, unless the caller names it. Proposals come, strongest
 * first, from a field's name, its title, the synonyms of synonyms.ts, a header like one of those
 * (edit distance), and the column's values (value-kinds.ts), which confirm a header or place a
 * column whose header says nothing. One column fills one target, one target one column.
 */
export interface SourceColumn {
  /** 1-based column of the sheet. */
  column: number;
  header: string;
  /** A sample of its values, as text. */
  values: string[];
}

export interface ColumnProposal {
  column: number;
  header: string;
  /** A top-level field name, `#Hierarchy Node`, `#Action`, `#CFT Template`, or null (not loaded). */
  target: string | null;
  /** 0..1 */
  confidence: number;
  reason: string;
  kind: ValueKind | null;
  /** For a field with choices or a yes/no field: the column's values mapped onto valid ones. */
  values?: ValueProposal[];
  /** Its first few distinct values, shown beside its target. */
  samples: string[];
}

export interface SheetProposal {
  model: string;
  modelReason: string;
  columns: ColumnProposal[];
  /** Required fields of the model no column fills. */
  unmappedRequired: string[];
  /** A column of full names cut into first and last names (propose-splits.ts). */
  splits?: SplitProposal[];
}

interface Candidate {
  target: string;
  confidence: number;
  reason: string;
}

/** Distinct values a column shows beside its target, and how much of each (a cell may hold 32,767 characters). */
const SAMPLES_SHOWN = 3;
const SAMPLE_CHARS = 80;
/** Below this a proposal is left for the user to make. */
const SURE_ENOUGH = 0.5;
const META_TARGETS = ['#Hierarchy Node', '#Action', '#CFT Template'];

function targetsOf(model: ModelDef): Map<string, FieldDef | null> {
  const targets = new Map<string, FieldDef | null>(META_TARGETS.map((target) => [target, null]));
  for (const [name, field] of Object.entries(model.fields)) {
    const types = Array.isArray(field.type) ? field.type : [field.type];
    if (field.readonly || field.writeOnly || types.includes('object') || types.includes('array')) continue;
    targets.set(name, field);
  }
  return targets;
}

/** What the header alone says each target is, best first. */
function byHeader(header: string, targets: Map<string, FieldDef | null>): Candidate[] {
  const key = compact(header.replace(/^#\s*/, ''));
  const found: Candidate[] = [];
  for (const [target, field] of targets) {
    const title = field ? field.title : target.slice(1);
    const byName = field !== null && key === compact(target);
    if (key === compact(title)) found.push({ target, confidence: byName ? 1 : 0.95, reason: `the field's title (${title})` });
    else if (byName) found.push({ target, confidence: 1, reason: `the field's name (${target})` });
  }
  for (const concept of CONCEPTS) {
    const target = concept.targets.find((candidate) => targets.has(candidate));
    if (!target) continue;
    for (const [language, words] of Object.entries(concept.words) as [keyof typeof LANGUAGES, string[]][]) {
      if (words.some((word) => compact(word) === key))
        found.push({ target, confidence: 0.85, reason: `"${header}" is ${LANGUAGES[language]} for ${concept.name}` });
    }
  }
  if (found.length === 0) {
    // A header like a name, a title or a synonym: a typo or another spelling.
    for (const [target, field] of targets) {
      const labels = [field ? target : '', field ? field.title : target.slice(1), ...wordsFor(target)].filter((label) => label !== '');
      for (const label of labels) {
        const alike = similarity(header, label);
        if (alike >= 0.8 && compact(label).length >= 4)
          found.push({ target, confidence: 0.6 + (alike - 0.8), reason: `"${header}" is like "${label}"` });
      }
    }
  }
  return found.sort((a, b) => b.confidence - a.confidence);
}

const wordsFor = (target: string): string[] =>
  CONCEPTS.filter((concept) => concept.targets.includes(target)).flatMap((concept) => Object.values(concept.words).flat());

function conceptOf(target: string): Concept | undefined {
  return CONCEPTS.find((concept) => concept.targets.includes(target));
}

/** What the values alone say: the target whose concept holds values of this kind. */
function byValues(kind: ValueKind, targets: Map<string, FieldDef | null>): Candidate[] {
  const found: Candidate[] = [];
  for (const concept of CONCEPTS) {
    if (!concept.kinds?.includes(kind)) continue;
    const target = concept.targets.find((candidate) => targets.has(candidate));
    if (target) found.push({ target, confidence: 0.55, reason: `its values look like ${KIND_WORDS[kind]}` });
  }
  return found;
}

const KIND_WORDS: Record<ValueKind, string> = {
  e164: 'E.164 numbers',
  'local-number': 'local phone numbers',
  extension: 'extensions',
  mac: 'MAC addresses',
  'device-name': 'phone names',
  email: 'e-mail addresses',
  hierarchy: 'hierarchy paths',
  'yes-no': 'yes/no flags',
};

/** Enough of a column's values are valid values of a field with choices: it is that field's. */
const CHOICES_AGREE = 0.8;

/**
 * What the values say through the fields' choices: a column whose values are (8 in 10 or more)
 * valid values of one field, written as the field writes them whatever the case and spacing
 * (`Cisco 8845` under "Handset"), is that field's. Only exact choices count: a likeness would
 * take any column of words for a field of words.
 */
function byChoices(values: string[], targets: Map<string, FieldDef | null>): Candidate[] {
  const present = values.map((value) => compact(value)).filter((value) => value !== '');
  if (present.length === 0) return [];
  const found: Candidate[] = [];
  for (const [target, field] of targets) {
    const choices = field?.choices;
    if (!field || !choices || choices.length < 2) continue;
    const valid = new Set(choices.map((choice) => compact(choice.value)));
    const hits = present.filter((value) => valid.has(value)).length;
    if (hits / present.length >= CHOICES_AGREE)
      found.push({ target, confidence: 0.6, reason: `its values are valid values of ${field.title}` });
  }
  return found;
}

/** The header's candidates, confirmed or weakened by the column's values. */
function candidatesOf(source: SourceColumn, kind: ValueKind | undefined, targets: Map<string, FieldDef | null>): Candidate[] {
  const header = byHeader(source.header, targets).map((candidate) => {
    const expects = conceptOf(candidate.target)?.kinds;
    if (!kind || !expects) return candidate;
    // The concept's first kind is the form the field holds (E.164 for a number): it confirms most.
    const place = expects.indexOf(kind);
    if (place < 0) return candidate;
    return {
      ...candidate,
      confidence: Math.min(1, candidate.confidence + 0.12 - 0.03 * place),
      reason: `${candidate.reason}; its values look like ${KIND_WORDS[kind]}`,
    };
  });
  const byContent = [...(kind ? byValues(kind, targets) : []), ...byChoices(source.values, targets)];
  const values = byContent.filter((candidate) => !header.some((other) => other.target === candidate.target));
  return [...header, ...values].sort((a, b) => b.confidence - a.confidence);
}

/** One column per target and one target per column, the surest first. */
function assign(columns: SourceColumn[], targets: Map<string, FieldDef | null>): ColumnProposal[] {
  const kinds = new Map(columns.map((source) => [source.column, kindOfValues(source.values)]));
  const options = columns.flatMap((source) =>
    candidatesOf(source, kinds.get(source.column), targets).map((candidate) => ({ source, candidate })),
  );
  options.sort((a, b) => b.candidate.confidence - a.candidate.confidence || a.source.column - b.source.column);
  const chosen = new Map<number, Candidate>();
  const taken = new Set<string>();
  for (const { source, candidate } of options) {
    if (candidate.confidence < SURE_ENOUGH || chosen.has(source.column) || taken.has(candidate.target)) continue;
    chosen.set(source.column, candidate);
    taken.add(candidate.target);
  }
  return columns.map((source) => {
    const pick = chosen.get(source.column);
    const field = pick ? targets.get(pick.target) : undefined;
    const values = field ? proposeValues(source.values, field) : undefined;
    return {
      column: source.column,
      header: source.header,
      target: pick?.target ?? null,
      confidence: pick ? Math.round(pick.confidence * 100) / 100 : 0,
      reason: pick?.reason ?? 'no field of the model is like it: kept on the #source sheet, not loaded',
      kind: kinds.get(source.column) ?? null,
      samples: [...new Set(source.values.filter((value) => value.trim() !== ''))]
        .slice(0, SAMPLES_SHOWN)
        .map((value) => (value.length > SAMPLE_CHARS ? `${value.slice(0, SAMPLE_CHARS)}…` : value)),
      ...(values ? { values } : {}),
    };
  });
}

/** What a column may fill in a model, as the mapping step offers it: the meta columns, then each field a sheet fills. */
export function mappingTargets(model: ModelDef): { name: string; title: string; required: boolean }[] {
  const required = new Set(requiredOf(model));
  return [...targetsOf(model)].map(([name, field]) => ({ name, title: field ? field.title : name.slice(1), required: required.has(name) }));
}

/** The fields a row must have that nothing fills by default. */
export function requiredOf(model: ModelDef): string[] {
  return Object.entries(model.fields)
    .filter(([, field]) => field.required && !field.readonly && field.default === undefined)
    .map(([name]) => name);
}

function proposalFor(model: ModelDef, columns: SourceColumn[]): SheetProposal {
  const targets = targetsOf(model);
  const proposed = assign(columns, targets);
  const filled = new Set(proposed.flatMap((column) => (column.target ? [column.target] : [])));
  const splits = proposeSplits(columns, new Set(targets.keys()), filled);
  for (const split of splits) for (const target of split.targets) if (target !== null) filled.add(target);
  const unmappedRequired = requiredOf(model).filter((name) => !filled.has(name));
  return { model: model.modelType, modelReason: '', columns: proposed, unmappedRequired, ...(splits.length > 0 ? { splits } : {}) };
}

/** How well a model takes the sheet: what its columns fill, more for required fields, less for those left empty. */
function scoreOf(proposal: SheetProposal, model: ModelDef): number {
  const required = requiredOf(model).length;
  const filled = proposal.columns.reduce((sum, column) => sum + column.confidence, 0);
  return filled + (required - proposal.unmappedRequired.length) * 0.5 - proposal.unmappedRequired.length;
}

/**
 * The proposal for a sheet: for `chosen` when the user (or the sheet's name) names the model,
 * else for the candidate model the columns fill best.
 */
export function proposeSheet(columns: SourceColumn[], candidates: ModelDef[], chosen?: { model: ModelDef; reason: string }): SheetProposal {
  if (chosen) return { ...proposalFor(chosen.model, columns), modelReason: chosen.reason };
  const ranked = candidates
    .map((model) => ({ model, proposal: proposalFor(model, columns) }))
    .sort((a, b) => scoreOf(b.proposal, b.model) - scoreOf(a.proposal, a.model));
  const best = ranked[0].proposal;
  const filled = best.columns.filter((column) => column.target !== null).length;
  return {
    ...best,
    modelReason: `its columns fill ${filled} of ${columns.length} with fields of ${best.model}, more than any other model`,
  };
}
