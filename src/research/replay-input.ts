// A replay's inputs, read as hostile: recorded trades (CSV or JSON), price tapes, starting balances and a fork directory's manifest, each bounded and checked field by field.
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setOwn } from '../harness/interpolate.js';
import { CsvReadError, parseCsv } from './csv.js';

/** One recorded trade (times in epoch ms; amounts as given). */
export interface ReplayTrade {
  timestamp: number; agent: string; fromToken: string; toToken: string; amount: string; reason: string;
  fromChain?: string; toChain?: string; fromSpecificChain?: string; toSpecificChain?: string;
}

/** Price tapes: `chain:address` -> [[epochMs, price], ...]. */
export type Tapes = Record<string, [number, number][]>;

/** A starting balance of every agent. */
export interface ReplayBalance { specificChain: string; tokenSymbol: string; amount: number }

/** Thrown for unreadable input files (message names the file and the line or field). */
export class ReplayInputError extends Error {}

/** An input file that cannot be read at all (missing, unreadable, too large): its path and the bare reason, apart. */
export class InputFileError extends ReplayInputError {
  constructor(readonly path: string, readonly reason: string, message = `${path}: ${reason}`) {
    super(message);
  }
}

/** Largest input file read (trades, tape, balances, manifest): a week of 200,000 trades is about 20 MB. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** Most trades one replay takes. */
export const MAX_TRADES = 2_000_000;
/** Most tape points over all tokens. */
export const MAX_TAPE_POINTS = 10_000_000;
/** Most starting-balance rows. */
export const MAX_BALANCES = 1000;
/** Largest instant a JavaScript Date holds (ms either side of 1970). */
const MAX_TIME = 8.64e15;

const TRADE_FIELDS = ['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason', 'fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const;
const REQUIRED = ['timestamp', 'agent', 'fromToken', 'toToken', 'amount'] as const;
/** The parent chains the API knows (the only values of `fromChain` and `toChain`). */
const PARENT_CHAINS = ['evm', 'svm'];

/** The text of an input file, refused above {@link MAX_INPUT_BYTES}; an {@link InputFileError} when it cannot be read. */
export function readInput(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size > MAX_INPUT_BYTES) throw new InputFileError(path, `${size} bytes, more than the ${MAX_INPUT_BYTES / 1024 / 1024} MB an input file may hold`);
    return readFileSync(fd, 'utf8');
  } catch (err) {
    if (err instanceof InputFileError) throw err;
    const reason = (err as Error).message;
    throw new InputFileError(path, reason, `cannot read ${path}: ${reason}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An instant: epoch ms (number or digits) or an ISO 8601 text, inside the Date range. */
export function toMs(v: unknown, where: string): number {
  const ms = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : Date.parse(String(v));
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME) throw new ReplayInputError(`${where}: not a time (ISO 8601 or epoch ms): ${JSON.stringify(v)}`);
  return ms;
}

/** One trade from its fields; `namesChecked` skips the check of the field names (rows of one CSV share them: the first row checks them). */
function toTrade(raw: Record<string, unknown>, where: string, namesChecked = false): ReplayTrade {
  for (const k of REQUIRED) if (raw[k] === undefined || raw[k] === '' || raw[k] === null) throw new ReplayInputError(`${where}: missing ${k}`);
  if (!namesChecked) {
    for (const k of Object.keys(raw)) if (!(TRADE_FIELDS as readonly string[]).includes(k)) throw new ReplayInputError(`${where}: unknown field '${k}' (known: ${TRADE_FIELDS.join(', ')})`);
  }
  for (const k of TRADE_FIELDS) {
    const v = raw[k];
    if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') throw new ReplayInputError(`${where}.${k}: expected text, got ${JSON.stringify(v)}`);
  }
  const t: ReplayTrade = {
    timestamp: toMs(raw.timestamp, `${where}.timestamp`), agent: String(raw.agent), fromToken: String(raw.fromToken),
    toToken: String(raw.toToken), amount: String(raw.amount), reason: raw.reason === undefined || raw.reason === '' || raw.reason === null ? 'replay' : String(raw.reason),
  };
  for (const k of ['fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const) if (raw[k] !== undefined && raw[k] !== '' && raw[k] !== null) t[k] = String(raw[k]);
  for (const k of ['fromChain', 'toChain'] as const) {
    if (t[k] !== undefined && !PARENT_CHAINS.includes(t[k]!)) throw new ReplayInputError(`${where}.${k}: must be evm or svm, got '${t[k]}'`);
  }
  return t;
}

function jsonTrades(text: string, file: string): ReplayTrade[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ReplayInputError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : doc !== null && typeof doc === 'object' ? (doc as { trades?: unknown }).trades : undefined;
  if (!Array.isArray(list)) throw new ReplayInputError(`${file}: expected an array of trades or {"trades": [...]}`);
  if (list.length > MAX_TRADES) throw new ReplayInputError(`${file}: ${list.length} trades, more than the ${MAX_TRADES} a replay takes`);
  return list.map((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new ReplayInputError(`${file}: trades[${i}] is not an object`);
    return toTrade(r as Record<string, unknown>, `${file}: trades[${i}]`);
  });
}

function csvTrades(text: string, file: string): ReplayTrade[] {
  let csv;
  try {
    csv = parseCsv(text, file);
  } catch (err) {
    if (err instanceof CsvReadError) throw new ReplayInputError(err.message);
    throw err;
  }
  const { records } = csv;
  if (records.length === 0) throw new ReplayInputError(`${file}: no header row`);
  if (records.length - 1 > MAX_TRADES) throw new ReplayInputError(`${file}: ${records.length - 1} trades, more than the ${MAX_TRADES} a replay takes`);
  const header = records[0]!;
  const out = new Array<ReplayTrade>(records.length - 1);
  for (let r = 1; r < records.length; r++) {
    const cells = records[r]!;
    if (cells.length !== header.length) throw new ReplayInputError(`${file}:${csv.lineOf(r)}: ${cells.length} cells, the header has ${header.length}`);
    // Every name an own member (a `__proto__` too, for toTrade to refuse), the last of a repeated one winning.
    const raw: Record<string, unknown> = {};
    for (let i = 0; i < header.length; i++) setOwn(raw, header[i]!, cells[i]);
    try {
      out[r - 1] = toTrade(raw, '', r > 1);
    } catch (err) {
      // The row's place is worked out only for its message (it costs a second parse).
      if (err instanceof ReplayInputError) throw new ReplayInputError(`${file}:${csv.lineOf(r)}${err.message}`);
      throw err;
    }
  }
  return out;
}

/** Trades from CSV (header row with the field names) or JSON (an array, or `{trades: [...]}`), sorted by time (stable). */
export function parseTrades(text: string, file: string): ReplayTrade[] {
  const trimmed = text.trimStart();
  const trades = trimmed.startsWith('[') || trimmed.startsWith('{') ? jsonTrades(text, file) : csvTrades(text, file);
  // Recorded trades are usually in time order already: then the stable sort would keep them as they are.
  let ordered = true;
  for (let i = 1; i < trades.length && ordered; i++) ordered = trades[i - 1]!.timestamp <= trades[i]!.timestamp;
  if (ordered) return trades;
  return trades.map((t, i) => ({ t, i })).sort((a, b) => a.t.timestamp - b.t.timestamp || a.i - b.i).map((x) => x.t);
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ReplayInputError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
}

/** A tape file: `{"tapes": {...}}` or the map itself; points `[ISO or ms, price]`. */
export function parseTapes(text: string, file: string): Tapes {
  const doc = parseJson(text, file);
  const map = doc !== null && typeof doc === 'object' && 'tapes' in doc ? (doc as { tapes: unknown }).tapes : doc;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new ReplayInputError(`${file}: expected {"<chain>:<address>": [[time, price], ...]}`);
  // Keys hold a colon, so none of them is `__proto__`.
  const out: Tapes = {};
  let points = 0;
  for (const [key, list] of Object.entries(map as Record<string, unknown>)) {
    if (!/^[a-z]+:.+$/.test(key)) throw new ReplayInputError(`${file}: key '${key}' is not <chain>:<address>`);
    if (!Array.isArray(list) || list.length === 0) throw new ReplayInputError(`${file}: ${key}: expected a non-empty list of [time, price]`);
    points += list.length;
    if (points > MAX_TAPE_POINTS) throw new ReplayInputError(`${file}: more than the ${MAX_TAPE_POINTS} tape points a replay takes`);
    out[key] = list.map((p, i) => {
      const where = `${file}: ${key}[${i}]`;
      if (!Array.isArray(p) || p.length !== 2 || typeof p[1] !== 'number' || !Number.isFinite(p[1]) || p[1] < 0) throw new ReplayInputError(`${where}: expected [time, price >= 0]`);
      return [toMs(p[0], where), p[1]] as [number, number];
    });
  }
  return out;
}

/** Starting balances: `[{specificChain, tokenSymbol, amount}]`, each field checked. */
export function parseBalances(text: string, file: string): ReplayBalance[] {
  const doc = parseJson(text, file);
  if (!Array.isArray(doc)) throw new ReplayInputError(`${file}: expected [{"specificChain", "tokenSymbol", "amount"}, ...]`);
  if (doc.length > MAX_BALANCES) throw new ReplayInputError(`${file}: ${doc.length} starting balances, more than ${MAX_BALANCES}`);
  return doc.map((b: unknown, i) => {
    const where = `${file}: [${i}]`;
    if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new ReplayInputError(`${where}: expected {"specificChain", "tokenSymbol", "amount"}`);
    const r = b as Record<string, unknown>;
    if (typeof r.specificChain !== 'string') throw new ReplayInputError(`${where}.specificChain: expected text`);
    if (typeof r.tokenSymbol !== 'string') throw new ReplayInputError(`${where}.tokenSymbol: expected text`);
    if (typeof r.amount !== 'number' || !Number.isFinite(r.amount) || r.amount < 0) throw new ReplayInputError(`${where}.amount: expected a number >= 0`);
    return { specificChain: r.specificChain, tokenSymbol: r.tokenSymbol, amount: r.amount };
  });
}

/** What a fork directory's manifest (`fork.json`) gives a replay: file paths (inside the directory), times in ms, agents, the source. */
export interface ForkReplayInputs {
  trades: string;
  prices: string;
  balances?: string;
  intervalMs: number;
  start: number;
  end: number;
  agents?: string[];
  /** The competition's name at the source (the replay keeps it). */
  name?: string;
  /** The source's URL. */
  source?: string;
}

/**
 * Reads `dir/fork.json` (`replay --fork` and `sweep` of a fork directory). The files it names must
 * be plain names inside `dir`; a bad manifest throws a {@link ReplayInputError} naming the file and the field.
 */
export function readForkManifest(dir: string): ForkReplayInputs {
  const path = join(dir, 'fork.json');
  const bad = (why: string) => new ReplayInputError(`${path}: ${why}`);
  let m: { files?: Record<string, unknown>; replay?: Record<string, unknown>; source?: Record<string, unknown> };
  try {
    m = JSON.parse(readInput(path)) as typeof m;
  } catch (err) {
    throw bad(`cannot read it: ${err instanceof InputFileError ? err.reason : (err as Error).message}`);
  }
  const files = m !== null && typeof m === 'object' && m.files !== null && typeof m.files === 'object' ? m.files : {};
  const r = m !== null && typeof m === 'object' && m.replay !== null && typeof m.replay === 'object' ? m.replay : {};
  if (typeof files.trades !== 'string' || typeof files.prices !== 'string' || typeof r.start !== 'string' || typeof r.end !== 'string' || typeof r.intervalMs !== 'number') {
    throw bad('not a fork manifest (files.trades, files.prices, replay.start, replay.end, replay.intervalMs)');
  }
  const inside = (field: string, name: string) => {
    if (name === '' || basename(name) !== name || name === '.' || name === '..') throw bad(`${field} must name a file inside the directory, got '${name}'`);
    return join(dir, name);
  };
  if (!Number.isInteger(r.intervalMs) || r.intervalMs < 1000) throw bad(`replay.intervalMs must be an integer >= 1000, got ${r.intervalMs}`);
  if (r.agents !== undefined && (!Array.isArray(r.agents) || r.agents.some((a) => typeof a !== 'string'))) throw bad('replay.agents must be a list of names');
  const out: ForkReplayInputs = {
    trades: inside('files.trades', files.trades), prices: inside('files.prices', files.prices), intervalMs: r.intervalMs,
    start: toMs(r.start, `${path}: replay.start`), end: toMs(r.end, `${path}: replay.end`),
  };
  if (typeof files.balances === 'string') {
    const balances = inside('files.balances', files.balances);
    if (existsFile(balances)) out.balances = balances;
  }
  if (Array.isArray(r.agents)) out.agents = r.agents as string[];
  const source = m.source !== null && typeof m.source === 'object' ? m.source : {};
  if (typeof source.name === 'string' && source.name !== '') out.name = source.name;
  if (typeof source.url === 'string') out.source = source.url;
  return out;
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
