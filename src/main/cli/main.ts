/** Entry point of the `sightline` bin (built to out/main/cli.js; `npm run sightline` runs it from source). */
import { processIo } from './io.js';
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
