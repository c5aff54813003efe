import type { JsonObject } from '../api-types';
import type { ModelDef } from '../models/types';
import { fieldProblems, requiredProblems, type FieldProblem } from '../schema/field-problems';

/**
 * The problems of a row's values: the model's own field checks (schema/field-problems.ts, the
 * same the API runs on a POST or PUT), every one at once with its field path and code, each
 * then reported as an issue in its cell (validate-row.ts).
 */
export type ValueProblem = FieldProblem;

/** Every problem of the values a row gives (`payload`). */
export const valueProblems = (model: ModelDef, data: JsonObject): ValueProblem[] => fieldProblems(model, data);

/** Required fields without a value in the whole data the instance will hold, nested ones included. */
export const missingProblems = (model: ModelDef, data: JsonObject): ValueProblem[] => requiredProblems(model, data, true);
