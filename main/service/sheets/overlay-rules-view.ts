import { onBranch } from '../domain/business-key';
import { storedHoldings } from '../domain/rules/live-view';
import type { KeyHolding, KeyScope, NodeHoldings, NumberEntry, PhoneEntry, RulesView } from '../domain/rules/rules-view';
import type { NodeRow } from '../store/nodes-repo';
import { inventoryHolder, keyHolders, phoneHolder } from './key-lookup';
import type { PhoneInfo, RowCheck } from './validate-context';
import { refText } from './validate-overlay';

/**
 * The rules' read interface (domain/rules/rules-view.ts) for workbook validation: the store as
 * it will be once the earlier rows have run, that is the store (read the fast way, key-lookup.ts)
 * plus the validation overlay. Every overlay read goes through the overlay's own methods, so a
 * tracked overlay (workbooks/tracked-overlay.ts) records exactly what each row read.
 *
 * One view serves a whole validation, pointed at the row under validation (`check`): it makes
 * nothing per row but what a problem needs.
 */
const PHONE = 'device/cucm/Phone';

export class OverlayRulesView implements RulesView {
  /** The row being validated. */
  check!: RowCheck;
  /** The answer of phoneOnBranch, reused: valid until the next call. */
  private readonly phone: PhoneEntry = { lines: 0 };

  seenFrom(): string {
    return this.check.caller.callerPath;
  }

  keyHolder(modelType: string, key: string, scope: KeyScope, node: NodeRow, selfPkid?: string | null): KeyHolding | undefined {
    const { overlay, store, sheet } = this.check;
    const branch = scope === 'up' ? (path: string): boolean => onBranch(node.path, path) : undefined;
    const earlier = overlay.findAdded(modelType, key, branch);
    if (earlier) return { hierarchyPath: earlier.path, addedBy: refText(earlier.ref, sheet.name) };
    return keyHolders(store, modelType, key).find(
      (record) => record.pkid !== selfPkid && overlay.goneBy(record.pkid) === undefined && (!branch || branch(record.hierarchyPath)),
    );
  }

  numberEntry(node: NodeRow, pattern: string): NumberEntry | undefined {
    const { overlay, store, sheet } = this.check;
    const entry = inventoryHolder(store, node.path, pattern);
    if (!entry) return undefined;
    const earlier = overlay.inventoryState(entry.pkid);
    if (!earlier) return entry;
    const takenBy = earlier.status === 'Available' ? undefined : refText(earlier.ref, sheet.name);
    return { pkid: entry.pkid, hierarchyPath: entry.hierarchyPath, status: earlier.status, takenBy };
  }

  phoneOnBranch(node: NodeRow, name: string): PhoneEntry | undefined {
    const { overlay } = this.check;
    const stored = this.storedPhone(name);
    const present = stored !== null && overlay.goneBy(stored.pkid) === undefined && onBranch(node.path, stored.path);
    if (!present && !overlay.findAdded(PHONE, JSON.stringify([name]), (path) => onBranch(node.path, path))) return undefined;
    this.phone.lines = (present ? stored.lines : 0) + overlay.linesAdded(name);
    return this.phone;
  }

  nodeHoldings(node: NodeRow): NodeHoldings {
    return storedHoldings(this.check.store, node);
  }

  /** A stored phone by name, looked up once per validation. */
  private storedPhone(name: string): PhoneInfo | null {
    const { cache, store } = this.check;
    let phone = cache.phones.get(name);
    if (phone === undefined) {
      const holder = phoneHolder(store, name);
      cache.phones.set(name, (phone = holder ? { pkid: holder.pkid, path: holder.hierarchyPath, lines: holder.lines } : null));
    }
    return phone;
  }
}

/** The view of a row's validation: one per validation, pointed at this row. */
export function rulesViewOf(check: RowCheck): OverlayRulesView {
  const view = (check.cache.rules ??= new OverlayRulesView());
  view.check = check;
  return view;
}
