// Worker entry when compsim runs from its TypeScript sources through tsx: workers do not inherit tsx's loader, so register it here, then load the real entry.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
