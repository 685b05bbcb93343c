// `compsim openapi`: prints the OpenAPI 3.1 document built from the route table (the one served at /api/openapi.json).
import { buildOpenApi } from '../http/openapi.js';
import { ROUTES } from '../http/resources/index.js';
import { packageVersion } from '../world.js';
import { bool, failure, parseFlags, str } from './args.js';

export const OPENAPI_USAGE = `Usage: compsim openapi [--server-url <url>] [--no-sim] > openapi.json

Prints the OpenAPI 3.1 document of every compsim route (both generations and /api/sim/*).
  --server-url <url>  servers[0] of the document (default: none, i.e. relative to where it is served)
  --no-sim            leave out the simulation control API /api/sim/*
  -h, --help          show this help`;

/** Runs `compsim openapi`; returns the exit code. */
export async function openapiMain(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    out.write(`${OPENAPI_USAGE}\n`);
    return 0;
  }
  try {
    const { values: v } = parseFlags(argv, { 'server-url': str, 'no-sim': bool });
    const doc = buildOpenApi(ROUTES, { version: packageVersion(), simApi: !v['no-sim'], serverUrl: v['server-url'] });
    out.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  } catch (e) {
    return failure('compsim openapi', OPENAPI_USAGE, e, err);
  }
}
