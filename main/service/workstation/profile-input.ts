import { X509Certificate } from 'node:crypto';
import { isJsonObject, type Json } from '../api-types';
import { homeHierarchyProblem } from '../contract/home-node';
import type { RemoteProfileInput } from '../contract/workstation-api';
import { ApiError, type FaultDetail } from '../errors';
import type { RemoteProfileRow } from '../store/remote-profiles-repo';

export const DEFAULT_TIMEOUTS = { connect_ms: 5_000, response_ms: 60_000, idle_ms: 30_000 };
const TIMEOUT_RANGE = { min: 100, max: 600_000 };
const MAX_PEM = 512 * 1024;
const KNOWN = new Set(['name', 'base_url', 'username', 'password', 'auth_mode', 'ca_pem', 'timeouts', 'release', 'home_hierarchy']);

/** The settable columns of a profile, checked; `password` apart, for the vault. */
export interface CheckedInput {
  fields: Partial<
    Pick<
      RemoteProfileRow,
      | 'name'
      | 'base_url'
      | 'username'
      | 'auth_mode'
      | 'ca_pem'
      | 'release'
      | 'home_hierarchy'
      | 'connect_timeout_ms'
      | 'response_timeout_ms'
      | 'idle_timeout_ms'
    >
  >;
  password?: string;
}

/**
 * A profile body checked field by field, every problem reported at once with its field. A
 * message never repeats a password, even a refused one.
 */
export function checkProfileInput(body: Json | undefined, creating: boolean): CheckedInput {
  if (!isJsonObject(body))
    throw new ApiError(400, 'validation-failed', 'Send the profile as a JSON object: {"name", "base_url", "username", "password", ...}.');
  const input = body as RemoteProfileInput & Record<string, Json>;
  const problems: FaultDetail[] = [];
  const fields: CheckedInput['fields'] = {};
  for (const key of Object.keys(input)) if (!KNOWN.has(key)) problems.push({ field: key, message: 'is not a field of a remote profile' });
  const required = (field: 'name' | 'base_url' | 'username'): void => {
    if (creating && input[field] === undefined) problems.push({ field, message: 'is required' });
  };
  required('name');
  required('base_url');
  required('username');
  if (input.name !== undefined) {
    if (typeof input.name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(input.name) && input.name.toLowerCase() !== 'local')
      fields.name = input.name;
    else problems.push({ field: 'name', message: 'must be 1 to 64 letters, digits, - or _, and not Local' });
  }
  if (input.base_url !== undefined) {
    const problem = baseUrlProblem(input.base_url);
    if (problem) problems.push({ field: 'base_url', message: problem });
    else fields.base_url = String(input.base_url).replace(/\/+$/, '');
  }
  if (input.username !== undefined) {
    if (typeof input.username === 'string' && input.username.trim() !== '' && input.username.length <= 256 && !input.username.includes(':'))
      fields.username = input.username;
    else problems.push({ field: 'username', message: 'must be 1 to 256 characters, without a colon' });
  }
  let password: string | undefined;
  if (input.password !== undefined) {
    if (typeof input.password === 'string' && input.password !== '' && input.password.length <= 1024) password = input.password;
    else problems.push({ field: 'password', message: 'must be 1 to 1024 characters' });
  }
  if (input.auth_mode !== undefined) {
    if (input.auth_mode === 'session' || input.auth_mode === 'basic') fields.auth_mode = input.auth_mode;
    else problems.push({ field: 'auth_mode', message: 'must be session or basic' });
  }
  if (input.ca_pem !== undefined) {
    const problem = input.ca_pem === null ? undefined : pemProblem(input.ca_pem);
    if (problem) problems.push({ field: 'ca_pem', message: problem });
    else fields.ca_pem = input.ca_pem === null || String(input.ca_pem).trim() === '' ? null : String(input.ca_pem);
  }
  if (input.release !== undefined) {
    if (input.release === null || (typeof input.release === 'string' && /^\d{1,3}(\.\d{1,3}){1,3}$/.test(input.release)))
      fields.release = input.release;
    else problems.push({ field: 'release', message: 'must be a release such as 20.1.1 or 21.1, or null to detect it' });
  }
  if (input.home_hierarchy !== undefined) {
    // Empty clears it, as null does: the Settings form sends what is typed.
    const home = typeof input.home_hierarchy === 'string' ? input.home_hierarchy.trim() : input.home_hierarchy;
    const problem =
      home === null || home === ''
        ? undefined
        : typeof home === 'string'
          ? homeHierarchyProblem(home)
          : "must be a dot path such as sys.hcs.Telco.Acme, a hierarchy node's pkid, or null";
    if (problem) problems.push({ field: 'home_hierarchy', message: problem });
    else fields.home_hierarchy = home === null || home === '' ? null : home;
  }
  if (input.timeouts !== undefined) checkTimeouts(input.timeouts, fields, problems);
  if (problems.length > 0)
    throw new ApiError(
      400,
      'validation-failed',
      `The remote profile is not valid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`,
      problems,
    );
  return { fields, password };
}

function baseUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return 'must be an http:// or https:// address';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http:// or https:// address, e.g. https://voss.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  // Credentials in the URL would be stored and shown in plain text: they go in username and password.
  if (url.username !== '' || url.password !== '')
    return 'must not hold a user name or password: type them in the User name and Password fields';
  if (url.search !== '' || url.hash !== '') return 'must not have a query or fragment';
  if (/\/api\/?$/.test(url.pathname)) return "must be the deployment's address, without /api/";
  return undefined;
}

function pemProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_PEM) return 'must be PEM text of at most 512 KB';
  if (value.trim() === '') return undefined;
  const blocks = value.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks) return 'must hold at least one -----BEGIN CERTIFICATE----- block';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return 'holds a certificate block that cannot be read';
    }
  }
  return undefined;
}

function checkTimeouts(value: Json, fields: CheckedInput['fields'], problems: FaultDetail[]): void {
  if (!isJsonObject(value)) {
    problems.push({ field: 'timeouts', message: 'must be an object of connect_ms, response_ms, idle_ms' });
    return;
  }
  const columns = { connect_ms: 'connect_timeout_ms', response_ms: 'response_timeout_ms', idle_ms: 'idle_timeout_ms' } as const;
  for (const [key, ms] of Object.entries(value)) {
    const column = columns[key as keyof typeof columns];
    if (!column) problems.push({ field: `timeouts.${key}`, message: 'is not a timeout: use connect_ms, response_ms, idle_ms' });
    else if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < TIMEOUT_RANGE.min || ms > TIMEOUT_RANGE.max) {
      problems.push({ field: `timeouts.${key}`, message: `must be whole milliseconds from ${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max}` });
    } else fields[column] = ms;
  }
}
