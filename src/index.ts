// Library entry: the documented public API (docs/library.md); importing it has no side effects.

// A world, its options, and serving it (Koa app, or one request at a time without a socket).
export { createWorld, type World, type ResettableOptions } from './world/world.js';
export type { WorldOptions } from './world/config.js';
export type { WorldFixture } from './world/fixture.js';
export type { FeedDef } from './adapters/prices/feeds.js';
export type { Deps, WorldConfig } from './domain/deps.js';
export type { Principal } from './http/route.js';
export type { SimControl } from './http/world-port.js';
export type { Fault, FaultSpec } from './ports/faults.js';
export { createServer, type ServerOptions } from './http/adapters/server.js';
export { createDoor, type Door, type DoorOptions, type DoorRequest, type DoorResponse } from './http/adapters/door.js';
export { DomainError } from './domain/errors.js';

// Many worlds behind one server.
export { WorldHost, DEFAULT_MAX_WORLDS, type WorldHostOptions } from './world/world-host.js';
export type { CreateWorldInput, WorldInfo, WorldsControl } from './http/worlds.js';

// Worlds kept on disk.
export { StatePersistence, type WorldPersistence } from './world/persistence.js';
export { FileStore, type FileStoreOptions } from './adapters/file/file-store.js';
export { StateCorruptError, StateVersionError } from './adapters/file/frame.js';
export { StateLockedError } from './adapters/file/state-files.js';

// Wallet verification and inference signatures (real secp256k1).
export {
  addressOf, signInference, signWalletVerification, walletVerificationMessage, UPSTREAM_INFERENCE_SIGNER,
  type InferenceFields, type SignedMessage, type WalletMessageFields,
} from './world/signing.js';
export { DEFAULT_WALLET_DOMAIN } from './world/config.js';

// Scenarios and the targets they run against.
export { runScenario, type ScenarioResult, type StepFailure, type RunEvent, type RunOptions } from './harness/runner.js';
export { parseScenario, loadScenario, validateScenario, ScenarioError } from './harness/schema.js';
export { httpTarget, targetResponse, type Target, type TargetRequest, type TargetResponse } from './harness/targets.js';
export { worldTarget, type ScenarioWorld, type WorldTargetOptions } from './harness/world-target.js';
export type { Scenario, ScenarioDoc, Step } from './harness/types.js';
export { inProcessTarget } from './world/in-process-target.js';
