// Response schemas of the admin reads and reports: users list, search, transfer violations, performance report, reward allocation, alerts.
import { any, arrayOf, boolean, dateTime, errors, integer, nullable, number, ok, shape, string, type Responses } from '../shared/response.js';
import { Competition } from '../shared/entities.js';

const status = { type: 'string', enum: ['active', 'inactive', 'suspended', 'deleted'] };

/** `toApiUser`: optional fields are absent when null. */
const ListedUser = shape({ id: string, walletAddress: string, isSubscribed: boolean, status, createdAt: dateTime, updatedAt: dateTime }, {
  optional: {
    embeddedWalletAddress: string, walletLastVerifiedAt: dateTime, name: string, email: string, privyId: string, imageUrl: string,
    metadata: any, lastLoginAt: dateTime,
  },
});

/** An agent without key or email; `isVerified` = has a wallet. */
const PublicAgent = shape({ id: string, ownerId: string, name: string, handle: string, status, createdAt: dateTime, updatedAt: dateTime, isVerified: boolean }, {
  optional: { walletAddress: string, description: string, imageUrl: string, metadata: any },
});

export const listUsersResponses: Responses = { 200: ok({ users: arrayOf(ListedUser) }) };
export const searchResponses: Responses = {
  200: ok({ join: boolean, results: shape({ users: arrayOf(ListedUser), agents: arrayOf(PublicAgent) }) }), ...errors(400),
};
export const transferViolationsResponses: Responses = { 200: ok({ violations: arrayOf(any) }), ...errors(400, 404) };
export const alertsResponses: Responses = { 200: ok({ alerts: arrayOf(any) }), ...errors(400, 404) };
export const alertReviewResponses: Responses = { 200: ok({ alert: any }), ...errors(400, 404) };
export const allocateRewardsResponses: Responses = { 200: ok({ message: string, competitionId: string }), ...errors(400, 404) };

const nNumber = nullable(number);
/** The current generation's performance report. */
export const CurrentPerformanceReport = {
  competition: Competition,
  leaderboard: arrayOf(shape({
    rank: integer, agentId: string, agentName: string, agentHandle: string, ownerName: string, portfolioValue: number,
    pnl: nNumber, simpleReturn: nNumber, startingValue: nNumber, currentValue: nNumber, totalTrades: nullable(integer),
  })),
};
