import { useEffect, useMemo, useState } from 'react';
import type { OpenApiDocument, Operation, Parameter } from '../../../main/service/contract/openapi';
import { Loading } from '../components/States';
import { useStores } from '../store/stores';

/**
 * Help: the API reference, read from the service's own description (GET /api/openapi.json), for
 * integration developers who use server mode as a local simulator of a remote deployment. Every
 * path with its methods, what each does, and the parameters it takes; a filter narrows it.
 */
export function HelpView() {
  const { client } = useStores();
  const [doc, setDoc] = useState<OpenApiDocument>();
  const [problem, setProblem] = useState<string>();
  const [filter, setFilter] = useState('');
  useEffect(() => {
    client
      .get<OpenApiDocument>('/api/openapi.json')
      .then(setDoc, (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, [client]);
  const rows = useMemo(() => operationsOf(doc, filter), [doc, filter]);
  return (
    <section className="help" aria-label="Help">
      <h1 className="view-title">API reference</h1>
      <p className="muted">
        The service answers the API below at its own address in server mode (<code>workstation serve</code>), with Basic authentication or a
        session. The full description, OpenAPI 3.1, is at <code>/api/openapi.json</code>: give it to a client generator or a fuzzer. Every
        refusal has the fault shape <code>{'{success, http_code, code, message}'}</code>.
      </p>
      {problem && <p role="alert">The API description could not be read: {problem}</p>}
      {!doc && !problem && <Loading what="the API description" />}
      {doc && (
        <>
          <label>
            Filter <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="path or words" />
          </label>
          <table aria-label="API operations">
            <thead>
              <tr>
                <th>Method</th>
                <th>Path</th>
                <th>What it does</th>
                <th>Parameters</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ method, path, operation }) => (
                <tr key={`${method} ${path}`}>
                  <td>
                    <code>{method.toUpperCase()}</code>
                  </td>
                  <td>
                    <code>{path}</code>
                  </td>
                  <td>{operation.summary}</td>
                  <td>{(operation.parameters ?? []).map(parameterText).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

interface Row {
  method: string;
  path: string;
  operation: Operation;
}

function operationsOf(doc: OpenApiDocument | undefined, filter: string): Row[] {
  if (!doc) return [];
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation: operation as Operation })))
    .filter((row) => words.every((word) => `${row.method} ${row.path} ${row.operation.summary}`.toLowerCase().includes(word)));
}

function parameterText(parameter: Parameter): string {
  return parameter.in === 'path' || parameter.required ? `${parameter.name}*` : parameter.name;
}
