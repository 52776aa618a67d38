/**
 * `npm run reference -- [--fault NAME] [--variant NAME] [--port N] [--regional-port N]`: starts the
 * reference on loopback and prints the lines that describe it to the suite (reference/cli.ts).
 * --help and --list start nothing. A bad option or a port that cannot be listened on: one line, exit 2.
 */
import {
  parseReferenceCli,
  REFERENCE_USAGE,
  ReferenceUsageError,
  referenceList,
  referenceOptions,
  startedText,
  type ReferenceCli,
} from './cli.ts';
import { stopWithLauncher } from './launcher-watch.ts';
import { startReference } from './server.ts';

/** Every line the command says on stderr starts as the user typed the command (`conformance diff: …`). */
const SAYS = 'conformance reference:';

function fail(message: string): never {
  process.stderr.write(`${SAYS} ${message}\n`);
  process.exit(2);
}

let cli: ReferenceCli;
try {
  cli = parseReferenceCli(process.argv.slice(2));
} catch (e) {
  if (e instanceof ReferenceUsageError) fail(`${e.message} (see --help)`);
  throw e;
}

if (cli.help) {
  process.stdout.write(`${REFERENCE_USAGE}\n`);
  process.exit(0);
}
if (cli.list) {
  process.stdout.write(`${referenceList()}\n`);
  process.exit(0);
}

const ref = await startReference(referenceOptions(cli)).catch((e: NodeJS.ErrnoException) => {
  // EADDRINUSE, EACCES (a port below 1024): the listener names the address in its message.
  fail(`cannot listen: ${String(e.message).split('\n')[0]}`);
});
process.stdout.write(startedText(ref, cli));

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`${SAYS} ${signal}, stopping\n`);
  ref.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGHUP'));
// A launcher killed without passing the signal on (`npm run reference & kill $!`): stop with it.
stopWithLauncher(stop);
