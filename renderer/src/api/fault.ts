import type { Fault, FaultDetail } from '../../../main/service/contract/fault';

/** A fault from the service (contract/fault.ts) or from the way to it, as the UI shows it. */

export class ApiFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FaultDetail[] = [],
    readonly transactionId?: string,
  ) {
    super(message);
    this.name = 'ApiFault';
  }

  /** What the user can do about it, in one sentence. */
  get advice(): string {
    return adviceFor(this.status, this.code);
  }
}

export function adviceFor(status: number, code: string): string {
  if (status === 0) return 'The workstation service is not reachable: check that the app is still running, then try again.';
  if (status === 401) return 'Your session has ended: sign in again.';
  if (code === 'csrf-failed') return 'The page lost its security token: reload it and sign in again.';
  if (code === 'cancelled') return 'Nothing was changed.';
  if (code === 'remote-unreachable')
    return 'The remote deployment cannot be reached: check the network or VPN, or switch back to the Local workspace.';
  if (code === 'remote-timeout') return 'The remote deployment is slow: try again; for a change, look at its transactions first.';
  if (code === 'remote-tls') return "Fix the remote profile's certificate settings in Settings, then try again.";
  if (code === 'remote-home-unknown' || code === 'remote-home-not-found')
    return "In Settings, edit this deployment's profile: enter the home hierarchy, then switch to it again.";
  if (code === 'remote-auth') return "Correct the remote profile's user name or password in Settings.";
  // Offline staging (README: A day offline): a profile's workbook and its mirror live in the Sync panel.
  if (code === 'workbook-remote') return "This workbook is for a remote profile: push it from that profile's Sync panel (Settings, Sync).";
  if (code === 'mirror-missing') return "Pull the profile's mirror first (Settings, Sync, Pull now) while the remote can be reached.";
  if (status === 403) return 'Your role or place in the hierarchy does not allow this: ask an administrator, or work at a node you manage.';
  if (status === 404) return 'It may have been deleted or moved: refresh the view.';
  if (status === 409) return 'Something with the same key already exists, or a number is not available: change the value and try again.';
  if (status === 413) return 'The file is larger than the limit: split it and try again.';
  if (status >= 500) return 'The service failed: try again, and quote the reference in the message when you report it.';
  return 'Correct what the message names and try again.';
}

/** Reads a fault body; anything else becomes a fault that still says what happened. */
export function faultFrom(status: number, body: unknown): ApiFault {
  if (typeof body === 'object' && body !== null) {
    // Read as untrusted: any field of the fault shape may be missing or of another type.
    const fault = body as { [K in keyof Fault]?: unknown };
    if (typeof fault.message === 'string') {
      const details = Array.isArray(fault.details) ? (fault.details as FaultDetail[]) : [];
      return new ApiFault(
        status,
        typeof fault.code === 'string' ? fault.code : 'error',
        fault.message,
        details,
        typeof fault.transaction_id === 'string' ? fault.transaction_id : undefined,
      );
    }
  }
  return new ApiFault(status, 'unexpected-answer', `The service answered ${status} without a readable message.`);
}

export function asFault(error: unknown): ApiFault {
  if (error instanceof ApiFault) return error;
  return new ApiFault(0, 'unreachable', error instanceof Error ? error.message : String(error));
}
