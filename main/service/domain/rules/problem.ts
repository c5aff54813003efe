import { ApiError } from '../../errors';

/**
 * What a rule refuses, in the words both doors use: the field it is about (a dot path, or ''
 * for the row or request as a whole), the sheet issue code, one message (a sentence naming the
 * subject), and what the API answers for it (decisions.md fixes the HTTP codes and fault codes).
 */
export interface RuleProblem {
  field: string;
  code: string;
  message: string;
  httpCode: number;
  apiCode: string;
}

export const conflictProblem = (field: string, code: string, message: string): RuleProblem => ({
  field,
  code,
  message,
  httpCode: 409,
  apiCode: 'conflict',
});

/** The fault a write answers for a problem: a 400 names its field in the details, as validation faults do. */
export function problemError(problem: RuleProblem): ApiError {
  const details = problem.httpCode === 400 && problem.field ? [{ field: problem.field, message: problem.message }] : undefined;
  return new ApiError(problem.httpCode, problem.apiCode, problem.message, details);
}

/** The live write path: the first problem fails the step it is found in. */
export function throwIfProblem(problem: RuleProblem | undefined): void {
  if (problem) throw problemError(problem);
}

/** A problem's message without its final full stop, for a sentence that goes on (an issue's own text adds it back). */
export const clause = (message: string): string => (message.endsWith('.') ? message.slice(0, -1) : message);
