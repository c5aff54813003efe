/**
 * The fault shape of decisions.md: what every refusal looks like on the wire, under /api/ and
 * /workstation/, over HTTP and over IPC. Types only, without Node or DOM types: the service
 * (errors.ts builds it), the renderer (tsconfig.web.json includes this file) and the tests import it.
 */

/** One field's problem: `field` is the field's path (`lines.0.directory_number`), or '' for the whole request. */
export interface FaultDetail {
  field: string;
  message: string;
}

export interface Fault {
  success: false;
  http_code: number;
  /** `bad-parameter`, `not-found`, `conflict`, `permission-denied`, `remote-unreachable`... */
  code: string;
  message: string;
  details?: FaultDetail[];
  /** The transaction that failed, when the refusal came from one. */
  transaction_id?: string;
}
