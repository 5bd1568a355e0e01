#!/usr/bin/env node
// `npm run soak:station [-- --minutes N] [--check-every M] [--iso PATH] [--journal-to-console]`:
// boots the image in QEMU as a hotswap station, keeps its four bays busy with hot-plugs for N
// minutes (default 60), and every M minutes (default 5) checks the machine's own screen (QMP
// screendump) and the memory of the agent and of the kiosk's renderer, printing a table.
// Figures and screens land in test-results/iso/soak/. Not part of npm test or CI (issue 34).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    'check-every': { type: 'string', default: '5' },
    iso: { type: 'string' },
    'journal-to-console': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const checkEvery = Number(values['check-every']);
if (!(minutes > 0) || !(checkEvery > 0)) {
  process.stderr.write('soak:station: --minutes and --check-every take a positive number of minutes\n');
  process.exit(2);
}
const config = fileURLToPath(new URL('./vitest.config.ts', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const env = {
  ...process.env,
  SOAK_MINUTES: String(minutes),
  SOAK_CHECK_EVERY_MINUTES: String(checkEvery),
  ...(values.iso ? { SOAK_ISO: values.iso } : {}),
  ...(values['journal-to-console'] ? { SOAK_JOURNAL_TO_CONSOLE: '1' } : {}),
};
const r = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--reporter=verbose'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
