// Child process of the lock race test: on each message takes the lock of the given directory, answers whether it won, and keeps it.
import { acquireLock } from '../../src/adapters/file/state-files.js';

process.on('message', (msg: { dir: string }) => {
  try {
    acquireLock(msg.dir, () => undefined);
    process.send!({ won: true });
  } catch (err) {
    process.send!({ won: false, error: (err as Error).name === 'StateLockedError' ? null : (err as Error).message });
  }
});
