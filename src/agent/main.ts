import { runAgentCli } from './cli.js';

// Exit explicitly: idle keep-alive sockets or a late timer must not keep a finished command alive.
process.exit(await runAgentCli(process.argv.slice(2)));
