import { v7 as uuidv7 } from 'uuid';
import type { App } from '../../../src/server/app';

/**
 * The registered API routes as the OpenAPI document (app.swagger(), generated from the routes' zod schemas)
 * describes them, so checks that must cover every route cover a route added later without anyone listing it.
 */

/** A JSON Schema as @fastify/swagger emits it for our zod schemas (the parts the generators read). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path: `/api/sites/{id}`. */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  /** The JSON body's schema; undefined when the route takes none, or no JSON. */
  body: JsonSchema | undefined;
  /** Open to anyone (no bearer). */
  public: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every /api operation of the document (Swagger UI's own routes are not in it). */
export function apiOperations(app: App): Operation[] {
  const document = app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, operation] of Object.entries(byMethod)) {
      const parameters = operation.parameters ?? [];
      const parameter = (where: string) =>
        parameters.filter((p) => p.in === where).map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }));
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameter('path'),
        query: parameter('query'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        public: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return operations;
}

export const describeOperation = (operation: Operation) => `${operation.method} ${operation.path}`;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The URL with each path parameter filled in (a fresh UUID unless given) and the query appended. */
export function urlOf(operation: Operation, query: Record<string, unknown> = {}, pathValues: Record<string, string> = {}): string {
  let path = operation.path;
  for (const param of operation.pathParams) {
    const value = pathValues[param.name] ?? String(sampleValue(param.schema));
    // why well-formed first: a generated value may hold a lone surrogate, which encodeURIComponent cannot encode
    // (URIError); a browser building the URL sends U+FFFD for it, and so does this (Node 20 has no toWellFormed).
    path = path.replace(`{${param.name}}`, encodeURIComponent(String(value).replace(LONE_SURROGATE, '\uFFFD')));
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.append(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The required query parameters with a value their schema accepts. */
export function sampleQuery(operation: Operation): Record<string, unknown> {
  return Object.fromEntries(operation.query.filter((p) => p.required).map((p) => [p.name, sampleValue(p.schema)]));
}

const nonNull = (schema: JsonSchema): JsonSchema | undefined => {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.find((option) => option.type !== 'null');
  return schema;
};

/** The type a schema names (the first that is not null). */
export function typeOf(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/**
 * One value the schema accepts, as small as it allows: required properties only, the least array length, the
 * shortest text. What the route makes of it (a 404 for the random ids, a 201) is not the point; it passes
 * validation, so a test can change one field and see that field refused.
 */
export function sampleValue(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.anyOf || schema.oneOf) return sampleValue(nonNull(schema) ?? {});
  if (schema.allOf && schema.allOf.length > 0) return sampleValue(Object.assign({}, ...schema.allOf) as JsonSchema);
  switch (typeOf(schema)) {
    case 'object': {
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name]) => required.has(name))
          .map(([name, property]) => [name, sampleValue(property)]),
      );
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleValue(schema.items ?? {}));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string':
      return sampleText(schema);
    case 'null':
      return null;
    default:
      return 'x';
  }
}

function sampleText(schema: JsonSchema): string {
  switch (schema.format) {
    case 'uuid':
      return uuidv7();
    case 'email':
      return 'fuzz@example.com';
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'uri':
      return 'https://example.com/';
  }
  if (schema.pattern) {
    const candidates = ['x', 'DE', '1', '#000000', 'EUR', 'pdf', '12345'];
    const pattern = new RegExp(schema.pattern);
    const fit = candidates.find((candidate) => pattern.test(candidate) && candidate.length >= (schema.minLength ?? 0) && candidate.length <= (schema.maxLength ?? Infinity));
    if (fit) return fit;
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1)).slice(0, schema.maxLength ?? Infinity);
}

/**
 * Where a field named `name` sits in a body schema: its dotted paths (`lang`, `items.0.lang`), through objects and
 * arrays (an array's first item).
 */
export function fieldPaths(schema: JsonSchema | undefined, name: string, prefix = ''): string[] {
  if (!schema) return [];
  const own = nonNull(schema) ?? schema;
  const paths: string[] = [];
  for (const [key, property] of Object.entries(own.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (key === name) paths.push(path);
    else paths.push(...fieldPaths(property, name, path));
  }
  if (own.items) paths.push(...fieldPaths(own.items, name, prefix ? `${prefix}.0` : '0'));
  return paths;
}

/**
 * A sample body with `value` at the dotted `path`, creating the objects and first array items on the way from
 * the schema (an optional parent that the sample left out is filled in with its own sample).
 */
export function sampleBodyWith(schema: JsonSchema, path: string, value: unknown): unknown {
  const body = sampleValue(schema);
  const keys = path.split('.');
  let target = body as Record<string, unknown> | unknown[];
  let current: JsonSchema = nonNull(schema) ?? schema;
  for (const [i, key] of keys.entries()) {
    const last = i === keys.length - 1;
    const child: JsonSchema = Array.isArray(target) ? (current.items ?? {}) : (current.properties?.[key] ?? {});
    if (last) {
      (target as Record<string, unknown>)[key] = value;
      break;
    }
    const slot = (target as Record<string, unknown>)[key];
    if (slot === undefined || slot === null || typeof slot !== 'object') {
      const sample = sampleValue(nonNull(child) ?? child);
      const filled = Array.isArray(sample) && sample.length === 0 ? [sampleValue(child.items ?? {})] : sample;
      (target as Record<string, unknown>)[key] = filled;
    } else if (Array.isArray(slot) && slot.length === 0) {
      slot.push(sampleValue((nonNull(child) ?? child).items ?? {}));
    }
    target = (target as Record<string, unknown>)[key] as Record<string, unknown> | unknown[];
    current = nonNull(child) ?? child;
  }
  return body;
}
