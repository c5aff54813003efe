import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SafeStorageVault, type SafeStorageLike } from '../../main/shell/safe-storage-vault';

/**
 * The desktop vault without Electron (its binary cannot run here): Electron's safeStorage is
 * stood in for by a real AES-GCM cipher with the same calls, as the OS key store would seal.
 */
function osKeyStore(backend: ReturnType<SafeStorageLike['getSelectedStorageBackend']>, available = true): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(text: string): Buffer {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(sealed: Buffer): string {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'ws-vault-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 'vault-secret-Plain-Text-9';

describe('the safeStorage vault', () => {
  it('keeps passwords sealed on disk across restarts, readable by this user only, never in plain text', () => {
    const storage = osKeyStore('gnome_libsecret');
    const file = join(dir, 'remote-credentials.json');
    const vault = new SafeStorageVault(storage, file, 'linux');
    vault.set('profile-a', SECRET);
    vault.set('profile-b', 'other');
    expect(vault.info()).toEqual({ kind: 'safe-storage', persistent: true, warning: null });
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(file, 'utf8')).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const restarted = new SafeStorageVault(storage, file, 'linux');
    expect(restarted.get('profile-a')).toBe(SECRET);
    restarted.delete('profile-a');
    expect(new SafeStorageVault(storage, file, 'linux').get('profile-a')).toBeUndefined();
    expect(new SafeStorageVault(storage, file, 'linux').get('profile-b')).toBe('other');
  });

  it('warns when Linux offers no key store (basic_text), and keeps passwords in memory where nothing can encrypt', () => {
    const weak = new SafeStorageVault(osKeyStore('basic_text'), join(dir, 'weak.json'), 'linux');
    expect(weak.info().warning).toMatch(/No key store/);
    const none = new SafeStorageVault(osKeyStore('unknown', false), join(dir, 'none.json'), 'linux');
    none.set('p', SECRET);
    expect(none.get('p')).toBe(SECRET);
    expect(none.info()).toMatchObject({ persistent: false, warning: expect.stringMatching(/memory only/) });
    expect(() => statSync(join(dir, 'none.json'))).toThrow();
  });

  it('treats a password sealed by another key store as not held', () => {
    const file = join(dir, 'foreign.json');
    new SafeStorageVault(osKeyStore('kwallet5'), file, 'linux').set('p', SECRET);
    expect(new SafeStorageVault(osKeyStore('kwallet5'), file, 'linux').get('p')).toBeUndefined();
  });
});
