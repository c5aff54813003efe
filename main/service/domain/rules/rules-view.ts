import type { NodeRow } from '../../store/nodes-repo';

/**
 * What the rules read: the store as the live write path sees it (`live-view.ts`), or the store
 * plus what earlier rows of a workbook will have done (`../../sheets/overlay-rules-view.ts`).
 * Every answer is a value the rule needs and nothing more, so the workbook side can keep each
 * read going through its overlay (which records what a row read, for incremental validation).
 */
export type KeyScope = 'node' | 'up' | 'global';

/** Who holds a business key: a stored instance, or an earlier row of the workbook (`addedBy`). */
export interface KeyHolding {
  pkid?: string;
  hierarchyPath: string;
  /** The earlier row that adds it ("row 4", "row 2 of sheet 'Phones'"): workbook validation only. */
  addedBy?: string;
}

/** The inventory entry of a number, its status as earlier work leaves it. */
export interface NumberEntry {
  pkid: string;
  hierarchyPath: string;
  status: string;
  /** The earlier row that took it ("row 2"), when that is why it is not Available: workbook validation only. */
  takenBy?: string;
}

/** A phone on a node's branch of the tree, with the lines it holds (earlier work included). */
export interface PhoneEntry {
  lines: number;
}

/** What a hierarchy node holds: its children (the first names) and the resources at it, by model. */
export interface NodeHoldings {
  children: number;
  childNames: string[];
  resources: { modelType: string; count: number }[];
}

export interface RulesView {
  /** The path a clash may be named from: the caller's node, else the node written at. */
  seenFrom(node: NodeRow): string;
  /**
   * Who holds `key` of `modelType` other than `selfPkid`: within the node ('node'), on the
   * node's branch ('up') or anywhere ('global').
   */
  keyHolder(modelType: string, key: string, scope: KeyScope, node: NodeRow, selfPkid?: string | null): KeyHolding | undefined;
  /** The inventory entry of a number at the node or the nearest ancestor holding it. */
  numberEntry(node: NodeRow, pattern: string): NumberEntry | undefined;
  /** The phone named `name` at the node, above or below it. */
  phoneOnBranch(node: NodeRow, name: string): PhoneEntry | undefined;
  nodeHoldings(node: NodeRow): NodeHoldings;
}
