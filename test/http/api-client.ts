import { TEST_PASSWORD } from './serve-process';

/**
 * A thin HTTP client over Node's global fetch: Basic auth by default, JSON in and out, and the
 * raw status and headers kept so tests can assert on the wire format itself.
 */
export interface Credentials {
  username: string;
  password: string;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the answer is not JSON. */
  body: T;
}

export interface CallOptions {
  /** Serialized as JSON. */
  json?: unknown;
  /** Sent as is (malformed JSON, oversized bodies). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** false sends no Authorization header at all. */
  auth?: Credentials | false;
}

export const ADMIN: Credentials = { username: 'admin', password: TEST_PASSWORD };

export function basicAuth({ username, password }: Credentials): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: Credentials = ADMIN,
  ) {}

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.auth === undefined ? this.credentials : options.auth;
    if (auth) headers.authorization = basicAuth(auth);
    let body: string | Buffer | undefined = options.raw;
    if (options.json !== undefined) body = JSON.stringify(options.json);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    return { status: response.status, headers: response.headers, text, body: (isJson ? JSON.parse(text) : undefined) as T };
  }

  get<T>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
    return this.call<T>('GET', path, options);
  }

  post<T>(path: string, json: unknown, options: CallOptions = {}): Promise<Answer<T>> {
    return this.call<T>('POST', path, { ...options, json });
  }

  put<T>(path: string, json: unknown, options: CallOptions = {}): Promise<Answer<T>> {
    return this.call<T>('PUT', path, { ...options, json });
  }

  delete<T>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
    return this.call<T>('DELETE', path, options);
  }

  /** Uploads a file as a browser or curl does (multipart, field `uploadedfile`) for `hierarchy`. */
  async upload(name: string, bytes: Uint8Array, hierarchy: string): Promise<Answer<unknown>> {
    const form = new FormData();
    form.append('uploadedfile', new Blob([bytes]), name);
    const response = await fetch(new URL(`/api/uploadfiles/?hierarchy=${encodeURIComponent(hierarchy)}`, this.baseUrl), {
      method: 'POST',
      headers: { authorization: basicAuth(this.credentials) },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as unknown };
  }

  /** The `pagination.total` of a list, for before/after counts. */
  async total(modelType: string, hierarchy: string, extraQuery = ''): Promise<number> {
    const answer = await this.get<ListBody>(`/api/${modelType}/?hierarchy=${encodeURIComponent(hierarchy)}&limit=1${extraQuery}`);
    if (answer.status !== 200) throw new Error(`listing ${modelType} at ${hierarchy} gave ${answer.status}: ${answer.text}`);
    return answer.body.pagination.total;
  }

  /** Every resource of a list, page by page (the maximum page is 2000). */
  async listAll<D>(modelType: string, hierarchy: string, extraQuery = ''): Promise<Resource<D>[]> {
    const all: Resource<D>[] = [];
    for (let skip = 0; ; skip += 2000) {
      const path = `/api/${modelType}/?hierarchy=${encodeURIComponent(hierarchy)}&limit=2000&skip=${skip}${extraQuery}`;
      const answer = await this.get<ListBody<D>>(path);
      if (answer.status !== 200) throw new Error(`GET ${path} gave ${answer.status}: ${answer.text}`);
      all.push(...answer.body.resources);
      if (answer.body.resources.length < 2000) return all;
    }
  }
}

/** The fault shape of decisions.md. */
export interface Fault {
  success: false;
  http_code: number;
  code: string;
  message: string;
  details?: { field: string; message: string }[];
  transaction_id?: string;
}

export interface ResourceMeta {
  model_type: string;
  pkid: string;
  hierarchy: string;
  href: string;
}

export interface Resource<D> {
  data: D;
  meta: ResourceMeta;
}

export interface ListBody<D = Record<string, unknown>> {
  pagination: { skip: number; limit: number; total: number; maximum_limit: number };
  resources: Resource<D>[];
}

/** Sync mutator success (decisions.md). */
export interface SyncSuccess {
  success: true;
  pkid: string;
  model_type: string;
  transaction_id: string;
  href: string;
  meta: { uri: string; parent_id: string | null; summary_attrs: Record<string, unknown> };
}

/** Async (`nowait=true`) transaction reference. */
export interface TransactionRef {
  href: string;
  success: true;
  transaction_id: string;
}
