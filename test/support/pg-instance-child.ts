/**
 * Child process of the two-instance kill test: runs one instance's share of the work
 * (pg-instance.ts) and reports to the parent over IPC.
 *
 *   node --import tsx pg-instance-child.ts <url> <first marker> <instance name> <lock prefix>
 */
import { runInstance } from './pg-instance.js';

const [url, first, name, prefix] = process.argv.slice(2) as [string, string, string, string];
await runInstance(url, Number(first), name, (m) => process.send?.(m), prefix);
