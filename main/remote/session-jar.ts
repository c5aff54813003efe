import type { IncomingHttpHeaders } from 'node:http';

/**
 * The cookies and CSRF token a remote deployment gave the proxy for one profile. A real remote
 * sets `sessionid` and `csrftoken` on every authenticated answer (spec, Authentication 2), so
 * every answer is read into the jar, not only the login's.
 */
export class SessionJar {
  private readonly cookies = new Map<string, string>();
  private token: string | undefined;

  get signedIn(): boolean {
    return this.cookies.has('sessionid');
  }

  get csrfToken(): string | undefined {
    return this.token ?? this.cookies.get('csrftoken');
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  absorb(headers: IncomingHttpHeaders): void {
    const raw = headers['set-cookie'];
    for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
      const pair = line.split(';')[0];
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = headers['x-csrftoken'];
    if (typeof token === 'string' && token !== '') this.token = token;
  }

  clear(): void {
    this.cookies.clear();
    this.token = undefined;
  }
}
