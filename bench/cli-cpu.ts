// Runs the compsim CLI in this process and reports its CPU time (user + system, every thread) on stderr, for bench/parallel.ts.
import { main } from '../src/cli/main.js';

const code = await main(process.argv.slice(2));
const { user, system } = process.cpuUsage();
process.stderr.write(`\nCPU_US ${user + system}\n`);
process.exit(code);
