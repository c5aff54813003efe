import { createHash } from 'node:crypto';
import type { RemoteProfileRow } from '../service/store/remote-profiles-repo';
import type { CredentialVault } from './credential-vault';
import type { RemoteTarget } from './remote-target';

/**
 * A profile's password is kept for the address it was entered for: the deployment's URL, the
 * remote user name and the private CA (issue 30, finding 5: a second admin who was never told
 * the password pointed the profile at a listener of theirs, pressed Test connection, and the
 * listener received the user name and password in clear). Beside each password the vault keeps
 * a digest of that address (`<profile id>#for`); a password whose digest is not the profile's
 * current one is dropped and never sent, whichever way the profile was changed (this service's
 * PUT, or the CLI in another process beside a running server). A password held from before
 * digests were kept is dropped too: it is asked for once more.
 */
export interface SecretAddress {
  id: string;
  /** The deployment's URL as the profile holds it (`https://voss.example.com/base`). */
  baseUrl: string;
  username: string;
  caPem: string | null;
}

export const targetAddress = (target: Pick<RemoteTarget, 'id' | 'origin' | 'basePath' | 'username' | 'caPem'>): SecretAddress => ({
  id: target.id,
  baseUrl: `${target.origin}${target.basePath}`,
  username: target.username,
  caPem: target.caPem,
});

export const rowAddress = (row: Pick<RemoteProfileRow, 'pkid' | 'base_url' | 'username' | 'ca_pem'>): SecretAddress => ({
  id: row.pkid,
  baseUrl: row.base_url,
  username: row.username,
  caPem: row.ca_pem,
});

const bindingKey = (id: string): string => `${id}#for`;

function digestOf(address: SecretAddress): string {
  const url = new URL(address.baseUrl);
  const where = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return createHash('sha256')
    .update(`${where}\n${address.username}\n${address.caPem ?? ''}`)
    .digest('hex');
}

export function keepSecret(vault: CredentialVault, address: SecretAddress, password: string): void {
  vault.set(address.id, password);
  vault.set(bindingKey(address.id), digestOf(address));
}

/** The password held for this address, or undefined (and none held any more) when it was entered for another. */
export function secretFor(vault: CredentialVault, address: SecretAddress): string | undefined {
  const password = vault.get(address.id);
  if (password === undefined) return undefined;
  if (vault.get(bindingKey(address.id)) === digestOf(address)) return password;
  dropSecret(vault, address.id);
  return undefined;
}

export function dropSecret(vault: CredentialVault, id: string): void {
  vault.delete(id);
  vault.delete(bindingKey(id));
}
