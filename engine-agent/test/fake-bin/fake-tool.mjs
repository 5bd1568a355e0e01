// Shared body of the fake hardware tools. Each fake binary calls replay(<tool name>).
//
// FAKE_FIXTURE_DIR   folder the fixture paths are relative to (the real-hardware captures).
// FAKE_SCENARIO_FILE JSON: { "<tool>": [{ "match": "<regex over the joined args>", "fixture"?: "<path>",
//                    "stdout"?: "<text>", "stderrFixture"?: "<path>", "stderr"?: "<text>", "exit"?: <code> }] }
//                    "times"?: <n> limits a rule to its first n matches, so a poll can replay
//                    "in progress" a few times and then "done" (counts live in <scenario>.counts).
//                    "untilFile"?: "<path>" limits a rule to the time before that file exists, so a
//                    drive can stay frozen until the fake rtcwake ran, however many probes come first.
//                    "erase"?: { "device": "<path>", "bytes": <n>, "fill": "zero" | "random" } makes the
//                    fake drive do what it answers: it overwrites the first <n> bytes of the device (an
//                    honest firmware: all of them; a partial one: fewer). A rule without it only answers,
//                    as a firmware that lies about its erase does.
//                    "touch"?: "<path>" creates that file when the rule answers, so a drive's state can
//                    change with what was sent to it (an unlock with the right password), for "untilFile".
// The first rule whose regex matches the arguments wins; no match exits 2 like a usage error.
import { randomFillSync } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export function replay(tool) {
  const args = process.argv.slice(2);
  const joined = args.join(' ');
  if (process.env.FAKE_CALL_LOG) appendFileSync(process.env.FAKE_CALL_LOG, `${JSON.stringify([tool, ...args])}\n`);
  const scenarioFile = process.env.FAKE_SCENARIO_FILE;
  if (!scenarioFile) {
    process.stderr.write(`fake ${tool}: FAKE_SCENARIO_FILE is not set\n`);
    process.exit(2);
  }
  const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
  const countsFile = `${scenarioFile}.counts`;
  const counts = existsSync(countsFile) ? JSON.parse(readFileSync(countsFile, 'utf8')) : {};
  const rules = scenario[tool] ?? [];
  const applies = (r, i) => (r.times === undefined || (counts[`${tool}:${i}`] ?? 0) < r.times) && (r.untilFile === undefined || !existsSync(r.untilFile));
  const index = rules.findIndex((r, i) => new RegExp(r.match).test(joined) && applies(r, i));
  const rule = rules[index];
  if (rule?.times !== undefined) {
    counts[`${tool}:${index}`] = (counts[`${tool}:${index}`] ?? 0) + 1;
    writeFileSync(countsFile, JSON.stringify(counts));
  }
  if (!rule) {
    process.stderr.write(`fake ${tool}: no scenario rule for "${joined}"\n`);
    process.exit(2);
  }
  if (rule.erase) eraseDevice(rule.erase);
  if (rule.touch) writeFileSync(rule.touch, '');
  const dir = process.env.FAKE_FIXTURE_DIR ?? '.';
  if (rule.fixture) process.stdout.write(readFileSync(join(dir, rule.fixture)));
  if (rule.stdout) process.stdout.write(rule.stdout);
  if (rule.stderrFixture) process.stderr.write(readFileSync(join(dir, rule.stderrFixture)));
  if (rule.stderr) process.stderr.write(rule.stderr);
  process.exitCode = rule.exit ?? 0;
}

/** Overwrites the first `bytes` of `device` with zeros or random bytes, durably (what an erase leaves). */
function eraseDevice({ device, bytes, fill }) {
  const fd = openSync(device, 'r+');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (let at = 0; at < bytes; at += chunk.length) {
      const length = Math.min(chunk.length, bytes - at);
      if (fill === 'random') randomFillSync(chunk);
      writeSync(fd, chunk, 0, length, at);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
