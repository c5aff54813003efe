import { openEventStream } from './event-source';
import { urlOf, type Transport, type TransportAnswer, type TransportRequestOptions } from './transport';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const TEXT_TYPES = /^(application\/json|text\/)/;

/**
 * Same-origin HTTP (server and browser mode). The session cookie travels by itself; the CSRF
 * token from the last answer is echoed on every write, as the service requires. Requests are
 * marked XMLHttpRequest so a 401 never pops up the browser's own password prompt. Events come
 * as Server-Sent Events from `/workstation/events/`, one stream however many listen.
 */
export function createHttpTransport(baseUrl = '', fetcher: typeof fetch = (...args) => fetch(...args)): Transport {
  let csrfToken: string | undefined;
  const events = openEventStream(`${baseUrl}/workstation/events/`);
  return {
    signIn: 'session',
    onEvent: events,
    async request(method: string, path: string, options: TransportRequestOptions = {}): Promise<TransportAnswer> {
      const upper = method.toUpperCase();
      const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', ...options.headers };
      if (options.body !== undefined && typeof options.body === 'string' && !headers['content-type'])
        headers['content-type'] = 'application/json';
      if (WRITES.has(upper) && csrfToken) headers['X-CSRFToken'] = csrfToken;
      const response = await fetcher(`${baseUrl}${urlOf(path, options.query)}`, {
        method: upper,
        headers,
        body: options.body as BodyInit | undefined,
        credentials: 'same-origin',
      });
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        answerHeaders[name.toLowerCase()] = value;
      });
      if (answerHeaders['x-csrftoken']) csrfToken = answerHeaders['x-csrftoken'];
      if (path === '/logout/' && response.ok) csrfToken = undefined;
      const type = answerHeaders['content-type'] ?? '';
      // A file to download is kept byte for byte, text or not: text() would drop a CSV's byte-order mark.
      const download = /^attachment/i.test(answerHeaders['content-disposition'] ?? '');
      const body =
        !download && (TEXT_TYPES.test(type) || type === '') ? await response.text() : new Uint8Array(await response.arrayBuffer());
      return { status: response.status, headers: answerHeaders, body };
    },
  };
}
