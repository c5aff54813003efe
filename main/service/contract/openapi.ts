/**
 * The shape of the published API description (OpenAPI 3.1, GET /api/openapi.json), as far as the
 * service builds it (main/service/openapi/) and the app's Help page and the fuzz test read it.
 */
export type JsonSchema = { [keyword: string]: unknown };

export interface Operation {
  operationId: string;
  summary: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

export type PathItem = Partial<Record<'get' | 'post' | 'put' | 'delete', Operation>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
  security: Record<string, string[]>[];
}
