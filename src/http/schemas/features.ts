// Schemas and 400 formats of wallet verification, the inference badge, perps, spot-live swaps and competition scripts.
import type { JSONSchema, RouteDef } from '../route.js';
import { nonEmpty, obj, str, uuid, uuidParams } from './common.js';

const limit = (dflt: number): JSONSchema => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt });
const offset: JSONSchema = { type: 'integer', minimum: 0, default: 0 };
const amount: JSONSchema = { type: ['number', 'string'] };
const parentChain: JSONSchema = { type: 'string', enum: ['evm', 'svm'] };

/** Upstream's zod families: body, query and path failures of the badge routes. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid request format: ${where} (${reason})`;
export const invalidQuery: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid query parameters: ${where} (${reason})`;
export const invalidCompetitionId: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid competition ID: ${where} (${reason})`;

/**
 * `POST /api/auth/verify`: documentation only (no constraint): whatever is sent, the domain checks it
 * and answers upstream's messages (`Message and signature are required`, ...).
 */
export const verifyBody: JSONSchema = {
  description: 'The signed wallet-verification message and its EIP-191 signature',
  properties: {
    message: { description: 'The five-line message (domain, purpose, timestamp, nonce) as signed' },
    signature: { description: '65 bytes of hex, with or without 0x' },
  },
};

/** `POST .../signatures`: uuid, non-empty strings, 65 bytes of hex with an optional `0x`. */
export const signatureBody = obj({
  competitionId: uuid, requestPrompt: nonEmpty, responseModel: nonEmpty, responseOutput: nonEmpty,
  signature: { type: 'string', pattern: '^(0x)?[a-fA-F0-9]{130}$' },
}, ['competitionId', 'requestPrompt', 'responseModel', 'responseOutput', 'signature']);

/** `?competitionId=` of the badge. */
export const badgeQuery = obj({ competitionId: uuid }, ['competitionId']);
/** `?competitionId=&limit=&offset=&status=` of the submissions list. */
export const submissionsQuery = obj({
  competitionId: uuid, limit: limit(50), offset, status: { type: 'string', enum: ['verified', 'invalid', 'pending'] },
}, ['competitionId']);
/** `{competitionId}` of the public stats. */
export const competitionIdParams = uuidParams('competitionId');

/** `?competitionId=` of the agent perps routes: any string (upstream does not validate it; unknown -> 404). */
export const perpsQuery = obj({ competitionId: str });
/** `?status=&limit=&offset=` of the all-positions list (upstream's generic paging: default limit 10). */
export const allPositionsQuery = obj({ status: { type: 'string', default: 'Open' }, limit: limit(10), offset });

/** Admin open body. */
export const openPositionBody = obj({
  agentId: uuid, asset: nonEmpty, side: { type: 'string', enum: ['long', 'short'] },
  sizeUsd: { type: 'number', exclusiveMinimum: 0 }, leverage: { type: 'number', minimum: 1, maximum: 50 },
}, ['agentId', 'asset', 'side', 'sizeUsd', 'leverage']);
/** `{competitionId}/perps/positions/{positionId}` of the admin close. */
export const positionParams = obj({ competitionId: uuid, positionId: nonEmpty }, ['competitionId', 'positionId']);

/** Admin swap body (amounts as numbers or numeric strings, like trade amounts). */
export const swapBody = obj({
  agentId: uuid, fromToken: nonEmpty, toToken: nonEmpty, fromAmount: amount, toAmount: amount, txHash: nonEmpty,
  blockNumber: { type: 'integer', minimum: 0 }, protocol: str, fromChain: parentChain, toChain: parentChain, fromSpecificChain: str, toSpecificChain: str,
}, ['agentId', 'fromToken', 'toToken', 'fromAmount']);

/** A script: `{actions: [{action, at | afterMs, ...}]}` (each action is checked by the domain, which names it). */
export const scriptBody = obj({
  actions: { type: 'array', items: obj({ action: nonEmpty, at: { type: ['number', 'string'] }, afterMs: { type: 'number', minimum: 0 }, ref: str }, ['action']) },
}, ['actions']);
