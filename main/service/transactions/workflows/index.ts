import type { WorkflowName } from '../../models/types';
import { bundleWorkflow } from './bundle';
import { genericWorkflow } from './generic';
import { hierarchyNodeWorkflow } from './hierarchy-node';
import { lineRelationWorkflow } from './line-relation';
import type { Workflow } from './types';
import { userWorkflow } from './user';

export const WORKFLOWS: Record<WorkflowName, Workflow> = {
  generic: genericWorkflow,
  'hierarchy-node': hierarchyNodeWorkflow,
  'line-relation': lineRelationWorkflow,
  bundle: bundleWorkflow,
  user: userWorkflow,
};
