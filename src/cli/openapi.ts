// `compsim openapi`: prints the OpenAPI 3.1 document built from the route table (the one served at /api/openapi.json).
import { buildOpenApi } from '../http/openapi.js';
import { ROUTES } from '../http/resources/index.js';
import { packageVersion } from '../world/world.js';
import { API_VERSIONS } from '../domain/versions.js';
import { bool, choice, failure, parseFlags, str } from './args.js';

export const OPENAPI_USAGE = `Usage: compsim openapi [--server-url <url>] [--no-sim] [--api-version <v>] > openapi.json

Prints the OpenAPI 3.1 document of every compsim route (both generations and /api/sim/*).
  --server-url <url>  servers[0] of the document (default: none, i.e. relative to where it is served)
  --no-sim            leave out the simulation control API /api/sim/*
  --api-version <v>   spec | 2026-08 | 2025-10: describe that version's routes (default spec)
  -h, --help          show this help`;

/** Runs `compsim openapi`; returns the exit code. */
export async function openapiMain(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    out.write(`${OPENAPI_USAGE}\n`);
    return 0;
  }
  try {
    const { values: v } = parseFlags(argv, { 'server-url': str, 'no-sim': bool, 'api-version': str });
    const apiVersion = choice('--api-version', v['api-version'] ?? 'spec', API_VERSIONS);
    const doc = buildOpenApi(ROUTES, { version: packageVersion(), simApi: !v['no-sim'], serverUrl: v['server-url'], apiVersion });
    out.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  } catch (e) {
    return failure('compsim openapi', OPENAPI_USAGE, e, err);
  }
}
