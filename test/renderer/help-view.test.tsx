// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../main/service/contract/openapi';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { HelpView } from '../../renderer/src/views/HelpView';
import { FakeTransport } from './fake-transport';

afterEach(cleanup);

const DOC: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Provisioning workstation', version: '1', description: '' },
  paths: {
    '/api/relation/LineRelation/': {
      get: {
        operationId: 'list',
        summary: 'Line Relation: a page of instances',
        parameters: [{ name: 'hierarchy', in: 'query', schema: {} }],
        responses: {},
      },
    },
    '/workstation/workbooks/{id}/edits/': {
      post: {
        operationId: 'edit',
        summary: 'One edit, one revision',
        parameters: [{ name: 'id', in: 'path', required: true, schema: {} }],
        responses: {},
      },
    },
  },
  components: { schemas: {}, securitySchemes: {} },
  security: [],
};

describe('help: the API reference', () => {
  it("lists the service's own description, each operation with its parameters, and filters it", async () => {
    const transport = new FakeTransport().on('GET', '/api/openapi.json', { body: DOC });
    render(
      <StoresContext.Provider value={createStores(transport)}>
        <HelpView />
      </StoresContext.Provider>,
    );
    await act(async () => undefined);
    const table = screen.getByRole('table', { name: 'API operations' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('/workstation/workbooks/{id}/edits/')).toBeTruthy();
    expect(within(table).getByText('id*')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'edit revision' } });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).queryByText('/api/relation/LineRelation/')).toBeNull();
  });
});
