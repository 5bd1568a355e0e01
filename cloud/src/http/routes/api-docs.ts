import type { FastifyInstance } from 'fastify';
import { publicApiOpenApi } from '../../domain/public-api/openapi.js';
import { NEVER_FRAMED } from './pages.js';

/**
 * `GET /api/v1/openapi.json` and its readable page `GET /api/v1/docs`. Public (no API key): they
 * describe the API, they hold no data. Registered outside the key-checking scope of the API itself.
 */
export function registerApiDocs(app: FastifyInstance, deps: { publicBaseUrl?: string | undefined }): void {
  const documentFor = (host: string, protocol: string) => publicApiOpenApi(deps.publicBaseUrl ?? `${protocol}://${host}`, '1.0.0');

  app.get('/api/v1/openapi.json', async (request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(JSON.stringify(documentFor(request.host, request.protocol), null, 2)),
  );

  app.get('/api/v1/docs', async (request, reply) =>
    reply.header('cache-control', 'public, max-age=300').headers(NEVER_FRAMED).type('text/html; charset=utf-8').send(docsPage(documentFor(request.host, request.protocol))),
  );
}

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Schema = { type?: string | string[]; anyOf?: Schema[]; items?: Schema; properties?: Record<string, Schema>; pattern?: string; format?: string; const?: unknown; allOf?: Schema[] };

/** A schema's type in words: "string", "integer or null", "array of objects", "string (asset_…)". */
export function typeInWords(schema: Schema): string {
  if (schema.anyOf) return schema.anyOf.map(typeInWords).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return `array of ${schema.items ? typeInWords(schema.items) : 'values'}`;
  if (schema.type === 'object' || schema.properties) return 'object';
  const base = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  const prefix = schema.pattern?.match(/^\^([a-z]+_)$/)?.[1];
  if (prefix) return `${base} (${prefix}…)`;
  if (schema.format) return `${base} (${schema.format})`;
  return base;
}

function fieldRows(schema: Schema, prefix = ''): string[] {
  const properties = schema.properties ?? schema.allOf?.reduce<Record<string, Schema>>((all, part) => ({ ...all, ...(part.properties ?? {}) }), {}) ?? {};
  return Object.entries(properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const row = `<tr><td><code>${escape(path)}</code></td><td>${escape(typeInWords(field))}</td></tr>`;
    const nested = field.properties ? fieldRows(field, `${path}.`) : field.type === 'array' && field.items?.properties ? fieldRows(field.items, `${path}[].`) : [];
    return [row, ...nested];
  });
}

function docsPage(document: Record<string, any>): string {
  const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const parameters = (op.parameters as any[]).length
        ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>meaning</th></tr>${(op.parameters as any[])
            .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${escape(p.description)}</td></tr>`)
            .join('')}</table>`
        : '';
      const responses = Object.entries(op.responses as Record<string, any>)
        .map(([status, response]) => {
          const schema = response.content?.['application/json']?.schema as Schema | undefined;
          const fields = schema ? fieldRows(schema) : [];
          const table = fields.length ? `<details><summary>Fields</summary><table><tr><th>field</th><th>type</th></tr>${fields.join('')}</table></details>` : '';
          return `<li><strong>${escape(status)}</strong> ${escape(response.description)}${table}</li>`;
        })
        .join('');
      return `<section id="${escape(op.operationId)}"><h3><span class="method">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code> · ${escape(op.summary)}</h3>
<p>${escape(op.description)}</p>${parameters}<h4>Responses</h4><ul>${responses}</ul></section>`;
    }),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:24px;color:#1c2430}
h1{margin-bottom:4px}code{font:13px ui-monospace,monospace;background:#f1f3f6;padding:1px 4px;border-radius:3px}
section{border-top:1px solid #dde2e8;padding-top:8px;margin-top:20px}.method{background:#1f4e8c;color:#fff;padding:2px 8px;border-radius:4px;font-size:13px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #dde2e8;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f6f7f9}
details summary{cursor:pointer;color:#1f4e8c}.muted{color:#5b6675}
</style></head><body>
<h1>${escape(document.info.title)}</h1>
<p class="muted">Version ${escape(document.info.version)} · base URL <code>${escape(document.servers[0].url)}</code> · machine-readable: <a href="/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1)</p>
<p>${escape(document.info.description)}</p>
<h2>Endpoints</h2>
<ul>${Object.entries(document.paths as Record<string, Record<string, any>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `<li><a href="#${escape(op.operationId)}">${escape(method.toUpperCase())} ${escape(path)}</a> · ${escape(op.summary)}</li>`))
    .join('')}</ul>
${operations.join('\n')}
</body></html>`;
}
