// `compsim openapi`: prints the OpenAPI 3.1 document built from the route table (the one served at /api/openapi.json).
import { buildOpenApi } from '../http/openapi.js';
import { ROUTES } from '../http/routes/index.js';
import { packageVersion } from '../world.js';
import { UsageError } from './args.js';
import { walkFlags } from './flags.js';

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
  let serverUrl: string | undefined;
  let simApi = true;
  try {
    walkFlags(argv, (f) => {
      if (f.name === '--server-url') serverUrl = f.value();
      else if (f.name === '--no-sim') {
        f.noValue();
        simApi = false;
      } else throw new UsageError(`unknown option '${f.raw}'`);
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`compsim openapi: ${e.message}\n\n${OPENAPI_USAGE}\n`);
    return 2;
  }
  const doc = buildOpenApi(ROUTES, { version: packageVersion(), simApi, ...(serverUrl !== undefined ? { serverUrl } : {}) });
  out.write(`${JSON.stringify(doc, null, 2)}\n`);
  return 0;
}
