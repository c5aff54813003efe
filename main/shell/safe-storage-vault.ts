import type { SafeStorage } from 'electron';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CredentialVault } from '../remote/credential-vault';
import type { CredentialVaultInfo } from '../service/contract/workstation-api';

/** The part of Electron's safeStorage the vault uses, so it is type-checked against Electron's own typings. */
export type SafeStorageLike = Pick<SafeStorage, 'encryptString' | 'decryptString' | 'isEncryptionAvailable' | 'getSelectedStorageBackend'>;

interface VaultFile {
  version: 1;
  /** profile id -> base64 of safeStorage's ciphertext */
  entries: Record<string, string>;
}

const BASIC_TEXT_WARNING =
  'No key store (GNOME Keyring, KWallet) is available: remote passwords are encrypted with a key built into the app, which keeps them from casual reading only. Install and unlock a key store, or use server mode, which keeps them in memory only.';
const NO_ENCRYPTION_WARNING =
  'This system offers no encryption for stored secrets: remote passwords are kept in memory only and must be entered again after a restart.';

/**
 * The desktop app's vault: passwords encrypted by the OS (Keychain, DPAPI, libsecret/KWallet)
 * through Electron's safeStorage, the ciphertext in `remote-credentials.json` in the data folder
 * (never in the store). Where the OS cannot encrypt, passwords stay in memory and the vault says
 * so; on Linux without a key store (`basic_text`) it works and warns.
 */
export class SafeStorageVault implements CredentialVault {
  private readonly decrypted = new Map<string, string>();
  private readonly encrypting: boolean;
  private readonly warning: string | null;

  constructor(
    private readonly storage: SafeStorageLike,
    private readonly file: string,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.encrypting = storage.isEncryptionAvailable();
    const backend = platform === 'linux' && this.encrypting ? storage.getSelectedStorageBackend() : undefined;
    this.warning = !this.encrypting ? NO_ENCRYPTION_WARNING : backend === 'basic_text' ? BASIC_TEXT_WARNING : null;
  }

  info(): CredentialVaultInfo {
    return { kind: 'safe-storage', persistent: this.encrypting, warning: this.warning };
  }

  get(profileId: string): string | undefined {
    const known = this.decrypted.get(profileId);
    if (known !== undefined || !this.encrypting) return known;
    const sealed = this.read().entries[profileId];
    if (sealed === undefined) return undefined;
    try {
      const password = this.storage.decryptString(Buffer.from(sealed, 'base64'));
      this.decrypted.set(profileId, password);
      return password;
    } catch {
      // Sealed by another OS user or key store: as if none were held; the profile asks for it again.
      return undefined;
    }
  }

  set(profileId: string, password: string): void {
    this.decrypted.set(profileId, password);
    if (!this.encrypting) return;
    const contents = this.read();
    contents.entries[profileId] = this.storage.encryptString(password).toString('base64');
    this.write(contents);
  }

  delete(profileId: string): void {
    this.decrypted.delete(profileId);
    if (!this.encrypting) return;
    const contents = this.read();
    delete contents.entries[profileId];
    this.write(contents);
  }

  private read(): VaultFile {
    if (!existsSync(this.file)) return { version: 1, entries: {} };
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<VaultFile>;
      return { version: 1, entries: parsed.entries && typeof parsed.entries === 'object' ? { ...parsed.entries } : {} };
    } catch {
      return { version: 1, entries: {} };
    }
  }

  /** Whole or not at all: a crash mid-write leaves the previous file. Readable by this OS user only. */
  private write(contents: VaultFile): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(contents), { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}
