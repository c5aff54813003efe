import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt with Node's default cost: about 50 ms per hash, on the thread pool. */
const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, so the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encoded(salt, await derive(password, salt, PARAMS));
}

function encoded(salt: Buffer, key: Buffer): string {
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * For a bulk-load row that sets a password: rows run inside their synchronous transaction, so
 * the hash is made there (about 50 ms per user row).
 */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return encoded(salt, scryptSync(password, salt, KEY_LENGTH, PARAMS));
}
