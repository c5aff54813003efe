import type { JsonObject } from '../../api-types';
import type { Store } from '../../domain/store';
import type { ModelDef } from '../../models/types';
import type { InstanceRecord, Links } from '../../store/instances-repo';
import type { NodeRow } from '../../store/nodes-repo';
import type { TxResult } from '../engine';
import type { StepContext } from '../step-context';

export interface CreateInput {
  store: Store;
  model: ModelDef;
  node: NodeRow;
  /** Assigned before the transaction is queued, so a failed create still names its pkid. */
  pkid: string;
  data: JsonObject;
  /** Values prepared before the transaction (a password hash): never logged or stored as data. */
  secrets: Record<string, string>;
  /** A revert making again what a load deleted: the instances it linked to had these pkids, given to them again where free. */
  previousLinks?: Links;
}

export interface ModifyInput extends Omit<CreateInput, 'pkid'> {
  existing: InstanceRecord;
}

export interface RemoveInput {
  store: Store;
  model: ModelDef;
  existing: InstanceRecord;
}

/** The steps that create, modify and delete instances of one model family. */
export interface Workflow {
  create(ctx: StepContext, input: CreateInput): TxResult;
  modify(ctx: StepContext, input: ModifyInput): TxResult;
  remove(ctx: StepContext, input: RemoveInput): TxResult;
}
