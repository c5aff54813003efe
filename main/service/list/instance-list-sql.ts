import type { Store } from '../domain/store';
import type { ModelDef } from '../models/types';
import { traversalScope, type NodeRow } from '../store/nodes-repo';
import { instanceSource } from './instance-source';
import type { ListParams } from './list-params';
import { buildListSql, scopeNodes, type ListSql } from './list-sql';
import { PlanChoices, scopeProbe, type BoundSql, type ProbeCounts } from './scope-plan';

/** The plan choices made on the service's thread, per store (a choice is about its rows). */
const choicesByStore = new WeakMap<Store, PlanChoices>();

/** Whether a model's rows in a scope are best read from the scope's nodes (scope-plan.ts). */
export function narrowHere(store: Store, probe: BoundSql): boolean {
  let choices = choicesByStore.get(store);
  if (!choices) choicesByStore.set(store, (choices = new PlanChoices()));
  return choices.narrow(
    probe,
    (sql) =>
      store
        .statement(sql.sql)
        .raw(true)
        .get(...sql.params) as ProbeCounts,
  );
}

/**
 * The page and count SQL of a list of a model's instances at a node, in the plan that suits
 * the scope's size: a small site's list in a big store is read from its node, not by walking
 * the whole model's index (0.8 s for a 5-line site among 1,000,000 lines).
 */
export function instanceListSql(store: Store, model: ModelDef, params: ListParams, node: NodeRow): ListSql {
  const scope = traversalScope(params.traversal, node);
  const narrow = narrowHere(store, scopeProbe(model.modelType, scopeNodes(scope)));
  return buildListSql(instanceSource(model, params.summary), params, scope, 'i.hierarchy_pkid', narrow ? 'nodes' : 'index');
}
