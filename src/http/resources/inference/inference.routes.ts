// Verified-inference badge on both path families (/api/inferai/* and upstream's /api/eigenai/*): submissions, badge, history, public stats.
import {
  agentBadge, agentSubmissions, competitionInferenceStats, submitSignature,
} from '../../../domain/inference/badge.js';
import { pagination } from '../../../domain/data/paging.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { badgeQuery, competitionIdParams, invalidCompetitionId, invalidQuery, signatureBody, submissionsQuery } from './request.js';
import { invalidFormat } from '../shared/request.js';
import { iso } from '../shared/time.js';
import { badgeResponses, inferenceStatsResponses, signatureResponses, submissionsResponses } from './response.js';

/** The routes of one path family (`inferai` is the spec's name, `eigenai` upstream's). */
function familyRoutes(vendor: 'inferai' | 'eigenai'): RouteDef[] {
  const base = { generation: 'current', tag: 'inference' } as const;
  const p = `/api/${vendor}`;
  return [
    route({
      ...base, id: `${vendor}.signatures.submit`, method: 'POST', path: `${p}/signatures`, auth: 'key', agentOnly: true, invalid: invalidFormat,
      summary: 'Submit a signed inference for verification', schemas: { responses: signatureResponses, body: signatureBody },
      handler: async ({ world, principal, body }) => {
        const r = await submitSignature(world.deps, principal, body);
        return {
          body: {
            success: true, submissionId: r.submissionId, verified: r.verificationStatus === 'verified',
            verificationStatus: r.verificationStatus, badgeStatus: r.badgeStatus,
          },
        };
      },
    }),
    route({
      ...base, id: `${vendor}.badge`, method: 'GET', path: `${p}/badge`, auth: 'key', agentOnly: true, invalid: invalidQuery,
      summary: "The caller's verified-inference badge in a competition", schemas: { responses: badgeResponses, query: badgeQuery },
      handler: async ({ world, principal, query }) => {
        const r = await agentBadge(world.deps, principal, query.competitionId);
        return {
          body: {
            success: true, agentId: r.agentId, competitionId: r.competitionId, isBadgeActive: r.badge.isBadgeActive,
            signaturesLast24h: r.badge.signaturesLast24h, lastVerifiedAt: iso(r.badge.lastVerifiedAt),
          },
        };
      },
    }),
    route({
      ...base, id: `${vendor}.submissions`, method: 'GET', path: `${p}/submissions`, auth: 'key', agentOnly: true, invalid: invalidQuery,
      summary: "The caller's signature submissions, newest first", schemas: { responses: submissionsResponses, query: submissionsQuery },
      handler: async ({ world, principal, query }) => {
        const r = await agentSubmissions(world.deps, principal, query);
        return {
          body: {
            success: true, agentId: r.agentId, competitionId: r.competitionId,
            submissions: r.submissions.map((s) => ({ id: s.id, verificationStatus: s.verificationStatus, submittedAt: iso(s.submittedAt), modelId: s.responseModel })),
            pagination: pagination(r.total, query.limit, query.offset),
          },
        };
      },
    }),
    route({
      ...base, id: `${vendor}.competitions.stats`, method: 'GET', path: `${p}/competitions/{competitionId}/stats`, auth: 'public',
      invalid: invalidCompetitionId, summary: 'Verified-inference statistics of a competition', schemas: { responses: inferenceStatsResponses, params: competitionIdParams },
      handler: async ({ world, params }) => ({ body: { success: true, ...(await competitionInferenceStats(world.deps, params.competitionId!)) } }),
    }),
  ];
}

/** Both families: identical behaviour. */
export const INFERENCE_ROUTES: RouteDef[] = [...familyRoutes('inferai'), ...familyRoutes('eigenai')];
