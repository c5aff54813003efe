import type { CredentialVaultInfo } from '../service/contract/workstation-api';

/**
 * Where remote passwords are kept: never in the store, never in a log, never in an answer.
 * Two kinds: `MemoryVault` (server mode and the CLI, for the life of the process) and the
 * desktop shell's safeStorage vault (main/shell/safe-storage-vault.ts), encrypted by the OS.
 */
export interface CredentialVault {
  info(): CredentialVaultInfo;
  get(profileId: string): string | undefined;
  set(profileId: string, password: string): void;
  delete(profileId: string): void;
}

/** Process memory only: a restart forgets every password, and the profile says so (password_stored: false). */
export class MemoryVault implements CredentialVault {
  private readonly passwords = new Map<string, string>();

  info(): CredentialVaultInfo {
    return { kind: 'memory', persistent: false, warning: null };
  }

  get(profileId: string): string | undefined {
    return this.passwords.get(profileId);
  }

  set(profileId: string, password: string): void {
    this.passwords.set(profileId, password);
  }

  delete(profileId: string): void {
    this.passwords.delete(profileId);
  }
}
