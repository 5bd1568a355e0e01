// Boot image personalization (issue 12), against the built image (`npm run iso` first).
//
//   node bench/iso.js [--runs 3]
//
// Prints, beside a baseline measured in the same run:
//   - baseline: `cp` of the base image (the least any per-account copy can cost),
//   - personalize: `erasure-iso personalize` writing the copy with a token and gateway added
//     (xorriso replaying the boot setup), to a file and streamed to a pipe as /downloads does.
// Goal: personalizing costs about a plain copy, i.e. seconds, and never a rebuild.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const base = new URL('../iso-build/out/erasure-0.1.0-amd64.iso', import.meta.url).pathname;
if (!existsSync(base)) {
  console.log(`iso: skipped, ${base} is missing (run \`npm run iso\` first)`);
  process.exit(0);
}
const { personalizeIso, streamPersonalizedIso } = await import(new URL('../iso-build/dist/index.js', import.meta.url).href);
const dir = mkdtempSync(join(tmpdir(), 'bench-iso-'));
const token = 'eyJhbGciOiJFZERTQSJ9.eyJqdGkiOiJiZW5jaCJ9.c2lnbmF0dXJl';
const p = { deviceToken: token, gatewayUrl: 'https://gw.example.net' };
const mib = statSync(base).size / 1024 ** 2;

async function best(fn) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    min = Math.min(min, performance.now() - t);
    // Page cache pressure from the last copy must not favour the next run either way.
    rmSync(join(dir, `out-${i}.iso`), { force: true });
  }
  return min / 1000;
}

try {
  const cp = await best((i) => execFileSync('cp', [base, join(dir, `out-${i}.iso`)]));
  const file = await best((i) => personalizeIso(base, join(dir, `out-${i}.iso`), p));
  const streamed = await best(
    () =>
      new Promise((resolve, reject) => {
        const { stream, done } = streamPersonalizedIso(base, p);
        const sink = spawn('sh', ['-c', 'cat > /dev/null'], { stdio: ['pipe', 'ignore', 'inherit'] });
        stream.pipe(sink.stdin);
        Promise.all([done, new Promise((r) => sink.on('exit', r))]).then(resolve, reject);
      }),
  );
  const line = (label, s) => `${label.padEnd(40)} ${s.toFixed(2).padStart(6)} s   ${(mib / s).toFixed(0).padStart(5)} MiB/s`;
  console.log(`image ${mib.toFixed(0)} MiB, best of ${runs}`);
  console.log(line('baseline: cp of the base image', cp));
  console.log(line('personalize to a file', file));
  console.log(line('personalize streamed (as /downloads)', streamed));
  console.log(`personalize / cp: ${(file / cp).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
